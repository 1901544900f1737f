/// Any JSON value, decoded before its CloudKit type is known (a request may omit `type`). Integers are kept apart
/// from other numbers so `INT64` values above 2^53 stay exact.
enum JSONValue: Decodable, Equatable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  init(from decoder: any Decoder) throws {
    let c = try decoder.singleValueContainer()
    // Each failed attempt throws (and allocates an error), so the common kinds in record JSON are tried first. A
    // Boolean is tried before numbers so `true` is not read as 1.
    if c.decodeNil() {
      self = .null
    } else if let v = try? c.decode(String.self) {
      self = .string(v)
    } else if let v = try? c.decode([String: JSONValue].self) {
      self = .object(JSONObject(members: v.map { ($0.key, $0.value) }))
    } else if let v = try? c.decode(Bool.self) {
      self = .bool(v)
    } else if let v = try? c.decode(Int64.self) {
      self = .integer(v)
    } else if let v = try? c.decode(Double.self) {
      self = .number(v)
    } else {
      self = .array(try c.decode([JSONValue].self))
    }
  }

  var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "a Boolean"
    case .integer, .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  var doubleValue: Double? {
    switch self {
    case .integer(let v): return Double(v)
    case .number(let v): return v
    default: return nil
    }
  }
}

/// A JSON object's members, in the order written (a `JSONDecoder` gives them in its dictionary's order). The objects
/// a Web Services value holds (a reference, a zone, an asset, a location) have a handful of keys, so a member is found
/// by a scan: cheaper than building a dictionary for each.
struct JSONObject: Equatable {
  var members: [(key: String, value: JSONValue)]

  /// The value of `key`, or `nil`.
  subscript(key: String) -> JSONValue? {
    for member in members where member.key == key { return member.value }
    return nil
  }

  var keys: [String] { members.map(\.key) }

  /// Equal members, in any order.
  static func == (left: JSONObject, right: JSONObject) -> Bool {
    left.members.count == right.members.count && left.members.allSatisfy { right[$0.key] == $0.value }
  }
}

/// A coding key made at run time, for the field names of `fields`.
struct DynamicKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
