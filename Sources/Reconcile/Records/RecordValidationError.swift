import Foundation

/// What kind of name a ``RecordValidationError/invalidName(_:_:violation:)`` is about.
public enum NameKind: String, Sendable, Hashable, CaseIterable {
  /// A record's name, the `recordName` of a ``RecordID``.
  case recordName
  /// A zone's name, the `zoneName` of a ``ZoneID``.
  case zoneName
  /// The owner of a zone, the `ownerName` of a ``ZoneID``.
  case ownerName
  /// A record type such as `Note`.
  case recordType
  /// A field key of a ``Record``.
  case key
}

/// The rule a name broke.
public enum NameViolation: Sendable, Hashable {
  /// The name is empty; every name needs at least one character.
  case empty
  /// The name has more than 255 characters.
  case tooLong(count: Int)
  /// The character at `offset` (in Unicode scalars) is not allowed here.
  case invalidCharacter(Unicode.Scalar, offset: Int)
  /// The name starts with `_`, which CloudKit reserves for itself.
  case leadingUnderscore
  /// The name must start with an ASCII letter.
  case mustStartWithLetter
  /// The key equals a record property name (such as `recordID`), which CloudKit reserves.
  case reserved
}

/// A record, ID or value that breaks one of CloudKit's rules.
///
/// Every case names the offending input and the rule it broke, and ``description`` reads as a sentence, so the error can be
/// logged or shown as it is.
public enum RecordValidationError: Error, Sendable, Hashable, DescribedError {
  /// A name (record name, zone name, owner, record type or key) breaks the naming rules.
  case invalidName(NameKind, String, violation: NameViolation)
  /// A ``Share`` was made from a record that is not of type `cloudkit.share`.
  case notAShare(recordType: String)
  /// A list field holds elements of more than one type; CloudKit lists are homogeneous.
  case mixedTypeList(key: String, index: Int, expected: FieldType, found: FieldType)
  /// A list field holds another list; CloudKit has no lists of lists.
  case nestedList(key: String, index: Int)
  /// A `DOUBLE` (or a location coordinate) is NaN or infinite; the wire format cannot carry it.
  case nonFiniteNumber(key: String)
  /// A `TIMESTAMP` (or a location's timestamp) lies outside ``Record/representableDates``.
  case dateOutOfRange(key: String)
  /// An encrypted value has a type that cannot be encrypted (assets and references).
  case unencryptableType(key: String, type: FieldType)
  /// A reference points into another zone; references stay within their record's zone.
  case referenceCrossesZone(key: String, target: RecordID, recordZone: ZoneID)
  /// The record holds more fields than CloudKit allows for one record type.
  case tooManyFields(count: Int, limit: Int)
  /// The record's data is larger than CloudKit's limit, counted as ``Record/dataSize`` documents.
  case recordTooLarge(size: Int, limit: Int)

  /// A sentence naming the bad input and the rule it broke.
  public var description: String {
    switch self {
    case .invalidName(let kind, let name, let violation):
      let shown = name.count > 60 ? String(name.prefix(60)) + "…" : name
      return "invalid \(kind.rawValue) \"\(shown)\": \(violation.explanation)"
    case .notAShare(let recordType):
      return "a share's record type is cloudkit.share, not '\(recordType)'"
    case .mixedTypeList(let key, let index, let expected, let found):
      return
        "field '\(key)': list element \(index) is \(found) but the list holds \(expected); lists must be homogeneous"
    case .nestedList(let key, let index):
      return "field '\(key)': list element \(index) is itself a list; lists of lists are not allowed"
    case .nonFiniteNumber(let key):
      return "field '\(key)': NaN and infinity cannot be stored"
    case .dateOutOfRange(let key):
      return "field '\(key)': the date is more than 100,000,000 days from 1970, beyond what CloudKit can store"
    case .unencryptableType(let key, let type):
      return "encrypted field '\(key)': \(type) values cannot be encrypted"
    case .referenceCrossesZone(let key, let target, let zone):
      return
        "field '\(key)': reference to \(target) leaves the record's zone \(zone); references must stay in one zone"
    case .tooManyFields(let count, let limit):
      return "record has \(count) fields; at most \(limit) are allowed"
    case .recordTooLarge(let size, let limit):
      return "record data is \(size) bytes; at most \(limit) bytes are allowed"
    }
  }
}

extension NameViolation {
  var explanation: String {
    switch self {
    case .empty: return "it is empty"
    case .tooLong(let count): return "it has \(count) characters; at most 255 are allowed"
    case .invalidCharacter(let scalar, let offset):
      let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
      return "character \(offset) (\(code)) is not allowed here"
    case .leadingUnderscore: return "names starting with '_' are reserved"
    case .mustStartWithLetter: return "it must start with an ASCII letter"
    case .reserved: return "it is a reserved record property name"
    }
  }
}
