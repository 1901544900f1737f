import Foundation

/// The CloudKit Web Services record dictionary, read by ``Record/init(wireJSON:)`` and
/// ``Record/init(wireFormatFrom:)`` and written by ``Record/wireJSON()`` and ``Record/encodeWireFormat(to:)``. (`Record:
/// Codable` is a different, lossless format for local storage; see `Record+LocalCoding.swift`.) The rules, in one place:
///
/// - Keys: `recordName`, `recordType`, `recordChangeTag`, `fields`, `created`, `modified`, `deleted`, `zoneID`,
///   `parent`, `share`. `pluginFields` and `zoneType` are accepted and ignored; `created.deviceID` is kept as
///   ``Record/creatorDevice`` and `modified.deviceID` as ``Record/modifiedByDevice``.
/// - Each field is `{"value": …, "type": "…"}`: `STRING`, `INT64`, `DOUBLE`, `TIMESTAMP` (whole milliseconds since
///   1970; a fraction is rounded away, here and in locations, `created` and `modified`), `BYTES` (base64), `REFERENCE`
///   (`{recordName, action, zoneID}`), `ASSET`/`ASSETID` (metadata), `LOCATION`, each as `<TYPE>_LIST` with an array,
///   and `ENCRYPTED_BYTES` (base64) for ``Record/encryptedValues``. `NUMBER_INT64` (from icloud.com) reads as `INT64`.
///   A field marked `"isEncrypted": true` beside a plain type (as some clients write decrypted values) reads into
///   ``Record/encryptedValues``; Reconcile writes encrypted values as `ENCRYPTED_BYTES`.
/// - Names: record names and owner names starting with `_` (user records, records the server makes) are accepted;
///   CloudKit's system types and keys (`cloudkit.share`, `cloudkit.title`) are too.
/// - When decoding, `type` may be omitted (requests do): a string is `STRING`; an integer or a Boolean `INT64`; any
///   other number `DOUBLE`; an object with `recordName` a `REFERENCE`, with `latitude` a `LOCATION`, with
///   `fileChecksum`, `receipt`, `downloadURL`, `size`, `referenceChecksum` or `wrappingKey` an `ASSET`; an array a list
///   of its elements' inferred type (all the same). Timestamps and bytes cannot be told from numbers and strings, so send
///   their type.
/// - A reference without `zoneID` is in the record's zone; one without `action` has action `NONE`. A missing `zoneID`
///   is the default zone; a missing `ownerRecordName` is `__defaultOwner__`.
/// - Encoding writes every field with its type, references with their zone, and an empty list as `STRING_LIST`; it
///   checks the record as ``Record/validate()`` does first, and fails with `EncodingError.invalidValue` naming the
///   rule — except that references may leave the record's zone: the server makes such references (to user records,
///   across zones), and its data writes back as it came. A save of one is refused where CloudKit refuses it, by the
///   server (and ``Record/validate()``, which a client runs before saving).
/// - A decoded record has no changed keys, as one received from a server.
enum WireKeys: String, CodingKey {
  case recordName, recordType, recordChangeTag, fields, pluginFields, created, modified, deleted, zoneID, parent, share
}

extension Record {
  /// Decodes a Web Services record dictionary, for a `Decodable` body of your own that holds records.
  ///
  /// ```swift
  /// struct MyResponse: Decodable {
  ///   var records: [Record]
  ///   init(from decoder: any Decoder) throws {
  ///     var list = try decoder.container(keyedBy: K.self).nestedUnkeyedContainer(forKey: .records)
  ///     records = []
  ///     while !list.isAtEnd { records.append(try Record(wireFormatFrom: try list.superDecoder())) }
  ///   }
  /// }
  /// ```
  /// Prefer ``init(wireJSON:)`` for one record and ``WebServices`` for whole bodies: both check the bytes strictly.
  /// - Parameter decoder: A decoder positioned at a record dictionary.
  /// - Throws: `DecodingError` whose coding path and description name the field and what is wrong with it: an unknown
  ///   type, a value that does not match its type, a non-finite number, an invalid name.
  public init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKeys.self)
    let zone = try WireCoding.decodeZoneID(c, key: .zoneID) ?? WireCoding.contextZone(decoder)
    let name = try c.decode(String.self, forKey: .recordName)
    let recordID = try WireCoding.recordID(name, zone: zone, codingPath: { c.codingPath + [WireKeys.recordName] })
    let recordType = try c.decode(String.self, forKey: .recordType)
    do {
      try NameRules.checkIdentifier(recordType, kind: .recordType)
    } catch {
      throw DecodingError.dataCorruptedError(forKey: .recordType, in: c, debugDescription: error.description)
    }
    let box = Storage(recordType: recordType, recordID: recordID)
    box.system.recordChangeTag = try c.decodeIfPresent(String.self, forKey: .recordChangeTag)
    if c.contains(.created) {
      let stamp = try c.decode(WireStamp.self, forKey: .created)
      box.system.creationDate = stamp.date
      box.system.creatorUserRecordName = stamp.userRecordName
      box.system.creatorDevice = stamp.deviceID
    }
    if c.contains(.modified) {
      let stamp = try c.decode(WireStamp.self, forKey: .modified)
      box.system.modificationDate = stamp.date
      box.system.lastModifiedUserRecordName = stamp.userRecordName
      box.system.modifiedByDevice = stamp.deviceID
    }
    box.isDeleted = try c.decodeIfPresent(Bool.self, forKey: .deleted) ?? false
    box.parent = try WireCoding.decodeReference(c, key: .parent, recordZone: zone)
    box.share = try WireCoding.decodeReference(c, key: .share, recordZone: zone)
    if c.contains(.fields) {
      let fields = try c.decode(WireField.Entries.self, forKey: .fields)
      // Collected, then sorted once: inserting one by one into the sorted tables would be quadratic in the fields.
      var plain: [(key: String, value: FieldValue)] = []
      var encryptedValues: [(key: String, value: FieldValue)] = []
      for entry in fields.entries {
        let (value, encrypted) = try WireField.decode(entry, recordZone: zone) {
          c.codingPath + [WireKeys.fields, DynamicKey(entry.name)]
        }
        if encrypted {
          encryptedValues.append((entry.name, value))
        } else {
          plain.append((entry.name, value))
        }
      }
      box.values = FieldTable(plain)
      box.encrypted = FieldTable(encryptedValues)
    }
    self.init(storage: box)
  }

  /// Encodes the record as a Web Services record dictionary, after checking it as ``validate()`` does (references may
  /// leave the record's zone, as the server's own do), for an `Encodable` body of your own. ``wireJSON()`` does this
  /// for one record.
  ///
  /// - Parameter encoder: An encoder positioned where the record dictionary goes.
  /// - Throws: `EncodingError.invalidValue` when the check fails, with the rule in its description.
  public func encodeWireFormat(to encoder: any Encoder) throws {
    do {
      try validate(sameZoneReferences: false)
    } catch {
      throw EncodingError.invalidValue(
        self, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: error.description))
    }
    var c = encoder.container(keyedBy: WireKeys.self)
    let zone = recordID.zoneID
    try c.encode(recordID.recordName, forKey: .recordName)
    try c.encode(recordType, forKey: .recordType)
    try c.encodeIfPresent(recordChangeTag, forKey: .recordChangeTag)
    var fields = c.nestedContainer(keyedBy: DynamicKey.self, forKey: .fields)
    for (key, value) in storage.values {
      var field = fields.nestedContainer(keyedBy: WireField.Keys.self, forKey: DynamicKey(key))
      try WireField.encode(value, into: &field)
    }
    for (key, value) in storage.encrypted {
      var field = fields.nestedContainer(keyedBy: WireField.Keys.self, forKey: DynamicKey(key))
      try field.encode(EncryptedValueEnvelope.encode(value).base64EncodedString(), forKey: .value)
      try field.encode(WireField.encryptedBytesType, forKey: .type)
    }
    let s = storage.system
    if s.creationDate != nil || s.creatorUserRecordName != nil || s.creatorDevice != nil {
      try c.encode(
        WireStamp(date: s.creationDate, userRecordName: s.creatorUserRecordName, deviceID: s.creatorDevice),
        forKey: .created)
    }
    if s.modificationDate != nil || s.lastModifiedUserRecordName != nil || s.modifiedByDevice != nil {
      try c.encode(
        WireStamp(date: s.modificationDate, userRecordName: s.lastModifiedUserRecordName, deviceID: s.modifiedByDevice),
        forKey: .modified)
    }
    try c.encode(storage.isDeleted, forKey: .deleted)
    try WireCoding.encodeZoneID(zone, into: &c, key: .zoneID)
    if let parent = storage.parent { try WireCoding.encodeReference(parent, into: &c, key: .parent) }
    if let share = storage.share { try WireCoding.encodeReference(share, into: &c, key: .share) }
  }
}

// A record coded as the Web Services dictionary inside a body: `Wire<Record>`.
extension Record: WireBody {}
