import Foundation

/// The error that stops syncing: a record this app must not read or overwrite.
///
/// A sync engine catches it, stops syncing (saving nothing from the record's operation), and shows ``description`` — a
/// sentence naming the record, the reason, the versions, and what fixes it — or ``userAction`` alone.
public struct SchemaHalt: Error, Sendable, Hashable, Codable, DescribedError {
  /// Why syncing must stop.
  public enum Reason: Sendable, Hashable, Codable {
    /// The record was written by a newer schema version than the app knows.
    case futureVersion(found: SchemaVersion, supported: SchemaVersion)
    /// The record holds keys the app does not know (sorted).
    case unknownKeys([String])
    /// A known field holds a value of another type.
    case typeMismatch(key: String, expected: FieldType, found: FieldType)
    /// A known field is stored encrypted where the app expects it plain, or the other way round.
    case encryptionMismatch(key: String, expectedEncrypted: Bool)
    /// The app knows no record type of this name.
    case unknownRecordType
    /// A field the record's version requires is missing.
    case missingRequiredField(key: String)
    /// The version field holds something that is not a `STRING` version such as `1.2.0`.
    case invalidVersion(String)
    /// No registered migration leads on from `from` toward the app's version `to`.
    case migrationGap(from: SchemaVersion, to: SchemaVersion)
    /// A migration step threw.
    case migrationFailed(from: SchemaVersion, to: SchemaVersion, error: String)
  }

  /// The record at fault.
  public var recordID: RecordID
  /// Its type.
  public var recordType: String
  /// Why syncing must stop.
  public var reason: Reason
  /// The schema version the record says it has, if it says one the app could read.
  public var recordVersion: SchemaVersion?
  /// The version of this record type the app understands; `nil` for an unknown record type.
  public var appVersion: SchemaVersion?

  /// Creates a halt.
  /// - Parameters:
  ///   - recordID: The record at fault.
  ///   - recordType: Its type.
  ///   - reason: Why syncing must stop.
  ///   - recordVersion: The version the record says it has.
  ///   - appVersion: The version the app understands.
  package init(
    recordID: RecordID, recordType: String, reason: Reason, recordVersion: SchemaVersion?, appVersion: SchemaVersion?
  ) {
    self.recordID = recordID
    self.recordType = recordType
    self.reason = reason
    self.recordVersion = recordVersion
    self.appVersion = appVersion
  }

  /// What the user can do about it.
  public var userAction: String {
    switch reason {
    case .migrationGap, .migrationFailed:
      return "This is a bug in the app: report it to the developer; syncing stays stopped until an update fixes it."
    case .missingRequiredField, .invalidVersion:
      return "Update the app; if it is already up to date, report the record to the developer."
    case .futureVersion, .unknownKeys, .typeMismatch, .encryptionMismatch, .unknownRecordType:
      return "Update the app to the latest version to keep syncing."
    }
  }

  /// The record, the reason, the versions and the fix, as sentences.
  public var description: String {
    let record = "\(recordType) \(recordID)"
    let versions =
      " (record version \(recordVersion?.description ?? "unknown"), app version \(appVersion?.description ?? "none"))"
    let why: String
    switch reason {
    case .futureVersion(let found, let supported):
      why = "was written by schema version \(found), newer than \(supported), the newest this app understands"
    case .unknownKeys(let keys):
      why = "holds field\(keys.count == 1 ? "" : "s") this app does not know: \(keys.joined(separator: ", "))"
    case .typeMismatch(let key, let expected, let found):
      why = "holds \(found.wireName) in \"\(key)\", where this app expects \(expected.wireName)"
    case .encryptionMismatch(let key, let expectedEncrypted):
      why =
        "stores \"\(key)\" \(expectedEncrypted ? "unencrypted" : "encrypted"), where this app expects it "
        + (expectedEncrypted ? "encrypted" : "unencrypted")
    case .unknownRecordType:
      why = "has a record type this app does not know"
    case .missingRequiredField(let key):
      why = "lacks the required field \"\(key)\""
    case .invalidVersion(let found):
      why = "has an unreadable schema version: \(found)"
    case .migrationGap(let from, let to):
      why = "cannot be migrated: no step leads on from version \(from) toward \(to)"
    case .migrationFailed(let from, let to, let error):
      why = "failed to migrate from version \(from) to \(to): \(error)"
    }
    return "Syncing stopped: \(record) \(why)\(versions). Nothing was saved. \(userAction)"
  }
}
