import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// `CloudKitError` is the one vocabulary an app handles: a `CKError`, a Web Services error and the simulated server's
/// error each become one, and the same failure reads the same through each path.
@Suite("One error vocabulary: CloudKit, Web Services and the simulated server agree")
struct OneErrorVocabularyTests {
  /// Every Web Services code and the `CKError` code it reads as.
  static let webServicesCodes: [(String, CloudKitError.Code)] = [
    ("ACCESS_DENIED", .permissionFailure), ("ATOMIC_ERROR", .batchRequestFailed),
    ("AUTHENTICATION_FAILED", .notAuthenticated), ("AUTHENTICATION_REQUIRED", .notAuthenticated),
    ("BAD_REQUEST", .invalidArguments), ("CONFLICT", .serverRecordChanged), ("EXISTS", .serverRecordChanged),
    ("INTERNAL_ERROR", .internalError), ("NOT_FOUND", .unknownItem), ("QUOTA_EXCEEDED", .quotaExceeded),
    ("THROTTLED", .requestRateLimited), ("TRY_AGAIN_LATER", .serviceUnavailable),
    ("VALIDATING_REFERENCE_ERROR", .referenceViolation), ("ZONE_NOT_FOUND", .zoneNotFound),
    ("UNIQUE_FIELD_ERROR", .constraintViolation), ("NOT_SUPPORTED_BY_ZONE", .serverRejectedRequest),
    ("SOMETHING_NEW", .serverRejectedRequest),
  ]

  @Test("each Web Services code reads as the CKError code an Apple device meets for it")
  func webServicesCodesMap() {
    for (wire, expected) in Self.webServicesCodes {
      let error = WebServices.ServerError(code: WebServices.ErrorCode(wireName: wire), reason: "why", retryAfter: 3)
      let read = error.cloudKitError
      #expect(read.code == expected, "\(wire)")
      #expect(read.retryAfter == 3, "\(wire) keeps its delay")
      #expect(read.message?.contains(wire) == true, "\(wire) is named in the message")
    }
  }

  @Test("a simulated server's error reads the same directly and through its Web Services body, or loses only a nuance")
  func simulatorAndWebServicesAgree() throws {
    let zone = try ZoneID(zoneName: "Notes")
    let id = try RecordID(recordName: "n1", zoneID: zone)
    let note = Record(recordType: "Note", recordID: id)
    let errors: [CloudKitError] = [
      .internalError("x"), .networkUnavailable, .networkFailure(retryAfter: 2), .serviceUnavailable(retryAfter: 2),
      .requestRateLimited(retryAfter: 2), .notAuthenticated, .permissionFailure(reason: "x"), .unknownItem(id),
      .invalidArguments(reason: "x"), .serverRecordChanged(client: note, ancestor: nil, server: note),
      .serverRejectedRequest(reason: "x"), .incompatibleVersion, .constraintViolation(reason: "x"),
      .changeTokenExpired, .batchRequestFailed, .zoneBusy(retryAfter: 2), .badDatabase(reason: "x"), .quotaExceeded,
      .zoneNotFound(zone), .limitExceeded(reason: "x"), .userDeletedZone(zone), .referenceViolation(id),
      .serverResponseLost, .accountTemporarilyUnavailable(retryAfter: 2),
    ]
    // What the Web Services cannot say: they have no code for these, so a client reading the body sees the broader one.
    let broader: [CloudKitError.Code: CloudKitError.Code] = [
      .networkUnavailable: .serviceUnavailable, .networkFailure: .serviceUnavailable,
      .zoneBusy: .serviceUnavailable, .accountTemporarilyUnavailable: .serviceUnavailable,
      .serverResponseLost: .serviceUnavailable, .userDeletedZone: .zoneNotFound,
      .serverRejectedRequest: .invalidArguments, .incompatibleVersion: .invalidArguments,
      .constraintViolation: .invalidArguments, .changeTokenExpired: .invalidArguments,
      .badDatabase: .invalidArguments, .limitExceeded: .invalidArguments,
    ]
    for error in errors {
      let direct = error.code
      let viaBody = error.webServicesError().cloudKitError.code
      #expect(viaBody == (broader[direct] ?? direct), "\(direct.name): \(direct) directly, \(viaBody) via the body")
      #expect(error.webServicesError().cloudKitError.retryAfter == error.retryAfter, "\(direct.name) keeps its delay")
    }
  }
}
