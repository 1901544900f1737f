package import Foundation
package import Reconcile

/// What the reference app keeps on disk, written in one transaction per change: everything that survives a crash.
///
/// The sync rules' bookkeeping is Reconcile's `ZoneReplica` (the records, in a ``SealedStore``, and the replica's
/// metadata); the queue of pending changes is a `SyncEngine.State` the app keeps itself, as a CKSyncEngine keeps its
/// own; the tokens, and which zone still needs fetching, are the app's part as a client of CloudKit's operations.
package struct DeviceStorage: Sendable {
  /// The records and the sync rules' bookkeeping.
  package internal(set) var replica: ZoneReplica<SealedStore>
  /// The pending record and zone changes.
  package internal(set) var queue = SyncEngine.State()
  /// The zone-change token, committed only after the changes it covers were applied.
  package internal(set) var zoneToken: ZoneChangeToken?
  /// The database-change token.
  package internal(set) var databaseToken: DatabaseChangeToken?
  /// Whether the database feed named the zone changed since its pages were last all fetched: written with the
  /// database token, so a crash before the zone's last page still fetches it.
  var zoneNeedsFetch = false
  /// Whether the app saved its zone and no deletion of it was reported since: a listing of the database from the
  /// beginning that leaves it out says it is gone.
  var zoneSaved = false
  /// The first zone token the app committed in the zone's current incarnation: what
  /// ``ClientDefect/rewindTokenOnCrash`` restores.
  var firstZoneToken: ZoneChangeToken?
  /// Why the app stopped syncing for an error of the server's it cannot answer alone (a sign-in, a bad database,
  /// full storage, a refusal): kept across launches until the user acts (``SimulatedDevice/restart()``).
  var operationHalt: HaltReason?
  /// How many damaged records the app has found and thrown away.
  package internal(set) var damagedRecordsDiscarded = 0
  /// When the app last finished fetching changes.
  package internal(set) var lastSuccessfulFetch: Date?
  /// When the server last accepted a save or delete from the app.
  package internal(set) var lastSuccessfulSave: Date?
  /// A counter for request IDs, persisted so an answer to a request sent before a crash is never taken for an answer
  /// to one sent after.
  var requestSerial = 0
  /// Copies of records the user deleted here, each sent beside its deletion: only
  /// ``ClientDefect/saveAndDeleteTogether`` keeps any.
  var savesBesideDeletes: [RecordID: Record] = [:]
  /// Copies of records the user deleted here: only ``ClientDefect/recreateRestoresDeletedFields`` keeps any.
  var deletedCopies: [RecordID: Record] = [:]

  init(replica: ZoneReplica<SealedStore>) { self.replica = replica }

  /// Runs the replica's rules with the queue they add changes to and remove them from, in one write.
  mutating func withReplica<T, E: Error>(
    _ body: (inout ZoneReplica<SealedStore>, inout SyncEngine.State) throws(E) -> T
  ) throws(E) -> T {
    try body(&replica, &queue)
  }

  /// The records the app shows, by ID.
  package var records: SealedStore { replica.store }
}
