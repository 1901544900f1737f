/// CloudKit's naming rules, in one place, so IDs, record types and keys agree.
package enum NameRules {
  /// The longest name CloudKit accepts, in characters.
  static let maximumLength = 255

  /// Keys that equal `CKRecord` property names; CloudKit rejects them as field keys.
  static let reservedKeys: Set<String> = [
    "recordID", "recordType", "recordChangeTag", "creationDate", "creatorUserRecordID", "modificationDate",
    "lastModifiedUserRecordID", "parent", "share", "encryptedValues", "allKeys", "changedKeys",
  ]
  /// For each ASCII first character, bit *n* is set when a reserved key starting with it has *n* characters: most keys
  /// are ruled out without hashing them.
  static let reservedKeyShapes: [UInt64] = reservedKeys.reduce(into: [UInt64](repeating: 0, count: 128)) {
    shapes, key in
    if let first = key.utf8.first { shapes[Int(first)] |= 1 << UInt64(key.utf8.count) }
  }

  /// Record names: 1–255 printable ASCII characters. Names the server makes, and every user record's name, start
  /// with `_`, so IDs read from anywhere may; only a client creating a record is held to ``checkNameForNewRecord(_:)``.
  static func checkRecordName(_ name: String) throws(RecordValidationError) {
    try checkPrintableASCII(name, kind: .recordName)
  }

  /// The rule CloudKit applies when a client chooses the name of a record it creates: not starting with `_`.
  static func checkNameForNewRecord(_ name: String) throws(RecordValidationError) {
    if name.utf8.first == UInt8(ascii: "_") { throw .invalidName(.recordName, name, violation: .leadingUnderscore) }
  }

  /// The prefix of CloudKit's system record types and keys: `cloudkit.share`, `cloudkit.title`.
  static let systemPrefix = "cloudkit."

  /// Zone names: 1–255 printable ASCII characters, not starting with `_` (the default zone excepted).
  static func checkZoneName(_ name: String) throws(RecordValidationError) {
    try checkPrintableASCII(name, kind: .zoneName)
    if name.utf8.first == UInt8(ascii: "_") && name != ZoneID.defaultZoneName {
      throw .invalidName(.zoneName, name, violation: .leadingUnderscore)
    }
  }

  /// Owner names: 1–255 printable ASCII characters. User record names start with `_`, so that is allowed.
  static func checkOwnerName(_ name: String) throws(RecordValidationError) {
    try checkPrintableASCII(name, kind: .ownerName)
  }

  /// Record types and keys: an ASCII letter, then ASCII letters, digits or `_`; at most 255 characters. CloudKit's
  /// own types and keys (`cloudkit.share`, `cloudkit.title`) are that after ``systemPrefix``.
  package static func checkIdentifier(_ name: String, kind: NameKind) throws(RecordValidationError) {
    if isPlainIdentifier(name, kind: kind) { return }
    try checkIdentifierScalars(name, kind: kind)
  }

  /// Whether `name` is a valid identifier that needs none of the slow path's care: ASCII, a letter then letters,
  /// digits and underscores, at most ``maximumLength`` bytes, no system prefix and, for a key, not reserved. Read as
  /// bytes in place; `false` sends the name to ``checkIdentifierScalars(_:kind:)``, which finds the error, if any.
  private static func isPlainIdentifier(_ name: String, kind: NameKind) -> Bool {
    name.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      // A system name (`cloudkit.…`) has a dot, so it leaves by the loop below.
      guard let first = bytes.first, bytes.count <= maximumLength,
        (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z")
      else { return false }
      for byte in bytes.dropFirst() {
        let lower = byte | 0x20
        guard
          (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
        else { return false }
      }
      return kind != .key || bytes.count >= 64 || reservedKeyShapes[Int(first)] & (1 << UInt64(bytes.count)) == 0
    } ?? false
  }

  /// The full check, scalar by scalar, that names the first problem.
  private static func checkIdentifierScalars(_ name: String, kind: NameKind) throws(RecordValidationError) {
    // Reached by system names, non-ASCII names and names that break a rule: the system prefix is looked for only when
    // the name starts with its first letter, and lengths are counted once.
    let isSystem = name.utf8.first == UInt8(ascii: "c") && name.hasPrefix(systemPrefix)
    let offset = isSystem ? systemPrefix.count : 0
    var skipped = 0
    var count = 0
    // Iterating the string's own scalar view is the fast path; a substring's view validates every index.
    for scalar in name.unicodeScalars {
      if skipped < offset {
        skipped += 1
        continue
      }
      let v = scalar.value
      let isLetter = (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
      if count == 0 {
        if v == 0x5F { throw .invalidName(kind, name, violation: .leadingUnderscore) }
        if !isLetter {
          if v < 0x80 { throw .invalidName(kind, name, violation: .mustStartWithLetter) }
          throw .invalidName(kind, name, violation: .invalidCharacter(scalar, offset: offset))
        }
      } else if !(isLetter || (v >= 0x30 && v <= 0x39) || v == 0x5F) {
        throw .invalidName(kind, name, violation: .invalidCharacter(scalar, offset: offset + count))
      }
      count += 1
      if offset + count > maximumLength { break }
    }
    if count == 0 { throw .invalidName(kind, name, violation: .empty) }
    if offset + count > maximumLength {
      throw .invalidName(kind, name, violation: .tooLong(count: name.unicodeScalars.count))
    }
    // Every character counted is ASCII here, so `count` is the length reserved keys are indexed by.
    if kind == .key, offset == 0, count < 64, let first = name.utf8.first, first < 128,
      reservedKeyShapes[Int(first)] & (1 << UInt64(count)) != 0, reservedKeys.contains(name)
    {
      throw .invalidName(kind, name, violation: .reserved)
    }
  }

  private static func checkPrintableASCII(_ name: String, kind: NameKind) throws(RecordValidationError) {
    var count = 0
    for scalar in name.unicodeScalars {
      guard scalar.value >= 0x20 && scalar.value <= 0x7E else {
        throw .invalidName(kind, name, violation: .invalidCharacter(scalar, offset: count))
      }
      count += 1
      if count > maximumLength {
        throw .invalidName(kind, name, violation: .tooLong(count: name.unicodeScalars.count))
      }
    }
    if count == 0 { throw .invalidName(kind, name, violation: .empty) }
  }
}
