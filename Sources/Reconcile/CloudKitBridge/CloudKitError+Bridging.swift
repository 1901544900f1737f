import Foundation

/// The parts of a `CKError` the bridge reads, described without CloudKit; `CKError` conforms on Apple platforms.
package protocol CloudKitErrorBridging {
  /// A CloudKit record type the error carries (`CKRecord`).
  associatedtype BridgedRecord: CloudKitRecordBridging
  /// `code.rawValue`.
  var bridgedCode: Int { get }
  /// `retryAfterSeconds`.
  var bridgedRetryAfter: Double? { get }
  /// `localizedDescription`, or another message.
  var bridgedMessage: String? { get }
  /// `clientRecord`, `ancestorRecord` and `serverRecord` of a `serverRecordChanged`.
  var bridgedConflictRecords: (client: BridgedRecord?, ancestor: BridgedRecord?, server: BridgedRecord?) { get }
  /// `partialErrorsByItemID`, for items that are records, by record name.
  var bridgedPartialErrors: [String: Self] { get }
}

extension CloudKitError {
  /// Reads a CloudKit error: its code and delay, the three records of a `serverRecordChanged` as a ``Conflict``, and
  /// each failed item of a `partialFailure`.
  /// - Parameter error: A `CKError`, or anything that describes one.
  /// - Throws: ``CloudKitBridgeError`` when a record in the error cannot be read.
  package init<E: CloudKitErrorBridging>(bridging error: E) throws(CloudKitBridgeError) {
    var conflict: Conflict?
    let records = error.bridgedConflictRecords
    if let client = records.client, let server = records.server {
      conflict = Conflict(
        client: try Record(bridging: client),
        ancestor: try records.ancestor.map { r throws(CloudKitBridgeError) in
          try Record(bridging: r)
        }, server: try Record(bridging: server))
    }
    var partial: [String: CloudKitError] = [:]
    for (name, item) in error.bridgedPartialErrors { partial[name] = try CloudKitError(bridging: item) }
    self.init(
      code: Code(rawValue: error.bridgedCode), retryAfter: error.bridgedRetryAfter, conflict: conflict,
      partialErrors: partial, message: error.bridgedMessage)
  }
}
