// The delegate of the DocC article "Using Reconcile with CKSyncEngine", whole: the article quotes it in parts, a test
// checks each quoted block is in this file, SyncEngineArticleTests runs it in the simulator, and
// Scripts/check-cloudkit-bridge.sh compiles it with the article's CKSyncEngine setup against the CloudKit stand-in.
// It imports only Reconcile: the same code runs in an app.
import Foundation
import Reconcile

// snippet: store
/// A notes app's sync delegate: one zone, a three-way `FieldMerge`, a delete policy with tombstones, a schema check on
/// everything fetched, and the zone re-created when it disappears.
struct NotesSyncDelegate: SyncEngineDelegate {
  /// Everything the app keeps on disk, in one `Codable` value, written after every event.
  struct Store: Codable, Hashable {
    /// What the user sees. `changedKeys` are edits not yet on the server; system fields are the last server version's.
    var notes: [RecordID: Record] = [:]
    /// The last server version of each note: the ancestor of the next merge.
    var ancestors: [RecordID: Record] = [:]
    /// Deleted notes, so a stale copy never comes back.
    var tombstones = Tombstones()
    /// Each deleted note as the user last saw it: a fetched copy with the same stamp is the deleted version itself.
    var deletedVersions: [RecordID: Record] = [:]
    /// Deletions not sent until a fetch that starts after them has run: a deletion carries no change tag, so sent
    /// blindly it could delete a note another device created anew under the same ID.
    var awaitingFetch: Set<RecordID> = []
    /// The deletions that were waiting when the fetch under way started.
    var fetchCovers: Set<RecordID> = []
    /// New notes handed to the engine and not yet confirmed or refused: one may be on the server already.
    var handedOut: Set<RecordID> = []
    /// Handed-out notes whose save failed without saying whether it landed (a network error): a later refusal of a
    /// retry does not show that the earlier attempt missed, so they stay handed out until a save is confirmed.
    var mayHaveLanded: Set<RecordID> = []
    /// Notes created again while their deletion was unconfirmed: each replaces the server's copy whole.
    var replacing: Set<RecordID> = []
    /// Whether the zone's next fetch starts from its beginning: at first launch, after the zone disappeared, and after
    /// a fetch of it ended with an error (an expired token), after which the engine fetches it from the start.
    var fetchStartsOver = true
    /// The notes a fetch from the beginning has brought so far: at its end, a known note it did not bring is gone.
    var seenInFullFetch: Set<RecordID>?
    /// Fetched notes the schema check stopped: written by a newer app, kept untouched until this app understands them.
    var held: [RecordID: Record] = [:]
    /// The engine's state from the latest `stateUpdate`, handed back at launch.
    var engineState: SyncEngine.StateSerialization?
    /// Whether the zone exists on the server, as far as the app knows.
    var zoneExists = false
    /// Why the zone is gone, as far as a save's error tells (`zoneNotFound`: deleted; `userDeletedZone`: purged). The
    /// notes stay until a fetch's database changes say why — after an encrypted-data reset the user still wants every
    /// note — or, when they do not say, the error's reason stands.
    var zoneMissing: SyncEngine.ZoneDeletion.Reason?
    /// Notes uploaded again after the zone went, not yet saved or merged since: the last server version known before
    /// stays their ancestor, so another device's upload of that same version is not taken for an edit.
    var reuploaded: Set<RecordID> = []
    /// Set when the zone went and was created again before this device heard (the database changes reported both):
    /// the zone's listing from its beginning then settles which confirmed notes went with the old zone — those it does
    /// not bring — and whether they are uploaded again (`true`) or dropped (`false`). `nil` for any other listing.
    var listingKeepsLostNotes: Bool?
    /// Notes a save found missing (`unknownItem`): deleted by another device, or gone with the zone, which another
    /// device has created again. Each stays until a fetch has said which; then the delete policy decides.
    var missingOnSave: Set<RecordID> = []
    /// This device's clock for edit stamps.
    var clock: HybridLogicalClock
    /// The latest time the app read its clock: stamps and tombstones use it, so handling an event reads no clock.
    var now = Date.distantPast
  }

  let zoneID: ZoneID
  let merge = FieldMerge(.localClock(key: "modifiedAt"), overrides: ["tags": .listUnion])
  let deletePolicy: DeletePolicy
  /// After the zone disappears: upload every note again (`true`), or only those the server never confirmed.
  let reuploadAfterZoneLoss: Bool
  var schema: Schema?
  var store: Store
  /// Writes the store to disk; called after every event and user change (`nil` in tests, which keep it in memory).
  var persist: (@Sendable (Store) -> Void)?

  init(
    zoneID: ZoneID, device: String, deletePolicy: DeletePolicy = .deleteWins, reuploadAfterZoneLoss: Bool = false,
    schema: Schema? = nil
  ) throws {
    self.zoneID = zoneID
    self.deletePolicy = deletePolicy
    self.reuploadAfterZoneLoss = reuploadAfterZoneLoss
    self.schema = schema
    store = Store(clock: try HybridLogicalClock(nodeID: device))
  }
  // end snippet

  // snippet: user
  /// The user saved a note, new or edited: stamp it, keep it, and tell the engine.
  mutating func userSaved(_ note: Record, at now: Date, syncEngine: inout SyncEngine.State) throws {
    var note = note
    store.now = max(store.now, now)
    try merge.stampEdit(&note, clock: &store.clock, at: now)
    if store.deletedVersions[note.recordID] != nil { store.replacing.insert(note.recordID) }
    store.notes[note.recordID] = note
    store.tombstones.remove(note.recordID)
    store.deletedVersions[note.recordID] = nil
    store.awaitingFetch.remove(note.recordID)
    if !store.zoneExists { syncEngine.add(pendingDatabaseChanges: [.saveZone(zoneID)]) }
    syncEngine.add(pendingRecordZoneChanges: [.saveRecord(note.recordID)])
    persist?(store)
  }

  /// The user deleted a note: keep a tombstone, and send the deletion after the next fetch.
  mutating func userDeleted(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) {
    store.now = max(store.now, now)
    guard let note = store.notes.removeValue(forKey: id) else { return }
    store.ancestors[id] = nil
    store.reuploaded.remove(id)
    if !note.isKnownToServer, !store.handedOut.contains(id), !store.replacing.contains(id) {
      // Never handed to the engine, nor replacing a deleted note whose deletion is still owed: nothing to delete on the
      // server, and a copy fetched later is someone else's.
      syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
      persist?(store)
      return
    }
    store.tombstones.insert(Tombstone(deleting: note, at: now))
    store.deletedVersions[id] = note
    store.awaitingFetch.insert(id)
    syncEngine.add(pendingRecordZoneChanges: [.deleteRecord(id)])
    persist?(store)
  }
  // end snippet

  // snippet: events
  mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    defer { persist?(store) }  // Each event's effect is on disk before the engine moves on.
    switch event {
    case .stateUpdate(let serialization):
      store.engineState = serialization
    case .willFetchChanges:
      store.fetchCovers = store.awaitingFetch
    case .willFetchRecordZoneChanges(let zone) where zone == zoneID && store.fetchStartsOver:
      store.fetchStartsOver = false
      store.seenInFullFetch = []
    case .fetchedDatabaseChanges(let changes):
      let recreated = changes.modifications.contains(zoneID)
      if recreated {
        store.zoneExists = true
      } else {
        store.awaitingFetch.subtract(store.fetchCovers)  // The zone did not change: no note was created anew.
      }
      for deletion in changes.deletions where deletion.zoneID == zoneID {
        zoneDisappeared(deletion.reason, recreated: recreated, &syncEngine)
      }
      // There again, without a word on why it went (the changes' history can be trimmed): the error's reason stands,
      // before the zone's fetch brings what the new zone holds.
      if recreated, let reason = store.zoneMissing { zoneDisappeared(reason, recreated: true, &syncEngine) }
    case .fetchedRecordZoneChanges(let changes):
      for server in changes.modifications where server.recordID.zoneID == zoneID {
        store.seenInFullFetch?.insert(server.recordID)
        fetched(server, &syncEngine)
      }
      for deletion in changes.deletions where deletion.recordID.zoneID == zoneID {
        deletedOnServer(deletion, &syncEngine)
      }
    case .didFetchChanges:
      // The database changes did not say why the zone went (their history can be trimmed): the error's reason stands.
      if let reason = store.zoneMissing { zoneDisappeared(reason, &syncEngine) }
      // Nor did they say the zone went, and the listing did not bring the note: it was deleted.
      for id in store.missingOnSave.sorted() { missingOnServer(id, &syncEngine) }
      store.missingOnSave = []
    case .sentDatabaseChanges(let sent):
      if sent.savedZones.contains(zoneID) { store.zoneExists = true }
    case .didFetchRecordZoneChanges(let zone, let error) where zone == zoneID:
      guard error == nil else {
        store.fetchStartsOver = true  // The engine fetches the zone again from the start, reporting no deletions.
        return
      }
      if let seen = store.seenInFullFetch {
        for (id, note) in store.notes.sorted(by: { $0.key < $1.key }) where note.isKnownToServer && !seen.contains(id) {
          switch store.listingKeepsLostNotes {
          case true?: uploadAgain(id, &syncEngine)  // It went with the old zone, and the user still wants it.
          case false?: forget(id, &syncEngine)  // It went with the old zone.
          case nil: deletedOnServer(DeletedRecord(recordID: id, recordType: note.recordType), &syncEngine)
          }
        }
        store.seenInFullFetch = nil
        store.listingKeepsLostNotes = nil
      }
      store.awaitingFetch.subtract(store.fetchCovers)
    case .sentRecordZoneChanges(let sent):
      for saved in sent.savedRecords { savedOnServer(saved) }
      for failure in sent.failedRecordSaves { saveFailed(failure, &syncEngine) }
      for id in sent.deletedRecordIDs {
        // Gone from the server: whatever a fetch brings under this ID from now on is a note created anew.
        store.tombstones.remove(id)
        store.deletedVersions[id] = nil
      }
    case .accountChange(let change):
      accountChanged(change, &syncEngine)
    default:
      break
    }
  }
  // end snippet

  // snippet: fetched
  /// A note changed on the server: check its schema, respect tombstones, merge unsent edits.
  private mutating func fetched(_ fetched: Record, _ syncEngine: inout SyncEngine.State) {
    let id = fetched.recordID
    var server = fetched
    if let schema {
      do {
        if case .needsMigration = try schema.check(server) { server = try schema.migrate(server) }
      } catch {
        store.held[id] = fetched  // A newer app wrote it: keep it untouched, never overwrite it.
        return
      }
    }
    store.held[id] = nil
    store.missingOnSave.remove(id)  // The server has it after all.
    if store.deletedVersions[id] != nil {
      // This device deleted the note and the server has not confirmed it yet.
      if let tombstone = store.tombstones[id], deletionStands(tombstone, against: server) {
        syncEngine.add(pendingRecordZoneChanges: [.deleteRecord(id)])
        return
      }
      cancelDeletion(of: id, &syncEngine)
    }
    store.tombstones.remove(id)  // A fetched note is newer than any deletion fetched before it.
    try? merge.observeStamps(of: server, clock: &store.clock, at: store.now)
    if let local = store.notes[id], !local.changedKeys.isEmpty {
      resolve(Conflict(client: local, ancestor: store.ancestors[id], server: server), &syncEngine)
    } else {
      store.notes[id] = server
    }
    store.ancestors[id] = server
  }

  /// Forgets this device's deletion of a note, which must not be sent.
  private mutating func cancelDeletion(of id: RecordID, _ syncEngine: inout SyncEngine.State) {
    store.tombstones.remove(id)
    store.deletedVersions[id] = nil
    store.awaitingFetch.remove(id)
    syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(id)])
  }

  /// Whether a deletion beats the fetched copy: yes against the very version deleted (this device's own save), no
  /// against a note created anew (another creation date), and as the delete policy says against one written since.
  private func deletionStands(_ tombstone: Tombstone, against server: Record) -> Bool {
    guard store.tombstones.blocks(server) else { return false }
    if let deleted = store.deletedVersions[server.recordID], deleted["modifiedAt"] == server["modifiedAt"] {
      return true
    }
    if case .deleted = deletePolicy.resolvePendingDeletion(tombstone, against: server) { return true }
    return false
  }

  /// Merges unsent edits with the server's version; what still differs from the server is saved again. When the note
  /// was deleted and created anew since the edits' ancestor (another creation date), the edits belong to the deleted
  /// note: the delete policy decides whether they are dropped or merged into the new one.
  private mutating func resolve(_ conflict: Conflict, _ syncEngine: inout SyncEngine.State) {
    var conflict = conflict
    if store.replacing.contains(conflict.recordID) {
      // Created again after the user deleted the note here: the new note replaces the old one, keys and all.
      store.notes[conflict.recordID] = Self.rebase(conflict.client, onto: conflict.server)
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(conflict.recordID)])
      return
    }
    // A note uploaded again after the zone went has a new creation date, and is still the same note.
    let uploadedAgain = store.reuploaded.remove(conflict.recordID) != nil
    if !uploadedAgain, let ancestor = conflict.ancestor, let born = ancestor.creationDate,
      conflict.server.creationDate != born
    {
      guard deletePolicy == .editWins else {
        store.notes[conflict.recordID] = conflict.server
        return
      }
      conflict.ancestor = nil
    }
    guard let merged = try? merge.resolve(conflict) else { return }  // Keep the local edits; a later fetch retries.
    store.notes[conflict.recordID] = merged
    if !merged.changedKeys.isEmpty { syncEngine.add(pendingRecordZoneChanges: [.saveRecord(conflict.recordID)]) }
  }
  // end snippet

  // snippet: deleted
  /// A note was deleted on the server: the delete policy decides between the deletion and unsent edits.
  private mutating func deletedOnServer(_ deletion: DeletedRecord, _ syncEngine: inout SyncEngine.State) {
    let id = deletion.recordID
    store.missingOnSave.remove(id)  // The deletion is why a save found it missing.
    if let local = store.notes[id], !local.isKnownToServer, !store.handedOut.contains(id) {
      return  // Created here since, never sent: the deletion is of an older note with its name.
    }
    let tombstone = Tombstone(
      recordID: id, recordType: deletion.recordType, deletedAt: store.now,
      creationDate: store.ancestors[id]?.creationDate)
    store.ancestors[id] = nil
    guard let local = store.notes[id] else {
      store.tombstones.insert(tombstone)
      return
    }
    switch deletePolicy.resolveFetchedDeletion(tombstone, of: local) {
    case .deleted(let tombstone):
      store.notes[id] = nil
      store.tombstones.insert(tombstone)
      syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
    case .recreate(let note), .keep(let note):
      store.notes[id] = note
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }
  }
  // end snippet

  // snippet: sent
  /// The server saved a note: its system fields are the new ancestor; edits made since stay unsent on top of them.
  private mutating func savedOnServer(_ saved: Record) {
    let id = saved.recordID
    store.handedOut.remove(id)
    store.mayHaveLanded.remove(id)
    store.replacing.remove(id)
    store.reuploaded.remove(id)
    if var deleted = store.tombstones[id], deleted.creationDate == nil {
      // Deleted while its first save was in flight: the deletion now knows which note it deletes.
      deleted.creationDate = saved.creationDate
      store.tombstones.insert(deleted)
    }
    guard let local = store.notes[id] else { return }  // Deleted since: no ancestor for a note created again.
    store.ancestors[id] = saved
    store.notes[id] = Self.rebase(local, onto: saved)
  }

  /// A save failed: merge a conflict, apply the delete policy to a deleted note, wait to learn why the zone went.
  private mutating func saveFailed(_ failure: SyncEngine.FailedRecordSave, _ syncEngine: inout SyncEngine.State) {
    let id = failure.record.recordID
    switch failure.error.code {
    case .zoneNotFound where store.zoneMissing == nil: store.zoneMissing = .deleted
    case .userDeletedZone: store.zoneMissing = .purged
    default: break
    }
    if failure.error.isTransient, store.handedOut.contains(id) { store.mayHaveLanded.insert(id) }
    if !failure.error.isTransient, failure.error.code != .batchRequestFailed, !store.mayHaveLanded.contains(id) {
      store.handedOut.remove(id)
    }
    if let deleted = store.deletedVersions[id], failure.error.code == .serverRecordChanged, !deleted.isKnownToServer,
      let server = failure.error.conflict?.server, server["modifiedAt"] != deleted["modifiedAt"]
    {
      // Deleted while its first save was in flight, and the save lost to a note another device created under the same
      // ID: nothing of this device's is on the server, so the deletion must not touch that note.
      cancelDeletion(of: id, &syncEngine)
      return
    }
    guard let local = store.notes[id] else { return }
    switch failure.error.code {
    case .serverRecordChanged:
      guard let server = failure.error.conflict?.server else { return }
      resolve(Conflict(client: local, ancestor: store.ancestors[id], server: server), &syncEngine)
      store.ancestors[id] = server
    case .unknownItem:
      store.missingOnSave.insert(id)
    default:
      break  // Transient errors and batchRequestFailed stay pending; the engine retries them.
    }
  }

  /// A note a save found missing, after a fetch: the delete policy decides between the deletion and the note.
  private mutating func missingOnServer(_ id: RecordID, _ syncEngine: inout SyncEngine.State) {
    guard let local = store.notes[id], local.isKnownToServer else { return }  // Deleted, or uploaded again, since.
    switch deletePolicy.resolveUnknownItem(for: local, at: store.now) {
    case .deleted(let tombstone):
      forget(id, &syncEngine)
      store.tombstones.insert(tombstone)
    case .recreate(let note), .keep(let note):
      store.notes[id] = note
      store.ancestors[id] = nil
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }
  }
  // end snippet

  // snippet: zone
  /// The zone is gone, and the notes the server had with it. Notes it never confirmed go into a re-created zone — all
  /// notes after an encrypted-data reset (the user still wants them), or when `reuploadAfterZoneLoss`; none of those
  /// the server had when the user purged the app's data, which must not come back. A confirmed note uploaded again
  /// keeps its ancestor. A zone created again since (`recreated`) is settled by its listing.
  private mutating func zoneDisappeared(
    _ reason: SyncEngine.ZoneDeletion.Reason, recreated: Bool = false, _ syncEngine: inout SyncEngine.State
  ) {
    let keepsConfirmed = reason == .encryptedDataReset || (reason == .deleted && reuploadAfterZoneLoss)
    store.zoneMissing = nil
    store.missingOnSave = []
    store.fetchStartsOver = true
    store.seenInFullFetch = nil
    if recreated { return zoneCreatedAgain(keepingConfirmed: keepsConfirmed, &syncEngine) }
    store.zoneExists = false
    store.tombstones = Tombstones()
    store.deletedVersions = [:]
    store.awaitingFetch = []
    store.handedOut = []
    store.mayHaveLanded = []
    syncEngine.remove(
      pendingRecordZoneChanges: syncEngine.pendingRecordZoneChanges.filter { $0.recordID.zoneID == zoneID })
    store.listingKeepsLostNotes = nil
    for (id, note) in store.notes.sorted(by: { $0.key < $1.key }) {
      // A copy still waiting to be uploaded again after an earlier loss of the zone was confirmed there: it goes too.
      let confirmed = note.isKnownToServer || store.reuploaded.contains(id)
      if confirmed && !keepsConfirmed {
        forget(id, &syncEngine)
      } else {
        uploadAgain(id, &syncEngine)
      }
    }
    if !store.notes.isEmpty { syncEngine.add(pendingDatabaseChanges: [.saveZone(zoneID)]) }
  }

  /// The zone went and was created again before this device heard, which may have saved into the new zone already:
  /// nothing the new zone may hold is dropped now. The zone's listing from its beginning decides: the confirmed notes
  /// it does not bring went with the old zone, and are uploaded again (`keepingConfirmed`, merging over the last
  /// version they knew) or dropped.
  private mutating func zoneCreatedAgain(keepingConfirmed: Bool, _ syncEngine: inout SyncEngine.State) {
    store.listingKeepsLostNotes = keepingConfirmed
    if keepingConfirmed {
      store.reuploaded.formUnion(store.notes.keys.filter { store.ancestors[$0] != nil })
    } else {
      // A copy still waiting to be uploaded again after an earlier loss of the zone was confirmed there: it goes.
      for id in store.reuploaded.sorted() where store.notes[id]?.isKnownToServer == false { forget(id, &syncEngine) }
    }
    // A save the missing zone refused is no longer pending: a note the server never confirmed is queued again.
    for (id, note) in store.notes.sorted(by: { $0.key < $1.key }) where !note.isKnownToServer {
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }
  }

  /// Drops the note `id` and what the device keeps to sync it.
  private mutating func forget(_ id: RecordID, _ syncEngine: inout SyncEngine.State) {
    store.notes[id] = nil
    store.ancestors[id] = nil
    store.reuploaded.remove(id)
    syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
  }

  /// Queues `id` to be saved as a new note; a note the server had confirmed keeps its last version as the ancestor of
  /// its first merge.
  private mutating func uploadAgain(_ id: RecordID, _ syncEngine: inout SyncEngine.State) {
    guard let note = store.notes[id] else { return }
    store.notes[id] = Self.asNew(note)
    if store.ancestors[id] != nil { store.reuploaded.insert(id) }
    syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
  }

  /// The iCloud account changed, and the engine has reset its state and cleared what was pending. A sign-out or a
  /// switch deletes the previous account's notes, as Apple asks; a sign-in uploads what was written signed out.
  private mutating func accountChanged(_ change: SyncEngine.AccountChange, _ syncEngine: inout SyncEngine.State) {
    guard change.previousUser == nil else {
      store = Store(clock: store.clock, now: store.now)
      return
    }
    store.fetchStartsOver = true
    for (id, note) in store.notes.sorted(by: { $0.key < $1.key }) {
      store.notes[id] = Self.asNew(note)
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }
    if !store.notes.isEmpty { syncEngine.add(pendingDatabaseChanges: [.saveZone(zoneID)]) }
  }
  // end snippet

  // snippet: batch
  mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? {
    let pending = syncEngine.pendingRecordZoneChanges.filter { $0.recordID.zoneID == zoneID }
    let orphans = pending.filter { if case .saveRecord(let id) = $0 { store.notes[id] == nil } else { false } }
    syncEngine.remove(pendingRecordZoneChanges: orphans)
    let batch = SyncEngine.RecordZoneChangeBatch(
      pendingChanges: pending.filter { change in
        if case .deleteRecord(let id) = change { return !store.awaitingFetch.contains(id) }
        return !orphans.contains(change)
      },
      maximumItems: context.maximumItems
    ) { store.notes[$0] }
    for note in batch?.recordsToSave ?? [] where !note.isKnownToServer { store.handedOut.insert(note.recordID) }
    persist?(store)
    return batch
  }
  // end snippet

  // snippet: helpers
  /// `local`'s values on `server`'s system fields; `changedKeys` names the keys where they differ.
  static func rebase(_ local: Record, onto server: Record) -> Record {
    var result = server
    result.clearChangedKeys()
    for key in Set(local.values.keys).union(server.values.keys) where local[key] != server[key] {
      result[key] = local[key]
    }
    for key in Set(local.encryptedValuesByKey.keys).union(server.encryptedValuesByKey.keys)
    where local.encryptedValues[key] != server.encryptedValues[key] {
      result.encryptedValues[key] = local.encryptedValues[key]
    }
    return result
  }

  /// The note as a new record: no system fields, every value marked changed.
  static func asNew(_ note: Record) -> Record {
    var fresh = Record(recordType: note.recordType, recordID: note.recordID)
    for (key, value) in note.values { fresh[key] = value }
    for (key, value) in note.encryptedValuesByKey { fresh.encryptedValues[key] = value }
    fresh.parent = note.parent
    return fresh
  }
}
// end snippet
