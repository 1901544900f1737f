// The delegate of the DocC article "Using Reconcile with CKSyncEngine", whole: the article quotes it in parts, a test
// checks each quoted block is in this file, SyncEngineArticleTests runs it in the simulator, and
// Scripts/check-cloudkit-bridge.sh compiles it with the article's CKSyncEngine setup against the CloudKit stand-in.
// It imports only Reconcile: the same code runs in an app.
import Foundation
import Reconcile

// snippet: delegate
/// A notes app's sync delegate. The notes live in the app's store; every sync rule lives in Reconcile's
/// `ZoneReplica`, configured here: a three-way `FieldMerge` over the last server version (a key both devices changed
/// keeps the server's value; tags are united), a delete policy with
/// tombstones, a schema check on what is fetched, and what to keep when the zone goes.
struct NotesSyncDelegate: SyncEngineDelegate {
  /// What the app writes to disk after every change, in one `Codable` value: the notes and the sync bookkeeping.
  struct Saved: Codable, Hashable {
    var notes = DictionaryReplicaStore()
    var sync = ReplicaMetadata()
  }

  var replica: ZoneReplica<DictionaryReplicaStore>
  /// Writes what the app keeps; called after every event and user change (`nil` in tests, which keep it in memory).
  var persist: (@Sendable (Saved) -> Void)?

  init(
    zoneID: ZoneID, device: String, deletePolicy: DeletePolicy = .deleteWins, reuploadAfterZoneLoss: Bool = false,
    schema: Schema? = nil, saved: Saved = Saved()
  ) {
    let configuration = ReplicaConfiguration(
      zoneID: zoneID, deviceName: device,
      resolver: FieldMerge(.server, overrides: ["tags": .listUnion]), deletePolicy: deletePolicy, schema: schema,
      zoneLoss: reuploadAfterZoneLoss ? .reuploadLocalData : .dropLocalData)
    replica = ZoneReplica(configuration: configuration, store: saved.notes, metadata: saved.sync)
  }

  var saved: Saved { Saved(notes: replica.store, sync: replica.metadata) }

  mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    replica.handleEvent(event, syncEngine: &syncEngine)
    persist?(saved)
  }

  mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? {
    defer { persist?(saved) }  // The replica notes which new notes it handed out: one may land unanswered.
    return replica.nextRecordZoneChangeBatch(context, syncEngine: &syncEngine)
  }
  // end snippet

  // snippet: user
  /// The user wrote a new note.
  mutating func userCreated(_ note: Record, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try replica.create(note, at: now, syncEngine: &syncEngine)
    persist?(saved)
  }

  /// The user changed some of a note's fields (`nil` clears one).
  mutating func userEdited(
    _ id: RecordID, _ values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws {
    try replica.edit(id, setting: values, at: now, syncEngine: &syncEngine)
    persist?(saved)
  }

  /// The user deleted a note.
  mutating func userDeleted(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try replica.delete(id, at: now, syncEngine: &syncEngine)
    persist?(saved)
  }

  /// What the list shows.
  var notes: [Record] { replica.store.records }
}
// end snippet
