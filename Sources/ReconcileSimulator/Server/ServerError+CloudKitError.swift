package import Reconcile

extension ServerError {
  /// The error as a device's CloudKit reports it, as the simulated sync engine hands it to a
  /// `SyncEngineDelegate`: the code, the retry delay, the three records of a `serverRecordChanged` as a
  /// `Conflict`, and each item of a `partialFailure`.
  package var cloudKitError: CloudKitError {
    var conflict: Conflict?
    var partial: [String: CloudKitError] = [:]
    switch self {
    case .serverRecordChanged(let client, let ancestor, let server?):
      conflict = Conflict(client: client, ancestor: ancestor, server: server)
    case .partialFailure(let failures):
      for (id, failure) in failures { partial[id.recordName] = failure.cloudKitError }
    default: break
    }
    return CloudKitError(
      code: CloudKitError.Code(rawValue: code), retryAfter: retryAfter, conflict: conflict, partialErrors: partial,
      message: description)
  }
}
