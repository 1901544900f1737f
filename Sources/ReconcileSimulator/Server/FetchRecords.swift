package import Reconcile

/// Fetches records by ID, as `CKFetchRecordsOperation`.
package struct FetchRecordsRequest: Sendable, Hashable {
  /// The database.
  package var scope: DatabaseScope
  /// The IDs.
  package var recordIDs: [RecordID]
  /// The keys to include: `nil` for all, `[]` for system fields only.
  package var desiredKeys: [String]?

  /// Creates a request.
  /// - Parameters:
  ///   - scope: `.private` unless given.
  ///   - recordIDs: The IDs.
  ///   - desiredKeys: The keys to include.
  package init(scope: DatabaseScope = .private, recordIDs: [RecordID], desiredKeys: [String]? = nil) {
    self.scope = scope
    self.recordIDs = recordIDs
    self.desiredKeys = desiredKeys
  }
}

/// The records found, and an error for each ID that was not.
package struct FetchRecordsReply: Sendable, Hashable {
  /// The records found, in request order.
  package var records: [Record]
  /// Each missing or unreachable ID's error (``CloudKitError/unknownItem(_:)``, ``CloudKitError/zoneNotFound(_:)``, …).
  package var failures: [RecordID: CloudKitError]

  /// Creates a reply.
  /// - Parameters:
  ///   - records: Found records.
  ///   - failures: Per-ID errors.
  package init(records: [Record], failures: [RecordID: CloudKitError]) {
    self.records = records
    self.failures = failures
  }
}
