import Foundation

/// Why a resolver could not resolve a ``Conflict``. Every case names the record version and the key at fault.
public enum ConflictResolutionError: Error, Sendable, Hashable, DescribedError {
  /// Which of the three versions of a conflict an error is about.
  public enum Role: String, Sendable, Hashable, CaseIterable {
    /// The version the device tried to save.
    case client
    /// The last server version the device knew.
    case ancestor
    /// The server's current version.
    case server
  }

  /// The `role` version has another record ID than the server's: the three versions are not one record.
  case mismatchedRecordID(role: Role, found: RecordID, server: RecordID)
  /// The `role` version has another record type than the server's; CloudKit never changes a record's type.
  case mismatchedRecordType(role: Role, found: String, server: String)
  /// A field a resolver reads (a clock stamp or an edit counter) holds a value of the wrong type.
  case unexpectedFieldType(key: String, role: Role, expected: FieldType, found: FieldType)
  /// A key merged as a list (``FieldMerge/Policy/listUnion``, ``FieldMerge/Policy/set(_:)``,
  /// ``FieldMerge/Policy/orderedList``) holds a value that is not a list.
  case notAList(key: String, role: Role, found: FieldType)
  /// A key merged with ``FieldMerge/Policy/text(_:overlap:)`` holds neither a `STRING` nor `BYTES` of UTF-8 text, or
  /// holds a string on one side and bytes on another.
  case notText(key: String, role: Role, found: FieldType)
  /// A key merged with ``FieldMerge/Policy/counter`` would hold an `INT64` sum that does not fit.
  case counterOverflow(key: String)
  /// The per-field clock stamps of ``HybridLogicalClockMerge`` cannot be read.
  case malformedFieldStamps(key: String, role: Role, reason: String)

  /// A sentence naming the version, the key and what is wrong.
  public var description: String {
    switch self {
    case .mismatchedRecordID(let role, let found, let server):
      return "The \(role) record is \(found), but the server record is \(server); a conflict is about one record."
    case .mismatchedRecordType(let role, let found, let server):
      return "The \(role) record has type \(found), but the server record has type \(server)."
    case .unexpectedFieldType(let key, let role, let expected, let found):
      return
        "Field \"\(key)\" of the \(role) record holds \(found.wireName), but the resolver reads it as \(expected.wireName)."
    case .notAList(let key, let role, let found):
      return
        "Field \"\(key)\" of the \(role) record holds \(found.wireName), but its merge policy needs a list."
    case .notText(let key, let role, let found):
      return
        "Field \"\(key)\" of the \(role) record holds \(found.wireName), but its merge policy is text, which needs a string, or UTF-8 text as bytes, on every side."
    case .counterOverflow(let key):
      return "Field \"\(key)\" is a counter whose merged sum does not fit in 64 bits."
    case .malformedFieldStamps(let key, let role, let reason):
      return "The field stamps in \"\(key)\" of the \(role) record cannot be read: \(reason)."
    }
  }
}
