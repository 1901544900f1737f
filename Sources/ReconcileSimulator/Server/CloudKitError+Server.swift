package import Foundation
package import Reconcile

/// The errors the simulated server answers with, in CloudKit's one vocabulary (``CloudKitError``): each with the
/// payload CloudKit attaches, named as the server's code says them.
///
/// The server reports what went wrong the way CloudKit's errors do: the code, the wait it asks for before a retry
/// (``CloudKitError/retryAfter``), the records of a conflict, the record or zone an error names, and each failed item
/// of a `partialFailure` — per-item errors of a request arrive in its reply's `failures`, as CloudKit nests them.
extension CloudKitError {
  /// The server failed in a way the client cannot fix (1).
  package static func internalError(_ reason: String) -> CloudKitError {
    CloudKitError(code: .internalError, message: reason)
  }
  /// Some items of a batch failed; the map holds each failed record's own error (2).
  package static func partialFailure(_ failures: [RecordID: CloudKitError]) -> CloudKitError {
    CloudKitError(code: .partialFailure, partialErrors: failures)
  }
  /// The device has no network (3): requests from an offline device.
  package static let networkUnavailable = CloudKitError(code: .networkUnavailable)
  /// The request or its answer was lost on the way (4).
  package static func networkFailure(retryAfter: TimeInterval?) -> CloudKitError {
    CloudKitError(code: .networkFailure, retryAfter: retryAfter)
  }
  /// The server is unavailable; how throttling really arrives (6, HTTP 503).
  package static func serviceUnavailable(retryAfter: TimeInterval) -> CloudKitError {
    CloudKitError(code: .serviceUnavailable, retryAfter: retryAfter)
  }
  /// The client sent too many requests (7).
  package static func requestRateLimited(retryAfter: TimeInterval) -> CloudKitError {
    CloudKitError(code: .requestRateLimited, retryAfter: retryAfter)
  }
  /// There is no iCloud account (9).
  package static let notAuthenticated = CloudKitError(code: .notAuthenticated)
  /// The user may not do this (10).
  package static func permissionFailure(reason: String) -> CloudKitError {
    CloudKitError(code: .permissionFailure, message: reason)
  }
  /// The record does not exist (11).
  package static func unknownItem(_ id: RecordID) -> CloudKitError { CloudKitError(code: .unknownItem, recordID: id) }
  /// The request is malformed (12); the reason names the bad record, key or value.
  package static func invalidArguments(reason: String) -> CloudKitError {
    CloudKitError(code: .invalidArguments, message: reason)
  }
  /// The record changed on the server since the client's copy, or a create found it there (14); `server` is `nil`
  /// when the server does not attach its record ("if available").
  package static func serverRecordChanged(client: Record, ancestor: Record?, server: Record?) -> CloudKitError {
    var error = CloudKitError(
      code: .serverRecordChanged, conflict: server.map { Conflict(client: client, ancestor: ancestor, server: $0) },
      recordID: client.recordID)
    if server == nil {
      error.clientRecord = client
      error.ancestorRecord = ancestor
    }
    return error
  }
  /// The server refused the request (15).
  package static func serverRejectedRequest(reason: String) -> CloudKitError {
    CloudKitError(code: .serverRejectedRequest, message: reason)
  }
  /// The client's protocol version is too old for the server (18).
  package static let incompatibleVersion = CloudKitError(code: .incompatibleVersion)
  /// A unique field already holds this value (19).
  package static func constraintViolation(reason: String) -> CloudKitError {
    CloudKitError(code: .constraintViolation, message: reason)
  }
  /// A token is too old for the server to answer from (21).
  package static let changeTokenExpired = CloudKitError(code: .changeTokenExpired)
  /// This item was innocent, but another item of its atomic zone batch failed (22).
  package static let batchRequestFailed = CloudKitError(code: .batchRequestFailed)
  /// The zone is busy (23).
  package static func zoneBusy(retryAfter: TimeInterval) -> CloudKitError {
    CloudKitError(code: .zoneBusy, retryAfter: retryAfter)
  }
  /// The operation is not possible in this database (24).
  package static func badDatabase(reason: String) -> CloudKitError {
    CloudKitError(code: .badDatabase, message: reason)
  }
  /// The account's storage is full (25).
  package static let quotaExceeded = CloudKitError(code: .quotaExceeded)
  /// The zone does not exist (26).
  package static func zoneNotFound(_ zone: ZoneID) -> CloudKitError { CloudKitError(code: .zoneNotFound, zoneID: zone) }
  /// The request is too large (27).
  package static func limitExceeded(reason: String) -> CloudKitError {
    CloudKitError(code: .limitExceeded, message: reason)
  }
  /// The user deleted the zone in Settings (28).
  package static func userDeletedZone(_ zone: ZoneID) -> CloudKitError {
    CloudKitError(code: .userDeletedZone, zoneID: zone)
  }
  /// A parent or share reference points to a record that does not exist (31).
  package static func referenceViolation(_ id: RecordID) -> CloudKitError {
    CloudKitError(code: .referenceViolation, recordID: id)
  }
  /// The server lost its own response (34).
  package static let serverResponseLost = CloudKitError(code: .serverResponseLost)
  /// The account is temporarily unavailable (36).
  package static func accountTemporarilyUnavailable(retryAfter: TimeInterval) -> CloudKitError {
    CloudKitError(code: .accountTemporarilyUnavailable, retryAfter: retryAfter)
  }

  /// The error as the simulator's trace and diagnostics write it: the code's name and number, and what went wrong
  /// (the reason, the wait, the record or zone); record values are never printed.
  package var traceText: String {
    "\(code.name) (\(code.rawValue))" + traceDetail
  }

  private var traceDetail: String {
    switch code {
    case .internalError, .permissionFailure, .invalidArguments, .serverRejectedRequest, .badDatabase, .limitExceeded,
      .constraintViolation:
      return message.map { ": \($0)" } ?? ""
    case .partialFailure:
      return ": \(partialErrors.count) item(s) failed: "
        + partialErrors.keys.sorted().map { "\($0.recordName): \(partialErrors[$0]?.code.name ?? "")" }
        .joined(separator: ", ")
    case .networkFailure, .serviceUnavailable, .requestRateLimited, .zoneBusy, .accountTemporarilyUnavailable:
      return retryAfter.map { ": retry after \(Self.seconds($0))" } ?? ""
    case .unknownItem, .referenceViolation: return recordID.map { ": \($0)" } ?? ""
    case .serverRecordChanged:
      if let serverRecord {
        return ": \(serverRecord.recordID) is at tag \(serverRecord.recordChangeTag ?? "none") on the server"
      }
      return clientRecord.map { ": \($0.recordID) changed on the server (its record not attached)" } ?? ""
    case .zoneNotFound, .userDeletedZone: return zoneID.map { ": \($0)" } ?? ""
    default: return ""
    }
  }

  /// The error as a device's CloudKit reports it to its app: CloudKit's message is the server's text (the trace's),
  /// for the error and each failed item.
  package var asReported: CloudKitError {
    var reported = self
    reported.message = traceText
    if code == .partialFailure { reported.partialErrors = partialErrors.mapValues(\.asReported) }
    return reported
  }

  /// The reason the simulated server sends with a Web Services error: what its trace says, which names the record
  /// and the rule; CloudKit's own words for a conflict and an expired token.
  package var webServicesReason: String {
    switch code {
    case .serverRecordChanged: "record to update already exists with a different change tag"
    case .changeTokenExpired: "sync token expired; fetch again without a token"
    default: traceText
    }
  }

  static func seconds(_ value: TimeInterval) -> String {
    value == value.rounded() ? "\(Int(value))s" : String(format: "%.1fs", value)
  }
}
