import Foundation

/// Why bytes could not be read as a Reconcile system-fields archive; see ``Record/init(systemFieldsData:)``.
public enum SystemFieldsArchiveError: Error, Sendable, Hashable, DescribedError {
  /// The data is shorter than the smallest possible archive.
  case tooShort(byteCount: Int)
  /// The data does not start with the `RCSF` magic. `hint` says what it looks like instead, when that is recognisable.
  case notAnArchive(hint: String?)
  /// The archive was written by a newer format version than this library reads.
  case unsupportedVersion(UInt8)
  /// The stored CRC-32 does not match the bytes: the archive was corrupted or truncated.
  case checksumMismatch(stored: UInt32, computed: UInt32)
  /// The presence flags have bits set that this format version does not define.
  case unknownFlags(UInt16)
  /// The archive ends inside `field`, at byte `offset`.
  case truncated(field: String, offset: Int)
  /// `field` at byte `offset` is malformed (a bad length or invalid UTF-8).
  case malformed(field: String, offset: Int, reason: String)
  /// `field` decoded but breaks a record rule.
  case invalidValue(field: String, RecordValidationError)
  /// A date field is NaN, infinite or outside ``Record/representableDates``.
  case invalidDate(field: String)
  /// A reference's action byte is not one this format defines.
  case unknownReferenceAction(field: String, UInt8)
  /// Bytes are left over between the last field and the checksum.
  case trailingBytes(count: Int)

  /// A sentence naming what is wrong and where.
  public var description: String {
    switch self {
    case .tooShort(let n): return "system-fields archive is \(n) bytes, shorter than any valid archive"
    case .notAnArchive(let hint):
      return "not a Reconcile system-fields archive (no RCSF magic)" + (hint.map { "; it looks like \($0)" } ?? "")
    case .unsupportedVersion(let v):
      return "system-fields archive format version \(v) is newer than this library reads (1)"
    case .checksumMismatch(let stored, let computed):
      return "system-fields archive is corrupt: stored checksum \(hex(stored)), computed \(hex(computed))"
    case .unknownFlags(let f): return "system-fields archive sets unknown presence flags \(hex(UInt32(f)))"
    case .truncated(let field, let offset): return "system-fields archive ends inside \(field) at byte \(offset)"
    case .malformed(let field, let offset, let reason): return "\(field) at byte \(offset) is malformed: \(reason)"
    case .invalidValue(let field, let error): return "\(field) is invalid: \(error)"
    case .invalidDate(let field): return "\(field) is not a date within 100,000,000 days of 1970"
    case .unknownReferenceAction(let field, let byte): return "\(field) has unknown reference action \(byte)"
    case .trailingBytes(let n): return "system-fields archive has \(n) unexpected bytes before its checksum"
    }
  }
}

private func hex(_ v: UInt32) -> String { "0x" + String(v, radix: 16, uppercase: true) }
