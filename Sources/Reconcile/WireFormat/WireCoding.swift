import Foundation

/// Shared pieces of the Web Services encoding: zone IDs, references, IDs and the created/modified stamps.
enum WireCoding {
  enum ZoneKeys: String, CodingKey { case zoneName, ownerRecordName }
  enum ReferenceKeys: String, CodingKey { case recordName, action, zoneID }

  /// `userInfo` key for the zone of records and references that name none: a request's `zoneID`.
  static let contextZoneKey = CodingUserInfoKey(rawValue: "reconcile.contextZone")!

  /// The zone a record without `zoneID` is in: the body's zone when one was given, else the default zone.
  static func contextZone(_ decoder: any Decoder) -> ZoneID {
    decoder.userInfo[contextZoneKey] as? ZoneID ?? .default
  }

  /// The largest timestamp JavaScript dates (and so the Web Services) represent: ±8.64e15 ms.
  static let maximumMilliseconds = 8.64e15

  static func corrupted(_ path: [any CodingKey], _ description: String) -> DecodingError {
    .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: description))
  }

  /// Decodes an optional `zoneID` object under `key`; absent or `null` is `nil`.
  static func decodeZoneID<K: CodingKey>(_ c: KeyedDecodingContainer<K>, key: K) throws -> ZoneID? {
    guard c.contains(key) else { return nil }
    return try zoneID(
      from: c.decode(JSONValue.self, forKey: key), path: { c.codingPath + [key] }, subject: key.stringValue)
  }

  /// A zone from `{zoneName, ownerRecordName?}`: the one parser for the record's zone and every reference's zone.
  /// `null` is `nil`; a missing owner is `__defaultOwner__`.
  static func zoneID(from json: JSONValue, path: () -> [any CodingKey], subject: String) throws -> ZoneID? {
    if json == .null { return nil }
    guard case .object(let dict) = json, case .string(let name)? = dict["zoneName"] else {
      throw corrupted(path(), "\(subject): zoneID must be an object with a zoneName string")
    }
    var owner = ZoneID.defaultOwnerName
    switch dict["ownerRecordName"] {
    case nil, .null?: break
    case .string(let o)?: owner = o
    default: throw corrupted(path(), "\(subject): ownerRecordName must be a string")
    }
    do {
      return try ZoneID(zoneName: name, ownerName: owner)
    } catch {
      throw corrupted(path(), "\(subject): \(error)")
    }
  }

  static func encodeZoneID<K: CodingKey>(_ zone: ZoneID, into c: inout KeyedEncodingContainer<K>, key: K) throws {
    var z = c.nestedContainer(keyedBy: ZoneKeys.self, forKey: key)
    try z.encode(zone.zoneName, forKey: .zoneName)
    try z.encode(zone.ownerName, forKey: .ownerRecordName)
  }

  static func recordID(_ name: String, zone: ZoneID, codingPath: () -> [any CodingKey]) throws -> RecordID {
    do {
      return try RecordID(recordName: name, zoneID: zone)
    } catch {
      throw corrupted(codingPath(), error.description)
    }
  }

  /// Decodes an optional reference object under `key` (`parent`, `share`); absent or `null` is `nil`.
  static func decodeReference<K: CodingKey>(_ c: KeyedDecodingContainer<K>, key: K, recordZone: ZoneID) throws
    -> Reference?
  {
    guard c.contains(key) else { return nil }
    let json = try c.decode(JSONValue.self, forKey: key)
    if json == .null { return nil }
    return try reference(from: json, recordZone: recordZone, path: { c.codingPath + [key] }, subject: key.stringValue)
  }

  /// A reference from `{recordName, action?, zoneID?}`: the one parser for fields, `parent` and `share`. Without
  /// `zoneID` the target is in the record's zone; without `action` the action is `NONE`.
  static func reference(from json: JSONValue, recordZone: ZoneID, path: () -> [any CodingKey], subject: String) throws
    -> Reference
  {
    guard case .object(let dict) = json, case .string(let recordName)? = dict["recordName"] else {
      throw corrupted(path(), "\(subject): a reference must be an object with a recordName string")
    }
    let zone = try dict["zoneID"].flatMap { try zoneID(from: $0, path: path, subject: subject) } ?? recordZone
    var action = Reference.Action.none
    if let value = dict["action"], value != .null {
      guard case .string(let text) = value, let known = Reference.Action(rawValue: text) else {
        throw corrupted(path(), "\(subject): unknown reference action")
      }
      action = known
    }
    do {
      return Reference(recordID: try RecordID(recordName: recordName, zoneID: zone), action: action)
    } catch {
      throw corrupted(path(), "\(subject): \(error)")
    }
  }

  static func encodeReference<K: CodingKey>(_ reference: Reference, into c: inout KeyedEncodingContainer<K>, key: K)
    throws
  {
    var r = c.nestedContainer(keyedBy: ReferenceKeys.self, forKey: key)
    try encodeReferenceBody(reference, into: &r)
  }

  static func encodeReferenceBody(_ reference: Reference, into r: inout KeyedEncodingContainer<ReferenceKeys>) throws {
    try r.encode(reference.recordID.recordName, forKey: .recordName)
    try r.encode(reference.action.rawValue, forKey: .action)
    try encodeZoneID(reference.recordID.zoneID, into: &r, key: .zoneID)
  }

  static func milliseconds(_ date: Date, codingPath: [any CodingKey]) throws -> Int64 {
    let ms = (date.timeIntervalSince1970 * 1000).rounded()
    guard ms.isFinite, abs(ms) <= maximumMilliseconds else {
      throw EncodingError.invalidValue(
        date, EncodingError.Context(codingPath: codingPath, debugDescription: "date is outside the wire format's range")
      )
    }
    return Int64(ms)
  }

  /// A date from milliseconds since 1970, rejecting what no real timestamp can be. A fraction of a millisecond is
  /// rounded away: the wire format carries whole milliseconds, so a decoded record encodes back to the same value.
  static func date(milliseconds value: JSONValue, codingPath: () -> [any CodingKey]) throws -> Date {
    guard let ms = value.doubleValue, ms.isFinite, abs(ms) <= maximumMilliseconds else {
      throw corrupted(
        codingPath(), "timestamp must be milliseconds since 1970 within ±8.64e15, found \(value.typeName)")
    }
    return Date(timeIntervalSince1970: ms.rounded() / 1000)
  }
}

/// `created` and `modified`: `{timestamp, userRecordName, deviceID}`.
struct WireStamp: Codable {
  var date: Date?
  var userRecordName: String?
  var deviceID: String?

  enum CodingKeys: String, CodingKey { case timestamp, userRecordName, deviceID }

  init(date: Date?, userRecordName: String?, deviceID: String?) {
    self.date = date
    self.userRecordName = userRecordName
    self.deviceID = deviceID
  }

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    if c.contains(.timestamp), try !c.decodeNil(forKey: .timestamp) {
      let value = try c.decode(JSONValue.self, forKey: .timestamp)
      date = try WireCoding.date(milliseconds: value, codingPath: { c.codingPath + [CodingKeys.timestamp] })
    }
    userRecordName = try c.decodeIfPresent(String.self, forKey: .userRecordName)
    deviceID = try c.decodeIfPresent(String.self, forKey: .deviceID)
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    if let date { try c.encode(WireCoding.milliseconds(date, codingPath: c.codingPath), forKey: .timestamp) }
    try c.encodeIfPresent(userRecordName, forKey: .userRecordName)
    try c.encodeIfPresent(deviceID, forKey: .deviceID)
  }
}
