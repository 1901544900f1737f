extension WebServices.ErrorCode {
  /// The `CKError` code an app on an Apple device meets for the same failure, so one vocabulary (``CloudKitError``)
  /// serves errors from CloudKit, from the Web Services and from Reconcile's simulated server.
  ///
  /// Apple documents the Web Services codes and the `CKError` codes, not how one maps to the other; the mapping follows
  /// what each code says: `ACCESS_DENIED` is `permissionFailure`, `ATOMIC_ERROR` `batchRequestFailed`, both
  /// authentication codes `notAuthenticated`, `BAD_REQUEST` `invalidArguments`, `CONFLICT` and `EXISTS`
  /// `serverRecordChanged` (a save whose tag is stale, or a create whose record exists, which CloudKit answers alike),
  /// `INTERNAL_ERROR` `internalError`, `NOT_FOUND` `unknownItem`, `QUOTA_EXCEEDED` `quotaExceeded`, `THROTTLED`
  /// `requestRateLimited`, `TRY_AGAIN_LATER` `serviceUnavailable`, `VALIDATING_REFERENCE_ERROR` `referenceViolation`,
  /// `ZONE_NOT_FOUND` `zoneNotFound`, `UNIQUE_FIELD_ERROR` `constraintViolation`, and `NOT_SUPPORTED_BY_ZONE` or a code
  /// this version does not know `serverRejectedRequest`.
  public var cloudKitCode: CloudKitError.Code {
    switch self {
    case .accessDenied: .permissionFailure
    case .atomicError: .batchRequestFailed
    case .authenticationFailed, .authenticationRequired: .notAuthenticated
    case .badRequest: .invalidArguments
    case .conflict, .exists: .serverRecordChanged
    case .internalError: .internalError
    case .notFound: .unknownItem
    case .quotaExceeded: .quotaExceeded
    case .throttled: .requestRateLimited
    case .tryAgainLater: .serviceUnavailable
    case .validatingReferenceError: .referenceViolation
    case .zoneNotFound: .zoneNotFound
    case .uniqueFieldError: .constraintViolation
    case .notSupportedByZone, .other: .serverRejectedRequest
    }
  }
}

extension WebServices.ServerError {
  /// The error as ``CloudKitError``: the code (see ``WebServices/ErrorCode/cloudKitCode``), the retry delay, the record
  /// and zone it names, and a message naming the Web Services code, the record or zone, and the reason. A Web Services
  /// conflict carries no records, so ``CloudKitError/conflict`` is `nil`: look the server's version up
  /// (``WebServices/ConflictLookupError`` names what can go wrong) before merging.
  public var cloudKitError: CloudKitError {
    CloudKitError(
      code: code.cloudKitCode, retryAfter: retryAfter,
      recordID: recordName.flatMap { try? RecordID(recordName: $0, zoneID: zoneID ?? .default) }, zoneID: zoneID,
      message: description)
  }
}

extension CloudKitError {
  /// The Web Services error CloudKit sends for this error — the inverse of ``WebServices/ServerError/cloudKitError``,
  /// kept beside it so the two vocabularies map in one place: the `serverErrorCode`, the reason, the retry delay, the
  /// record and zone it names.
  ///
  /// `serverRecordChanged` is `CONFLICT` (`EXISTS` for a `create`), `unknownItem` `NOT_FOUND`, `zoneNotFound` and
  /// `userDeletedZone` `ZONE_NOT_FOUND`, `permissionFailure` `ACCESS_DENIED`, `notAuthenticated`
  /// `AUTHENTICATION_REQUIRED`, `requestRateLimited` `THROTTLED`, `serviceUnavailable`, `zoneBusy`,
  /// `accountTemporarilyUnavailable` and network errors `TRY_AGAIN_LATER`, `batchRequestFailed` `ATOMIC_ERROR`,
  /// `referenceViolation` `VALIDATING_REFERENCE_ERROR`, `quotaExceeded` `QUOTA_EXCEEDED`, `internalError`
  /// `INTERNAL_ERROR`. The Web Services document no code for an expired token, a limit or a bad database; those are
  /// `BAD_REQUEST` with a reason that says which.
  /// - Parameters:
  ///   - recordName: The record the answer names, for a per-record error.
  ///   - zoneID: The zone the answer names, for a per-zone error.
  ///   - reason: The reason sent with the code; this error's ``message``, or its code's name, unless given.
  ///   - creating: Whether the failed operation was a `create`, which CloudKit answers `EXISTS` rather than `CONFLICT`.
  /// - Returns: The Web Services error.
  package func webServicesError(
    recordName: String? = nil, zoneID: ZoneID? = nil, reason: String? = nil, creating: Bool = false
  ) -> WebServices.ServerError {
    let webCode: WebServices.ErrorCode
    switch code {
    case .serverRecordChanged: webCode = creating ? .exists : .conflict
    case .unknownItem: webCode = .notFound
    case .zoneNotFound, .userDeletedZone: webCode = .zoneNotFound
    case .permissionFailure: webCode = .accessDenied
    case .notAuthenticated: webCode = .authenticationRequired
    case .requestRateLimited: webCode = .throttled
    case .serviceUnavailable, .zoneBusy, .accountTemporarilyUnavailable, .networkFailure, .networkUnavailable,
      .serverResponseLost:
      webCode = .tryAgainLater
    case .batchRequestFailed: webCode = .atomicError
    case .referenceViolation: webCode = .validatingReferenceError
    case .quotaExceeded: webCode = .quotaExceeded
    case .internalError: webCode = .internalError
    default: webCode = .badRequest
    }
    return WebServices.ServerError(
      code: webCode, reason: reason ?? message ?? code.name, recordName: recordName, zoneID: zoneID,
      retryAfter: retryAfter)
  }
}
