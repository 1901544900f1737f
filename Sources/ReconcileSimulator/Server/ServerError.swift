package import Foundation
package import Reconcile

/// Every error the simulated server returns: CloudKit's `CKError` codes, with the payloads a client needs to react.
///
/// The numeric ``code`` of each case is CloudKit's (`CKError.Code`), so logs read the same as on a device. Transient errors
/// carry the wait the server asks for in ``retryAfter``; per-item errors arrive inside ``ModifyRecordsReply/failures``
/// (and ``FetchRecordsReply/failures``) the way CloudKit nests them in `partialFailure`.
package indirect enum ServerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The server failed in a way the client cannot fix (1).
  case internalError(String)
  /// Some items of a batch failed; the map holds each failed record's own error (2).
  case partialFailure([RecordID: ServerError])
  /// The device has no network (3). The simulator returns it for requests from an offline device.
  case networkUnavailable
  /// The request or its response was lost on the way (4). Retry after the given wait, or back off.
  case networkFailure(retryAfter: TimeInterval?)
  /// The server is unavailable; this is how throttling really arrives (6, HTTP 503). Retry after the wait.
  case serviceUnavailable(retryAfter: TimeInterval)
  /// The client sent too many requests (7). Retry after the wait.
  case requestRateLimited(retryAfter: TimeInterval)
  /// There is no iCloud account (9): private and shared databases and public writes need one.
  case notAuthenticated
  /// The user may not do this (10): another user's private data, a read-only share, a public record someone else
  /// created.
  case permissionFailure(reason: String)
  /// The record does not exist (11).
  case unknownItem(RecordID)
  /// The request is malformed (12); the reason names the bad record, key or value.
  case invalidArguments(reason: String)
  /// The record changed on the server since the client's copy, or a create found it there (14). Apply your change
  /// onto `server` and save that. CloudKit attaches the server's record only "if available": without it (`nil`), fetch
  /// the record's zone first and merge with what it brings.
  case serverRecordChanged(client: Record, ancestor: Record?, server: Record?)
  /// The server refused the request (15).
  case serverRejectedRequest(reason: String)
  /// The client's protocol version is too old for the server (18).
  case incompatibleVersion
  /// A unique field already holds this value (19).
  case constraintViolation(reason: String)
  /// A token is too old for the server to answer from (21): discard it and fetch from the beginning.
  case changeTokenExpired
  /// This item was innocent, but another item of its atomic zone batch failed (22). Send it again.
  case batchRequestFailed
  /// The zone is busy (23). Retry after the wait.
  case zoneBusy(retryAfter: TimeInterval)
  /// The operation is not possible in this database (24), such as creating a zone in the public database.
  case badDatabase(reason: String)
  /// The account's storage is full (25): stop until the user frees space.
  case quotaExceeded
  /// The zone does not exist (26): create it and upload again.
  case zoneNotFound(ZoneID)
  /// The request is too large (27): more than 400 items or 2 MB, or a record over 1 MB. Split it and retry.
  case limitExceeded(reason: String)
  /// The user deleted the zone in Settings (28): wipe local data or ask before uploading again.
  case userDeletedZone(ZoneID)
  /// A parent or share reference points to a record that does not exist (31).
  case referenceViolation(RecordID)
  /// The server lost its own response (34): retry only idempotent operations.
  case serverResponseLost
  /// The account is temporarily unavailable (36). Retry after the wait.
  case accountTemporarilyUnavailable(retryAfter: TimeInterval)

  /// CloudKit's numeric code for this error (`CKError.Code.rawValue`).
  package var code: Int {
    switch self {
    case .internalError: 1
    case .partialFailure: 2
    case .networkUnavailable: 3
    case .networkFailure: 4
    case .serviceUnavailable: 6
    case .requestRateLimited: 7
    case .notAuthenticated: 9
    case .permissionFailure: 10
    case .unknownItem: 11
    case .invalidArguments: 12
    case .serverRecordChanged: 14
    case .serverRejectedRequest: 15
    case .incompatibleVersion: 18
    case .constraintViolation: 19
    case .changeTokenExpired: 21
    case .batchRequestFailed: 22
    case .zoneBusy: 23
    case .badDatabase: 24
    case .quotaExceeded: 25
    case .zoneNotFound: 26
    case .limitExceeded: 27
    case .userDeletedZone: 28
    case .referenceViolation: 31
    case .serverResponseLost: 34
    case .accountTemporarilyUnavailable: 36
    }
  }

  /// CloudKit's name for the code, such as `serverRecordChanged`.
  package var name: String { CloudKitError.Code(rawValue: code).name }

  /// The wait, in seconds, the server asks for before a retry (`CKErrorRetryAfterKey`); `nil` when it gives none.
  package var retryAfter: TimeInterval? {
    switch self {
    case .networkFailure(let wait): wait
    case .serviceUnavailable(let wait), .requestRateLimited(let wait), .zoneBusy(let wait),
      .accountTemporarilyUnavailable(let wait):
      wait
    default: nil
    }
  }

  /// Whether retrying the same request later can succeed: network trouble, throttling, a busy zone, an account that is
  /// briefly unavailable.
  package var isTransient: Bool {
    switch self {
    case .networkUnavailable, .networkFailure, .serviceUnavailable, .requestRateLimited, .zoneBusy,
      .accountTemporarilyUnavailable:
      true
    default: false
    }
  }

  /// A sentence with the code, its name and what went wrong; record values are never printed.
  package var description: String {
    "\(name) (\(code))" + detail
  }

  private var detail: String {
    switch self {
    case .internalError(let reason), .permissionFailure(let reason), .invalidArguments(let reason),
      .serverRejectedRequest(let reason), .badDatabase(let reason), .limitExceeded(let reason),
      .constraintViolation(let reason):
      ": \(reason)"
    case .partialFailure(let failures):
      ": \(failures.count) item(s) failed: "
        + failures.keys.sorted().map { "\($0.recordName): \(failures[$0]?.name ?? "")" }.joined(separator: ", ")
    case .networkFailure(let wait):
      wait.map { ": retry after \(Self.seconds($0))" } ?? ""
    case .serviceUnavailable(let wait), .requestRateLimited(let wait), .zoneBusy(let wait),
      .accountTemporarilyUnavailable(let wait):
      ": retry after \(Self.seconds(wait))"
    case .unknownItem(let id), .referenceViolation(let id): ": \(id)"
    case .serverRecordChanged(let client, _, let server):
      server.map { ": \($0.recordID) is at tag \($0.recordChangeTag ?? "none") on the server" }
        ?? ": \(client.recordID) changed on the server (its record not attached)"
    case .zoneNotFound(let zone), .userDeletedZone(let zone): ": \(zone)"
    case .networkUnavailable, .notAuthenticated, .changeTokenExpired, .batchRequestFailed, .quotaExceeded,
      .incompatibleVersion, .serverResponseLost:
      ""
    }
  }

  static func seconds(_ value: TimeInterval) -> String {
    value == value.rounded() ? "\(Int(value))s" : String(format: "%.1fs", value)
  }
}

// `localizedDescription` says what `description` says, as for the core's errors.
extension ServerError: LocalizedError {
  /// The same sentence as `description`.
  package var errorDescription: String? { description }
}
