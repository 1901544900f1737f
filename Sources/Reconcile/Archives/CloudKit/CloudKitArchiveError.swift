import Foundation

/// Why bytes could not be read as the keyed archive `CKRecord.encodeSystemFields(with:)` writes; see
/// ``Record/init(cloudKitSystemFieldsArchive:)``.
public enum CloudKitArchiveError: Error, Sendable, Hashable, DescribedError {
  /// The bytes are neither a binary nor an XML property list.
  case notAPropertyList
  /// The property list is malformed; `offset` is the byte where the problem was found, when known.
  case malformedPropertyList(offset: Int?, reason: String)
  /// The property list is not an `NSKeyedArchiver` archive (`$archiver`, `$objects`, `$top`).
  case notAKeyedArchive(reason: String)
  /// A field the record needs is missing or `$null`.
  case missingField(String)
  /// A field holds the wrong kind of value.
  case wrongType(field: String, expected: String, found: String)
  /// A field's archived object has an unexpected class.
  case unexpectedClass(field: String, expected: String, found: String)
  /// A `UID` points outside `$objects`.
  case invalidObjectReference(field: String, uid: UInt64)
  /// A field decoded but breaks a record rule.
  case invalidField(String, RecordValidationError)

  /// A sentence naming what is wrong and where.
  public var description: String {
    switch self {
    case .notAPropertyList: return "not a CloudKit system-fields archive: neither a binary nor an XML property list"
    case .malformedPropertyList(let offset, let reason):
      return "malformed property list" + (offset.map { " at byte \($0)" } ?? "") + ": \(reason)"
    case .notAKeyedArchive(let reason): return "not an NSKeyedArchiver archive: \(reason)"
    case .missingField(let field): return "archive has no \(field)"
    case .wrongType(let field, let expected, let found): return "\(field) is a \(found), expected a \(expected)"
    case .unexpectedClass(let field, let expected, let found): return "\(field) is a \(found), expected a \(expected)"
    case .invalidObjectReference(let field, let uid): return "\(field) refers to object \(uid), which does not exist"
    case .invalidField(let field, let error): return "\(field) is invalid: \(error)"
    }
  }
}
