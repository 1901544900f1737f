import Foundation

/// `Record: Codable` is Reconcile's lossless format for keeping records on the device — a cache, a queue of pending
/// saves — with `JSONEncoder`, `PropertyListEncoder` or any coder:
///
/// ```swift
/// let data = try JSONEncoder().encode(pending)           // everything, changed keys included
/// let back = try JSONDecoder().decode([Record].self, from: data)
/// back == pending && back.map(\.changedKeys) == pending.map(\.changedKeys)   // true
/// ```
///
/// It keeps everything a ``Record`` holds: the ID and type as they are (even if invalid: nothing is validated, so what
/// was stored is what comes back), every plain and encrypted value with its exact type — doubles and dates to the bit,
/// encrypted values in clear (this is local storage; protect it as you protect the rest of the app's data) — the changed
/// keys, `parent`, `share`, `isDeleted` and every system field. Values are stored in Reconcile's tagged binary form
/// (base64 in JSON), dates as seconds since 2001.
///
/// This is **not** the CloudKit Web Services format: use ``Record/wireJSON()`` and ``Record/init(wireJSON:)`` (or
/// ``Record/encodeWireFormat(to:)`` inside your own bodies) to talk to a server.
extension Record: Codable {
  private enum Keys: String, CodingKey {
    case format, recordType, recordName, zoneName, ownerName, values, encryptedValues, changedKeys, parent, share
    case isDeleted, recordChangeTag, creationDate, modificationDate, creatorUserRecordName
    case lastModifiedUserRecordName, modifiedByDevice, creatorDevice
  }

  /// The version of the local format written in `format`.
  static let localFormat = 1

  /// Decodes a record stored with `encode(to:)`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the key that is missing, mistyped, holds a value that is not one Reconcile wrote,
  ///   or is stored both plain and encrypted (a key holds one value); a newer `format` than this version reads is
  ///   refused.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    let format = try c.decode(Int.self, forKey: .format)
    guard format == Self.localFormat else {
      throw DecodingError.dataCorruptedError(
        forKey: .format, in: c, debugDescription: "local record format \(format) is not \(Self.localFormat)")
    }
    let zone = ZoneID(
      uncheckedZoneName: try c.decode(String.self, forKey: .zoneName),
      ownerName: try c.decode(String.self, forKey: .ownerName))
    let id = RecordID(uncheckedRecordName: try c.decode(String.self, forKey: .recordName), zoneID: zone)
    let box = Storage(recordType: try c.decode(String.self, forKey: .recordType), recordID: id)
    box.values = try Self.decodeValues(c, .values)
    box.encrypted = try Self.decodeValues(c, .encryptedValues)
    if let key = box.values.firstKeyShared(with: box.encrypted) {
      throw DecodingError.dataCorruptedError(
        forKey: .encryptedValues, in: c,
        debugDescription: "'\(key)' is stored both plain and encrypted; a key holds one value")
    }
    box.changedKeys = Set(try c.decodeIfPresent([String].self, forKey: .changedKeys) ?? [])
    box.parent = try Self.decodeReference(c, .parent)
    box.share = try Self.decodeReference(c, .share)
    box.isDeleted = try c.decodeIfPresent(Bool.self, forKey: .isDeleted) ?? false
    box.system.recordChangeTag = try c.decodeIfPresent(String.self, forKey: .recordChangeTag)
    box.system.creationDate = try c.decodeIfPresent(Double.self, forKey: .creationDate).map(
      Date.init(timeIntervalSinceReferenceDate:))
    box.system.modificationDate = try c.decodeIfPresent(Double.self, forKey: .modificationDate).map(
      Date.init(timeIntervalSinceReferenceDate:))
    box.system.creatorUserRecordName = try c.decodeIfPresent(String.self, forKey: .creatorUserRecordName)
    box.system.creatorDevice = try c.decodeIfPresent(String.self, forKey: .creatorDevice)
    box.system.lastModifiedUserRecordName = try c.decodeIfPresent(String.self, forKey: .lastModifiedUserRecordName)
    box.system.modifiedByDevice = try c.decodeIfPresent(String.self, forKey: .modifiedByDevice)
    self.init(storage: box)
  }

  /// Stores everything the record holds; see above. Nothing is validated.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws (for example `JSONEncoder` refuses a non-finite date).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    let s = storage
    try c.encode(Self.localFormat, forKey: .format)
    try c.encode(s.recordType, forKey: .recordType)
    try c.encode(s.recordID.recordName, forKey: .recordName)
    try c.encode(s.recordID.zoneID.zoneName, forKey: .zoneName)
    try c.encode(s.recordID.zoneID.ownerName, forKey: .ownerName)
    if !s.values.isEmpty {
      try c.encode(s.values.dictionary.mapValues(EncryptedValueEnvelope.encodeTagged), forKey: .values)
    }
    if !s.encrypted.isEmpty {
      try c.encode(s.encrypted.dictionary.mapValues(EncryptedValueEnvelope.encodeTagged), forKey: .encryptedValues)
    }
    if !s.changedKeys.isEmpty { try c.encode(s.changedKeys.sorted(), forKey: .changedKeys) }
    if let parent = s.parent {
      try c.encode(EncryptedValueEnvelope.encodeTagged(.reference(parent)), forKey: .parent)
    }
    if let share = s.share { try c.encode(EncryptedValueEnvelope.encodeTagged(.reference(share)), forKey: .share) }
    if s.isDeleted { try c.encode(true, forKey: .isDeleted) }
    let system = s.system
    try c.encodeIfPresent(system.recordChangeTag, forKey: .recordChangeTag)
    try c.encodeIfPresent(system.creationDate?.timeIntervalSinceReferenceDate, forKey: .creationDate)
    try c.encodeIfPresent(system.modificationDate?.timeIntervalSinceReferenceDate, forKey: .modificationDate)
    try c.encodeIfPresent(system.creatorUserRecordName, forKey: .creatorUserRecordName)
    try c.encodeIfPresent(system.creatorDevice, forKey: .creatorDevice)
    try c.encodeIfPresent(system.lastModifiedUserRecordName, forKey: .lastModifiedUserRecordName)
    try c.encodeIfPresent(system.modifiedByDevice, forKey: .modifiedByDevice)
  }

  private static func decodeValues(_ c: KeyedDecodingContainer<Keys>, _ key: Keys) throws -> FieldTable {
    guard let stored = try c.decodeIfPresent([String: Data].self, forKey: key) else { return FieldTable() }
    var values: [(key: String, value: FieldValue)] = []
    values.reserveCapacity(stored.count)
    for (name, data) in stored.sorted(by: { $0.key < $1.key }) {
      guard let value = EncryptedValueEnvelope.decodeTagged(data) else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: c, debugDescription: "the stored value of '\(name)' is not one Reconcile wrote")
      }
      values.append((name, value))
    }
    return FieldTable(values)
  }

  private static func decodeReference(_ c: KeyedDecodingContainer<Keys>, _ key: Keys) throws -> Reference? {
    guard let data = try c.decodeIfPresent(Data.self, forKey: key) else { return nil }
    guard case .reference(let reference)? = EncryptedValueEnvelope.decodeTagged(data) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: c, debugDescription: "the stored \(key.rawValue) is not a reference Reconcile wrote")
    }
    return reference
  }
}
