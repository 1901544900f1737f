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
  /// `partialErrorsByItemID`, for items that are records: each record's name, zone name and owner name, and its error.
  var bridgedPartialErrors: [(id: (recordName: String, zoneName: String, ownerName: String), error: Self)] { get }
}

extension CloudKitError {
  /// Reads a CloudKit error: its code and delay, the records of a `serverRecordChanged` (a ``Conflict`` when the
  /// server's is attached), and each failed record of a `partialFailure`.
  /// - Parameter error: A `CKError`, or anything that describes one.
  /// - Throws: ``CloudKitBridgeError`` when a record in the error cannot be read.
  package init<E: CloudKitErrorBridging>(bridging error: E) throws(CloudKitBridgeError) {
    func read(_ record: E.BridgedRecord?) throws(CloudKitBridgeError) -> Record? {
      guard let record else { return nil }
      return try Record(bridging: record)
    }
    var partial: [RecordID: CloudKitError] = [:]
    for item in error.bridgedPartialErrors {
      partial[try RecordID(bridging: item.id)] = try CloudKitError(bridging: item.error)
    }
    self.init(
      code: Code(rawValue: error.bridgedCode), retryAfter: error.bridgedRetryAfter, partialErrors: partial,
      message: error.bridgedMessage)
    let records = error.bridgedConflictRecords
    clientRecord = try read(records.client)
    ancestorRecord = try read(records.ancestor)
    serverRecord = try read(records.server)
  }
}
