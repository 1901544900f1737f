package import Reconcile

extension ServerError {
  /// The Web Services error CloudKit sends for this error: the `serverErrorCode`, the reason, the retry delay and
  /// the HTTP status of a request-level error.
  ///
  /// `serverRecordChanged` is `CONFLICT` (`EXISTS` for a `create`), `unknownItem` `NOT_FOUND`, `zoneNotFound` and
  /// `userDeletedZone` `ZONE_NOT_FOUND`, `permissionFailure` `ACCESS_DENIED`, `notAuthenticated`
  /// `AUTHENTICATION_REQUIRED`, `requestRateLimited` `THROTTLED`, `serviceUnavailable`, `zoneBusy`,
  /// `accountTemporarilyUnavailable` and network errors `TRY_AGAIN_LATER`, `batchRequestFailed` `ATOMIC_ERROR`,
  /// `referenceViolation` `VALIDATING_REFERENCE_ERROR`, `quotaExceeded` `QUOTA_EXCEEDED`, `internalError`
  /// `INTERNAL_ERROR`. The Web Services document no code for an expired token, a limit or a bad database; those are
  /// `BAD_REQUEST` with a reason that says which.
  package func webServicesError(recordName: String? = nil, zoneID: ZoneID? = nil, creating: Bool = false)
    -> WebServices.ServerError
  {
    let code: WebServices.ErrorCode
    var retryAfter: Double?
    switch self {
    case .serverRecordChanged: code = creating ? .exists : .conflict
    case .unknownItem: code = .notFound
    case .zoneNotFound, .userDeletedZone: code = .zoneNotFound
    case .permissionFailure: code = .accessDenied
    case .notAuthenticated: code = .authenticationRequired
    case .requestRateLimited(let after):
      code = .throttled
      retryAfter = after
    case .serviceUnavailable(let after), .zoneBusy(let after), .accountTemporarilyUnavailable(let after):
      code = .tryAgainLater
      retryAfter = after
    case .networkFailure(let after):
      code = .tryAgainLater
      retryAfter = after
    case .networkUnavailable, .serverResponseLost: code = .tryAgainLater
    case .batchRequestFailed: code = .atomicError
    case .referenceViolation: code = .validatingReferenceError
    case .quotaExceeded: code = .quotaExceeded
    case .internalError: code = .internalError
    case .invalidArguments, .serverRejectedRequest, .constraintViolation, .changeTokenExpired, .limitExceeded,
      .badDatabase, .incompatibleVersion, .partialFailure:
      code = .badRequest
    }
    return WebServices.ServerError(
      code: code, reason: webServicesReason, recordName: recordName, zoneID: zoneID, retryAfter: retryAfter)
  }

  /// The reason sent with the code: the simulator's description, which names the record and the rule.
  private var webServicesReason: String {
    switch self {
    case .serverRecordChanged: return "record to update already exists with a different change tag"
    case .changeTokenExpired: return "sync token expired; fetch again without a token"
    default: return description
    }
  }
}
