import Foundation
import Reconcile
import Testing

/// ZoneReplica's rules through its public API, event by event, as CKSyncEngine delivers them.
@Suite("ZoneReplica: the sync rules of one zone")
struct ZoneReplicaTests {
  static func zone() throws -> ZoneID { try ZoneID(zoneName: "Notes") }

  static func replica(_ policy: DeletePolicy = .deleteWins) throws -> ZoneReplica<DictionaryReplicaStore> {
    ZoneReplica(
      configuration: ReplicaConfiguration(
        zoneID: try zone(), deviceName: "phone", resolver: FieldMerge(), deletePolicy: policy),
      store: DictionaryReplicaStore())
  }

  static func note(_ name: String, title: String) throws -> Record {
    var note = Record(recordType: "Note", recordID: try RecordID(recordName: name, zoneID: zone()))
    note["title"] = .string(title)
    return note
  }

  /// The note as the server saved it: system fields, nothing changed.
  static func saved(_ note: Record, tag: String, created: Date = Date(timeIntervalSince1970: 1)) -> Record {
    var saved = note
    saved.recordChangeTag = tag
    saved.creationDate = created
    saved.clearChangedKeys()
    return saved
  }

  static func batch(_ replica: inout ZoneReplica<DictionaryReplicaStore>, _ state: inout SyncEngine.State)
    -> SyncEngine.RecordZoneChangeBatch?
  {
    replica.nextRecordZoneChangeBatch(SyncEngine.SendChangesContext(reason: .scheduled), syncEngine: &state)
  }

  @Test("a deletion of a note the server has waits for a fetch that starts after it, then is sent")
  func deletionWaitsForAFetch() throws {
    var replica = try Self.replica()
    var state = SyncEngine.State()
    let note = try Self.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = Self.batch(&replica, &state)
    replica.handleEvent(
      .sentRecordZoneChanges(.init(savedRecords: [Self.saved(note, tag: "t1")])), syncEngine: &state)
    try replica.delete(note.recordID, at: Date(timeIntervalSince1970: 20), syncEngine: &state)
    #expect(state.pendingRecordZoneChanges.contains(.deleteRecord(note.recordID)))
    #expect(Self.batch(&replica, &state)?.recordIDsToDelete.isEmpty ?? true, "sent before any fetch")
    for event in [
      SyncEngine.Event.willFetchChanges,
      .fetchedDatabaseChanges(.init(modifications: [], deletions: [])), .didFetchChanges,
    ] {
      replica.handleEvent(event, syncEngine: &state)
    }
    #expect(Self.batch(&replica, &state)?.recordIDsToDelete == [note.recordID])
  }

  @Test("a new note deleted before it was ever handed to the engine is deleted here only")
  func unsentNoteIsDeletedLocally() throws {
    var replica = try Self.replica()
    var state = SyncEngine.State()
    let note = try Self.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    try replica.delete(note.recordID, at: Date(timeIntervalSince1970: 11), syncEngine: &state)
    #expect(state.pendingRecordZoneChanges.isEmpty)
    #expect(replica.store.isEmpty)
  }

  @Test("a new note handed out whose answer was lost is deleted on the server when the user deletes it")
  func noteInDoubtIsDeletedOnTheServer() throws {
    var replica = try Self.replica()
    var state = SyncEngine.State()
    let note = try Self.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    #expect(Self.batch(&replica, &state)?.recordsToSave.map(\.recordID) == [note.recordID])
    let lost = SyncEngine.FailedRecordSave(record: note, error: CloudKitError(code: .networkFailure))
    replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [], failedRecordSaves: [lost])), syncEngine: &state)
    try replica.delete(note.recordID, at: Date(timeIntervalSince1970: 20), syncEngine: &state)
    #expect(state.pendingRecordZoneChanges.contains(.deleteRecord(note.recordID)), "the save may have landed")
  }

  @Test("a fetched version merges over the last server version: the server's new key and the local edit both stay")
  func fetchedVersionMergesOverTheAncestor() throws {
    var replica = try Self.replica()
    var state = SyncEngine.State()
    let note = try Self.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = Self.batch(&replica, &state)
    let first = Self.saved(note, tag: "t1")
    replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [first])), syncEngine: &state)
    try replica.edit(
      note.recordID, setting: ["title": .string("oat milk")], at: Date(timeIntervalSince1970: 20),
      syncEngine: &state)
    var server = first
    server["body"] = .string("2 litres")
    server.recordChangeTag = "t2"
    server.clearChangedKeys()
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [server], deletions: [])), syncEngine: &state)
    let merged = try #require(replica.store[note.recordID])
    #expect(merged["title"] == .string("oat milk") && merged["body"] == .string("2 litres"))
    #expect(merged.recordChangeTag == "t2", "the merge is saved next on the server's tag")
    #expect(state.pendingRecordZoneChanges.contains(.saveRecord(note.recordID)))
  }

  @Test("an action that cannot apply throws an error naming the note and changes nothing")
  func refusedActionsChangeNothing() throws {
    var replica = try Self.replica()
    var state = SyncEngine.State()
    let id = try RecordID(recordName: "missing", zoneID: Self.zone())
    #expect(throws: ReplicaError.recordNotFound(id)) {
      try replica.edit(id, setting: ["title": .string("x")], at: Date(), syncEngine: &state)
    }
    #expect(throws: ReplicaError.recordNotFound(id)) { try replica.delete(id, at: Date(), syncEngine: &state) }
    #expect(state.pendingRecordZoneChanges.isEmpty && replica.store.isEmpty)
    #expect(ReplicaError.recordNotFound(id).description.contains("missing"))
  }

  @Test("the metadata and a dictionary store read back equal from JSON")
  func metadataRoundTrips() throws {
    var replica = try Self.replica()
    var state = SyncEngine.State()
    let note = try Self.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = Self.batch(&replica, &state)
    let metadata = try JSONDecoder().decode(ReplicaMetadata.self, from: JSONEncoder().encode(replica.metadata))
    let store = try JSONDecoder().decode(DictionaryReplicaStore.self, from: JSONEncoder().encode(replica.store))
    #expect(metadata == replica.metadata)
    #expect(store == replica.store)
  }
}

@Suite("ZoneReplica: zones that go without a word")
struct ZoneReplicaListingTests {
  @Test("after a forced resync, a database listing that leaves out the zone drops what the server had")
  func listingWithoutTheZoneDropsAcknowledgedNotes() throws {
    var replica = try ZoneReplicaTests.replica()
    var state = SyncEngine.State()
    let zone = try ZoneReplicaTests.zone()
    let note = try ZoneReplicaTests.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    replica.handleEvent(.sentDatabaseChanges(.init(savedZones: [zone])), syncEngine: &state)
    _ = ZoneReplicaTests.batch(&replica, &state)
    replica.handleEvent(
      .sentRecordZoneChanges(.init(savedRecords: [ZoneReplicaTests.saved(note, tag: "t1")])), syncEngine: &state)
    // An incremental fetch that does not name the zone says only that nothing changed in it.
    replica.handleEvent(.fetchedDatabaseChanges(.init(modifications: [zone], deletions: [])), syncEngine: &state)
    replica.handleEvent(.fetchedDatabaseChanges(.init(modifications: [], deletions: [])), syncEngine: &state)
    #expect(replica.store[note.recordID] != nil)
    var fresh = SyncEngine.State()
    replica.resetSync(replacing: state, syncEngine: &fresh)
    replica.handleEvent(.willFetchChanges, syncEngine: &fresh)
    replica.handleEvent(.fetchedDatabaseChanges(.init(modifications: [], deletions: [])), syncEngine: &fresh)
    #expect(replica.store[note.recordID] == nil, "the listing names every zone there is; this one is gone")
  }
}

@Suite("ZoneReplica: pending work and launches")
struct ZoneReplicaPendingWorkTests {
  @Test("pending work shows unsent saves, saves in doubt and deletions waiting for a fetch")
  func pendingWorkShowsWhatIsLeft() throws {
    var replica = try ZoneReplicaTests.replica()
    var state = SyncEngine.State()
    #expect(replica.pendingWork(in: state).isEmpty)
    let kept = try ZoneReplicaTests.note("kept", title: "milk")
    let doubtful = try ZoneReplicaTests.note("doubtful", title: "eggs")
    try replica.create(kept, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    try replica.create(doubtful, at: Date(timeIntervalSince1970: 11), syncEngine: &state)
    #expect(replica.pendingWork(in: state).unsentSaves == [doubtful.recordID, kept.recordID])
    _ = ZoneReplicaTests.batch(&replica, &state)
    let lost = SyncEngine.FailedRecordSave(record: doubtful, error: CloudKitError(code: .networkFailure))
    replica.handleEvent(
      .sentRecordZoneChanges(.init(savedRecords: [ZoneReplicaTests.saved(kept, tag: "t1")], failedRecordSaves: [lost])),
      syncEngine: &state)
    try replica.delete(kept.recordID, at: Date(timeIntervalSince1970: 20), syncEngine: &state)
    let work = replica.pendingWork(in: state)
    #expect(work.savesInDoubt == [doubtful.recordID])
    #expect(work.unsentDeletions == [kept.recordID])
    #expect(work.deletionsAwaitingFetch == [kept.recordID])
    #expect(!work.isEmpty)
  }

  @Test("at launch, what the store holds unsent is pending again, though the engine's state from before lacks it")
  func launchRequeuesUnsentChanges() throws {
    var replica = try ZoneReplicaTests.replica()
    var state = SyncEngine.State()
    let note = try ZoneReplicaTests.note("n1", title: "milk")
    let before = state.serialization  // the engine's last state update, before the note was added
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    // The app crashes before the engine's next state update: it relaunches from its store and that older state.
    var relaunched = ZoneReplica(
      configuration: replica.configuration, store: replica.store, metadata: replica.metadata)
    var restored = SyncEngine.State(before)
    relaunched.handleEvent(.willFetchChanges, syncEngine: &restored)
    #expect(restored.pendingRecordZoneChanges == [.saveRecord(note.recordID)])
    #expect(restored.pendingDatabaseChanges == [.saveZone(try ZoneReplicaTests.zone())])
  }

  @Test("a launch that opens on an account switch re-adds nothing of the previous account")
  func accountSwitchAtLaunchRequeuesNothing() throws {
    var replica = try ZoneReplicaTests.replica()
    var state = SyncEngine.State()
    try replica.create(try ZoneReplicaTests.note("n1", title: "milk"), at: Date(), syncEngine: &state)
    var relaunched = ZoneReplica(
      configuration: replica.configuration, store: replica.store, metadata: replica.metadata)
    var fresh = SyncEngine.State()
    relaunched.handleEvent(
      .accountChange(.switchAccounts(previousUser: "_user", currentUser: "_other")), syncEngine: &fresh)
    #expect(fresh.pendingRecordZoneChanges.isEmpty)
    #expect(relaunched.store.isEmpty)
    #expect(relaunched.discarded.first?.records.count == 1, "the previous account's note is handed to the app first")
  }
}
