public import Foundation

extension Record {
  /// The largest record CloudKit accepts, 1 MB (1,048,576 bytes), counted as ``dataSize`` documents.
  public static let maximumDataSize = 1_048_576

  /// The dates a record can hold: within 8.64e15 milliseconds (100,000,000 days) of 1970, the range of JavaScript
  /// dates and so of the Web Services' `TIMESTAMP`. Validation, the archive readers and the JSON reader all hold dates
  /// to it, so a date that decoded can always be encoded again.
  public static let representableDates: ClosedRange<Date> =
    Date(timeIntervalSince1970: -8.64e12)...Date(timeIntervalSince1970: 8.64e12)

  /// The most fields one record may hold; CloudKit allows 256 fields per record type.
  public static let maximumFieldCount = 256

  /// The size of the record's data as Reconcile counts it against ``maximumDataSize``.
  ///
  /// The sum, over every plain and encrypted field, of the key's UTF-8 length plus the value's size:
  /// strings count their UTF-8 bytes; `INT64`, `DOUBLE` and `TIMESTAMP` 8 bytes; bytes their length; a reference its
  /// record name, zone name and owner name in UTF-8 plus 1; a location 8 bytes per number present plus 8 for a
  /// timestamp; an asset 0 (CloudKit does not count asset files); a list the sum of its elements. System fields are not
  /// counted. CloudKit does not publish its own formula, so a record near the limit may be judged differently there.
  /// - Complexity: O(*n*) in the number of fields and list elements.
  public var dataSize: Int {
    storage.values.dataSize + storage.encrypted.dataSize
  }

  /// Checks the record against CloudKit's rules and throws the first rule it breaks.
  ///
  /// Checked, in this order: the record type; each key (an ASCII letter, then letters, digits or `_`, at most 255
  /// characters, not a record property name such as `recordID`); each value (lists homogeneous and flat, numbers finite,
  /// dates within ``representableDates``, references in the record's zone, encrypted values of an encryptable type); the parent reference's zone; at most
  /// ``maximumFieldCount`` fields; at most ``maximumDataSize`` bytes of data. Keys are checked in sorted order, so the
  /// same record always reports the same error.
  ///
  /// - Throws: ``RecordValidationError`` naming the bad input and the rule it broke.
  /// - Complexity: O(*n*) in the number of fields plus the size of their values.
  public func validate() throws(RecordValidationError) { try validate(sameZoneReferences: true) }

  /// ``validate()``, with the same-zone rule for references (a client's save) or without it (server data written
  /// back as it came: the server makes references across zones, to user records).
  func validate(sameZoneReferences: Bool) throws(RecordValidationError) {
    try NameRules.checkIdentifier(recordType, kind: .recordType)
    let zone: ZoneID? = sameZoneReferences ? recordID.zoneID : nil
    // The values are stored sorted by key, so the first problem found is always the same one.
    let size =
      try storage.values.validateFields(encrypted: false, zone: zone)
      &+ storage.encrypted.validateFields(encrypted: true, zone: zone)
    if let zone, let parent = storage.parent, parent.recordID.zoneID != zone {
      throw .referenceCrossesZone(key: "parent", target: parent.recordID, recordZone: zone)
    }
    let count = storage.values.count + storage.encrypted.count
    if count > Self.maximumFieldCount { throw .tooManyFields(count: count, limit: Self.maximumFieldCount) }
    if size > Self.maximumDataSize { throw .recordTooLarge(size: size, limit: Self.maximumDataSize) }
  }
}

extension FieldTable {
  /// Checks each field's key and value in order, read in place, and returns the table's ``dataSize`` (one walk for
  /// both).
  fileprivate func validateFields(encrypted: Bool, zone: ZoneID?) throws(RecordValidationError) -> Int {
    var total = 0
    try keys.withUnsafeBufferPointer { (keys) throws(RecordValidationError) in
      try values.withUnsafeBufferPointer { (values) throws(RecordValidationError) in
        for index in keys.indices {
          let key = keys[index]
          try NameRules.checkIdentifier(key, kind: .key)
          if encrypted, !values[index].type.isEncryptable {
            throw .unencryptableType(key: key, type: values[index].type)
          }
          try values[index].validate(key: key, zone: zone)
          total &+= key.utf8.count &+ values[index].dataSize
        }
      }
    }
    return total
  }

  /// The keys' UTF-8 bytes plus each value's ``FieldValue/dataSize``, read in place.
  var dataSize: Int {
    var total = 0
    keys.withUnsafeBufferPointer { keys in
      values.withUnsafeBufferPointer { values in
        for index in keys.indices { total &+= keys[index].utf8.count &+ values[index].dataSize }
      }
    }
    return total
  }
}

extension FieldValue {
  /// This value's contribution to ``Record/dataSize``.
  var dataSize: Int {
    switch self {
    case .string(let v): return v.utf8.count
    case .int64, .double, .timestamp: return 8
    case .bytes(let v): return v.count
    case .reference(let r):
      return r.recordID.recordName.utf8.count + r.recordID.zoneID.zoneName.utf8.count
        + r.recordID.zoneID.ownerName.utf8.count + 1
    case .asset: return 0
    case .location(let l): return l.allNumbers.count * 8 + (l.timestamp == nil ? 0 : 8)
    case .list(let elements): return elements.reduce(0) { $0 + $1.dataSize }
    }
  }

  /// Checks the value of `key`; `zone`, when given, is the zone its references must stay in.
  func validate(key: String, zone: ZoneID?) throws(RecordValidationError) {
    switch self {
    case .double(let v):
      if !v.isFinite { throw .nonFiniteNumber(key: key) }
    case .location(let l):
      if !l.allNumbers.allSatisfy(\.isFinite) { throw .nonFiniteNumber(key: key) }
      if let t = l.timestamp, !Record.representableDates.contains(t) { throw .dateOutOfRange(key: key) }
    case .timestamp(let d):
      if !Record.representableDates.contains(d) { throw .dateOutOfRange(key: key) }
    case .reference(let r):
      if let zone, r.recordID.zoneID != zone {
        throw .referenceCrossesZone(key: key, target: r.recordID, recordZone: zone)
      }
    case .list(let elements):
      guard let expected = elements.first?.type else { return }
      for (index, element) in elements.enumerated() {
        if case .list = element { throw .nestedList(key: key, index: index) }
        if element.type != expected {
          throw .mixedTypeList(key: key, index: index, expected: expected, found: element.type)
        }
        try element.validate(key: key, zone: zone)
      }
    case .string, .int64, .bytes, .asset:
      return
    }
  }
}
