import Foundation

/// One entry of a record's `fields`: `{"value": …, "type": "…"}`.
enum WireField {
  enum Keys: String, CodingKey { case value, type, isEncrypted }

  static let encryptedBytesType = "ENCRYPTED_BYTES"

  private enum AssetKeys: String, CodingKey {
    case fileChecksum, size, referenceChecksum, wrappingKey, receipt, downloadURL
  }

  private enum LocationKeys: String, CodingKey {
    case latitude, longitude, horizontalAccuracy, verticalAccuracy, altitude, speed, course, timestamp
  }

  /// One entry of `fields` as written, before its type is checked.
  struct Entry {
    var name: String
    var type: String?
    /// `nil` when the entry has no `value`.
    var value: JSONValue?
    var isEncrypted: Bool?

    init(name: String, type: String?, value: JSONValue?, isEncrypted: Bool?) {
      self.name = name
      self.type = type
      self.value = value
      self.isEncrypted = isEncrypted
    }

    /// Reads the entry `name` through its container.
    init(_ field: KeyedDecodingContainer<Keys>, name: String) throws {
      self.name = name
      type = try field.decodeIfPresent(String.self, forKey: .type)
      value = field.contains(.value) ? try field.decode(JSONValue.self, forKey: .value) : nil
      isEncrypted = try field.decodeIfPresent(Bool.self, forKey: .isEncrypted)
    }
  }

  /// A record's `fields` object, read entry by entry; ``JSONTree`` reads it without a container per entry.
  struct Entries: Decodable {
    var entries: [Entry]

    init(entries: [Entry]) { self.entries = entries }

    init(from decoder: any Decoder) throws {
      let fields = try decoder.container(keyedBy: DynamicKey.self)
      entries = try fields.allKeys.map { key in
        try Entry(fields.nestedContainer(keyedBy: Keys.self, forKey: key), name: key.stringValue)
      }
    }
  }

  /// The value of `entry` and whether it is encrypted; `path` is the entry's coding path, worked out only for an error
  /// (a tree decoder finds a path by walking down from the top).
  static func decode(_ entry: Entry, recordZone: ZoneID, path entryPath: () -> [any CodingKey]) throws -> (
    FieldValue, Bool
  ) {
    let name = entry.name
    func path() -> [any CodingKey] { entryPath() + [Keys.value] }
    let typeName = entry.type
    guard let json = entry.value else { throw WireCoding.corrupted(entryPath(), "field '\(name)' has no value") }
    if typeName == encryptedBytesType {
      guard case .string(let text) = json, let data = Data(base64Encoded: text) else {
        throw WireCoding.corrupted(path(), "field '\(name)': ENCRYPTED_BYTES must be base64, found \(json.typeName)")
      }
      return (EncryptedValueEnvelope.decode(data), true)
    }
    let type: FieldType
    if let typeName {
      guard let known = FieldType(wireName: typeName) else {
        throw WireCoding.corrupted(entryPath() + [Keys.type], "field '\(name)': unknown type '\(typeName)'")
      }
      type = known
    } else {
      type = try infer(json, name: name, path: path)
    }
    // Some clients mark a decrypted value `"isEncrypted": true` beside its plain type; it belongs in encryptedValues.
    let encrypted = entry.isEncrypted ?? false
    return (try convert(json, to: type, name: name, path: path, recordZone: recordZone), encrypted)
  }

  static func encode(_ value: FieldValue, into c: inout KeyedEncodingContainer<Keys>) throws {
    let wireType: String
    if case .list(let items) = value, items.isEmpty {
      wireType = "STRING_LIST"
    } else {
      wireType = value.type.wireName
    }
    try c.encode(WireValue(value: value), forKey: .value)
    try c.encode(wireType, forKey: .type)
  }

  /// The type a request meant when it left `type` out; see ``Record`` `Codable` rules.
  private static func infer(_ json: JSONValue, name: String, path: () -> [any CodingKey]) throws -> FieldType {
    switch json {
    case .string: return .string
    case .bool, .integer: return .int64
    case .number: return .double
    case .object(let dict):
      if dict["recordName"] != nil { return .reference }
      if dict["latitude"] != nil { return .location }
      let assetKeys = ["fileChecksum", "receipt", "downloadURL", "size", "referenceChecksum", "wrappingKey"]
      if assetKeys.contains(where: { dict[$0] != nil }) { return .asset }
      throw WireCoding.corrupted(path(), "field '\(name)': cannot infer a type for this object; give a type")
    case .array(let items):
      guard let first = items.first else { return .list(nil) }
      let element = try infer(first, name: name, path: path)
      if case .list = element { throw WireCoding.corrupted(path(), "field '\(name)': lists of lists are not allowed") }
      for item in items.dropFirst() {
        let t = try infer(item, name: name, path: path)
        // Integers mixed with other numbers are a list of doubles.
        if t == element || (element == .double && t == .int64) { continue }
        if element == .int64 && t == .double { return try infer(.array(items.map(asNumber)), name: name, path: path) }
        throw WireCoding.corrupted(path(), "field '\(name)': list mixes \(element) and \(t)")
      }
      return .list(element)
    case .null:
      throw WireCoding.corrupted(path(), "field '\(name)': value is null")
    }
  }

  private static func asNumber(_ json: JSONValue) -> JSONValue {
    if case .integer(let v) = json { return .number(Double(v)) }
    return json
  }

  private static func convert(
    _ json: JSONValue, to type: FieldType, name: String, path: () -> [any CodingKey], recordZone: ZoneID
  ) throws -> FieldValue {
    func mismatch() -> DecodingError {
      WireCoding.corrupted(path(), "field '\(name)': \(type) value expected, found \(json.typeName)")
    }
    switch type {
    case .string:
      guard case .string(let s) = json else { throw mismatch() }
      return .string(s)
    case .int64:
      switch json {
      case .integer(let v): return .int64(v)
      case .bool(let b): return .int64(b ? 1 : 0)
      case .number(let d):
        guard let v = Int64(exactly: d) else { throw mismatch() }
        return .int64(v)
      default: throw mismatch()
      }
    case .double:
      guard let d = json.doubleValue, d.isFinite else { throw mismatch() }
      return .double(d)
    case .timestamp:
      return .timestamp(try WireCoding.date(milliseconds: json, codingPath: path))
    case .bytes:
      guard case .string(let text) = json else { throw mismatch() }
      guard let data = Data(base64Encoded: text) else {
        throw WireCoding.corrupted(path(), "field '\(name)': BYTES value is not valid base64")
      }
      return .bytes(data)
    case .reference:
      return .reference(
        try WireCoding.reference(from: json, recordZone: recordZone, path: path, subject: "field '\(name)'"))
    case .asset:
      guard case .object(let dict) = json else { throw mismatch() }
      func text(_ key: AssetKeys) throws -> String? {
        switch dict[key.rawValue] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw WireCoding.corrupted(path(), "field '\(name)': asset \(key.rawValue) must be a string")
        }
      }
      var size: Int64?
      switch dict["size"] {
      case nil, .null?: size = nil
      case .integer(let v)?: size = v
      default: throw WireCoding.corrupted(path(), "field '\(name)': asset size must be an integer")
      }
      return .asset(
        Asset(
          fileChecksum: try text(.fileChecksum), size: size, referenceChecksum: try text(.referenceChecksum),
          wrappingKey: try text(.wrappingKey), receipt: try text(.receipt), downloadURL: try text(.downloadURL)))
    case .location:
      guard case .object(let dict) = json else { throw mismatch() }
      func number(_ key: LocationKeys) throws -> Double? {
        guard let v = dict[key.rawValue], v != .null else { return nil }
        guard let d = v.doubleValue, d.isFinite else {
          throw WireCoding.corrupted(path(), "field '\(name)': location \(key.rawValue) must be a finite number")
        }
        return d
      }
      guard let latitude = try number(.latitude), let longitude = try number(.longitude) else {
        throw WireCoding.corrupted(path(), "field '\(name)': location needs latitude and longitude")
      }
      var timestamp: Date?
      if let t = dict["timestamp"], t != .null { timestamp = try WireCoding.date(milliseconds: t, codingPath: path) }
      return .location(
        Location(
          latitude: latitude, longitude: longitude, horizontalAccuracy: try number(.horizontalAccuracy),
          verticalAccuracy: try number(.verticalAccuracy), altitude: try number(.altitude), speed: try number(.speed),
          course: try number(.course), timestamp: timestamp))
    case .list(let element):
      guard case .array(let items) = json else { throw mismatch() }
      guard let element else { return .list([]) }
      if case .list = element { throw WireCoding.corrupted(path(), "field '\(name)': lists of lists are not allowed") }
      return .list(try items.map { try convert($0, to: element, name: name, path: path, recordZone: recordZone) })
    }
  }

  /// Encodes a value as the JSON `value` of its type.
  private struct WireValue: Encodable {
    let value: FieldValue

    func encode(to encoder: any Encoder) throws {
      switch value {
      case .string(let s):
        var c = encoder.singleValueContainer()
        try c.encode(s)
      case .int64(let v):
        var c = encoder.singleValueContainer()
        try c.encode(v)
      case .double(let d):
        var c = encoder.singleValueContainer()
        try c.encode(d)
      case .timestamp(let date):
        var c = encoder.singleValueContainer()
        try c.encode(WireCoding.milliseconds(date, codingPath: encoder.codingPath))
      case .bytes(let data):
        var c = encoder.singleValueContainer()
        try c.encode(data.base64EncodedString())
      case .reference(let r):
        var c = encoder.container(keyedBy: WireCoding.ReferenceKeys.self)
        try WireCoding.encodeReferenceBody(r, into: &c)
      case .asset(let a):
        var c = encoder.container(keyedBy: AssetKeys.self)
        try c.encodeIfPresent(a.fileChecksum, forKey: .fileChecksum)
        try c.encodeIfPresent(a.size, forKey: .size)
        try c.encodeIfPresent(a.referenceChecksum, forKey: .referenceChecksum)
        try c.encodeIfPresent(a.wrappingKey, forKey: .wrappingKey)
        try c.encodeIfPresent(a.receipt, forKey: .receipt)
        try c.encodeIfPresent(a.downloadURL, forKey: .downloadURL)
      case .location(let l):
        var c = encoder.container(keyedBy: LocationKeys.self)
        try c.encode(l.latitude, forKey: .latitude)
        try c.encode(l.longitude, forKey: .longitude)
        try c.encodeIfPresent(l.horizontalAccuracy, forKey: .horizontalAccuracy)
        try c.encodeIfPresent(l.verticalAccuracy, forKey: .verticalAccuracy)
        try c.encodeIfPresent(l.altitude, forKey: .altitude)
        try c.encodeIfPresent(l.speed, forKey: .speed)
        try c.encodeIfPresent(l.course, forKey: .course)
        if let t = l.timestamp {
          try c.encode(WireCoding.milliseconds(t, codingPath: c.codingPath), forKey: .timestamp)
        }
      case .list(let items):
        var c = encoder.unkeyedContainer()
        for item in items { try c.encode(WireValue(value: item)) }
      }
    }
  }
}
