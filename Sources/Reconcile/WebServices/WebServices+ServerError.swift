import Foundation

extension WebServices {
  /// A `serverErrorCode` of the Web Services, with the HTTP status CloudKit sends with it.
  public enum ErrorCode: Sendable, Hashable, CustomStringConvertible {
    /// `ACCESS_DENIED` (403): the caller may not do this.
    case accessDenied
    /// `ATOMIC_ERROR` (400): another operation of an atomic request failed, so this one was not applied.
    case atomicError
    /// `AUTHENTICATION_FAILED` (401): the credentials are wrong.
    case authenticationFailed
    /// `AUTHENTICATION_REQUIRED` (421): the request needs a signed-in user.
    case authenticationRequired
    /// `BAD_REQUEST` (400): the request is malformed or not allowed here.
    case badRequest
    /// `CONFLICT` (409): the record's change tag is out of date. The body carries no server record; look it up.
    case conflict
    /// `EXISTS` (409): a record with this name already exists.
    case exists
    /// `INTERNAL_ERROR` (500): the server failed.
    case internalError
    /// `NOT_FOUND` (404): no such record.
    case notFound
    /// `QUOTA_EXCEEDED` (413): the owner's iCloud storage is full.
    case quotaExceeded
    /// `THROTTLED` (429): too many requests; wait `retryAfter` seconds.
    case throttled
    /// `TRY_AGAIN_LATER` (503): the server is busy; wait `retryAfter` seconds.
    case tryAgainLater
    /// `VALIDATING_REFERENCE_ERROR` (412): a reference names a record that does not exist.
    case validatingReferenceError
    /// `ZONE_NOT_FOUND` (404): no such zone.
    case zoneNotFound
    /// `UNIQUE_FIELD_ERROR` (409, CloudKit JS): a unique field's value is taken.
    case uniqueFieldError
    /// `NOT_SUPPORTED_BY_ZONE` (400): the zone cannot do this (seen for system zones).
    case notSupportedByZone
    /// Any other code, kept as sent.
    case other(String)

    static let known: [ErrorCode] = [
      .accessDenied, .atomicError, .authenticationFailed, .authenticationRequired, .badRequest, .conflict, .exists,
      .internalError, .notFound, .quotaExceeded, .throttled, .tryAgainLater, .validatingReferenceError, .zoneNotFound,
      .uniqueFieldError, .notSupportedByZone,
    ]

    /// Reads a `serverErrorCode`; an unknown code is ``other(_:)``.
    /// - Parameter wireName: The code as sent, such as `CONFLICT`.
    package init(wireName: String) {
      self = Self.known.first { $0.wireName == wireName } ?? .other(wireName)
    }

    /// The code as CloudKit spells it.
    package var wireName: String {
      switch self {
      case .accessDenied: return "ACCESS_DENIED"
      case .atomicError: return "ATOMIC_ERROR"
      case .authenticationFailed: return "AUTHENTICATION_FAILED"
      case .authenticationRequired: return "AUTHENTICATION_REQUIRED"
      case .badRequest: return "BAD_REQUEST"
      case .conflict: return "CONFLICT"
      case .exists: return "EXISTS"
      case .internalError: return "INTERNAL_ERROR"
      case .notFound: return "NOT_FOUND"
      case .quotaExceeded: return "QUOTA_EXCEEDED"
      case .throttled: return "THROTTLED"
      case .tryAgainLater: return "TRY_AGAIN_LATER"
      case .validatingReferenceError: return "VALIDATING_REFERENCE_ERROR"
      case .zoneNotFound: return "ZONE_NOT_FOUND"
      case .uniqueFieldError: return "UNIQUE_FIELD_ERROR"
      case .notSupportedByZone: return "NOT_SUPPORTED_BY_ZONE"
      case .other(let name): return name
      }
    }

    /// The HTTP status CloudKit answers a request-level error of this code with; 400 for codes it does not document.
    public var httpStatus: Int {
      switch self {
      case .accessDenied: return 403
      case .atomicError, .badRequest, .notSupportedByZone, .other: return 400
      case .authenticationFailed: return 401
      case .authenticationRequired: return 421
      case .conflict, .exists, .uniqueFieldError: return 409
      case .internalError: return 500
      case .notFound, .zoneNotFound: return 404
      case .quotaExceeded: return 413
      case .throttled: return 429
      case .tryAgainLater: return 503
      case .validatingReferenceError: return 412
      }
    }

    /// Whether the same request may succeed later unchanged: `THROTTLED` and `TRY_AGAIN_LATER`. (`ATOMIC_ERROR` needs
    /// the failing sibling fixed first; `INTERNAL_ERROR` is, as `CKError.internalError`, not retried.)
    public var isTransient: Bool { self == .throttled || self == .tryAgainLater }

    /// The wire name.
    public var description: String { wireName }
  }

  /// An error the Web Services reported: for one record (`recordName`), one zone (`zoneID`), or the whole request.
  ///
  /// `{"recordName": "note-9", "reason": "record to update has been modified", "serverErrorCode": "CONFLICT",
  /// "uuid": "0f1e"}` decodes to `code` ``ErrorCode/conflict`` with the record name and reason.
  public struct ServerError: Error, Sendable, Hashable, DescribedError {
    /// The error code.
    public var code: ErrorCode
    /// The server's explanation, when given.
    public var reason: String?
    /// The record the error is about, for per-record errors.
    public var recordName: String?
    /// The zone the error is about, for per-zone errors.
    public var zoneID: ZoneID?
    /// Seconds to wait before retrying, when the server said.
    public var retryAfter: Double?
    /// The server's ID for the failed request, for Apple's support.
    public var uuid: String?
    /// The HTTP status of the response that carried a request-level error; `nil` inside a successful response.
    public var httpStatus: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The error code.
    ///   - reason: The explanation.
    ///   - recordName: The record concerned.
    ///   - zoneID: The zone concerned.
    ///   - retryAfter: Seconds to wait before retrying.
    ///   - uuid: The server's request ID.
    ///   - httpStatus: The HTTP status of a request-level error.
    package init(
      code: ErrorCode, reason: String? = nil, recordName: String? = nil, zoneID: ZoneID? = nil,
      retryAfter: Double? = nil, uuid: String? = nil, httpStatus: Int? = nil
    ) {
      self.code = code
      self.reason = reason
      self.recordName = recordName
      self.zoneID = zoneID
      self.retryAfter = retryAfter
      self.uuid = uuid
      self.httpStatus = httpStatus
    }

    /// Whether retrying the same request later may succeed: the code is transient, or the server gave a
    /// `retryAfter`.
    public var isTransient: Bool { code.isTransient || retryAfter != nil }

    /// The code, what it concerns, the reason and the retry delay, in one line.
    public var description: String {
      var text = code.wireName
      if let httpStatus { text += " (HTTP \(httpStatus))" }
      if let recordName { text += " for record \(recordName)" }
      if let zoneID { text += " for zone \(zoneID)" }
      if let reason { text += ": \(reason)" }
      if let retryAfter { text += "; retry after \(retryAfter) s" }
      return text
    }
  }
}

extension WebServices.ServerError: WireBody {
  enum CodingKeys: String, CodingKey { case serverErrorCode, reason, recordName, zoneID, retryAfter, uuid }

  /// Decodes `{serverErrorCode, reason?, recordName?, zoneID?, retryAfter?, uuid?}`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing code or a mistyped key.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    code = WebServices.ErrorCode(wireName: try c.decode(String.self, forKey: .serverErrorCode))
    reason = try c.decodeIfPresent(String.self, forKey: .reason)
    recordName = try c.decodeIfPresent(String.self, forKey: .recordName)
    zoneID = try WireCoding.decodeZoneID(c, key: .zoneID)
    retryAfter = try c.decodeIfPresent(Double.self, forKey: .retryAfter)
    uuid = try c.decodeIfPresent(String.self, forKey: .uuid)
    httpStatus = nil
  }

  /// Encodes the error dictionary (the HTTP status travels outside the body).
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  func encodeWireFormat(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(code.wireName, forKey: .serverErrorCode)
    try c.encodeIfPresent(reason, forKey: .reason)
    try c.encodeIfPresent(recordName, forKey: .recordName)
    if let zoneID { try WireCoding.encodeZoneID(zoneID, into: &c, key: .zoneID) }
    try c.encodeIfPresent(retryAfter, forKey: .retryAfter)
    try c.encodeIfPresent(uuid, forKey: .uuid)
  }
}
