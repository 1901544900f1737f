/// Any JSON value, decoded before its CloudKit type is known (a request may omit `type`). Integers are kept apart
/// from other numbers so `INT64` values above 2^53 stay exact.
enum JSONValue: Decodable, Equatable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let c = try decoder.singleValueContainer()
    // Each failed attempt throws (and allocates an error), so the common kinds in record JSON are tried first. A
    // Boolean is tried before numbers so `true` is not read as 1.
    if c.decodeNil() {
      self = .null
    } else if let v = try? c.decode(String.self) {
      self = .string(v)
    } else if let v = try? c.decode([String: JSONValue].self) {
      self = .object(v)
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

/// A coding key made at run time, for the field names of `fields`.
struct DynamicKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
