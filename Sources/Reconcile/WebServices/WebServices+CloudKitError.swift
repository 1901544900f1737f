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
  /// The error as ``CloudKitError``: the code (see ``WebServices/ErrorCode/cloudKitCode``), the retry delay, and a
  /// message naming the Web Services code, the record or zone, and the reason. A Web Services conflict carries no
  /// records, so ``CloudKitError/conflict`` is `nil`: look the server's version up (``WebServices/ConflictLookupError``
  /// names what can go wrong) before merging.
  public var cloudKitError: CloudKitError {
    CloudKitError(code: code.cloudKitCode, retryAfter: retryAfter, message: description)
  }
}
