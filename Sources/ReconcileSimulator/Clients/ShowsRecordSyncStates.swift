package import Reconcile

/// A client whose sync rules keep a state per record (a `ZoneReplica`'s), which the playground's `show` of a device
/// lists beside the record.
package protocol ShowsRecordSyncStates: SyncClient {
  /// Each record's sync state, by ID.
  var recordSyncStates: [RecordID: RecordSyncState] { get }
}
