import Foundation
import Reconcile
import Testing

@Suite("Errors read the same in localizedDescription as in description")
struct ErrorMessageTests {
  static let errors: [any DescribedError] = [
    RecordValidationError.invalidName(.recordName, "", violation: .empty),
    ConflictResolutionError.unexpectedFieldType(key: "k", role: .client, expected: .int64, found: .string),
    EditStampingError.unexpectedFieldType(key: "editCount", expected: .int64, found: .string),
    SystemFieldsArchiveError.truncated(field: "recordType", offset: 4),
    CloudKitArchiveError.notAPropertyList,
    WireJSONError.duplicateKey("a", offset: 3),
    HybridLogicalClockError.invalidNodeID(""),
    WebServices.ServerError(code: .throttled, reason: "slow down", retryAfter: 3),
    WebServices.ConflictLookupError.notAConflict(.exists),
    SyncEngineError.engineStateMismatch(expected: "Tokens", found: "no engine state"),
    SyncEngineError.unconvertible(what: "a fetched record", reason: .unsupportedValue(key: "k", type: "NSSet")),
    ReplicaError.recordNotFound(RecordID(zoneID: .default)),
    SchemaVersionError(text: "1.x", problem: .notANumber("x")),
    CloudKitError(code: .requestRateLimited, retryAfter: 3),
  ]

  @Test("every public error's localizedDescription is its description, not a generic 'error N'")
  func localizedDescriptions() {
    for error in Self.errors {
      #expect(error.localizedDescription == error.description, "\(type(of: error))")
      #expect(!error.localizedDescription.contains("The operation"), "\(type(of: error))")
    }
  }
}
