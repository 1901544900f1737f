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

  /// The user creates n1 ("milk"), and its save is answered as `t1`; returns the note as created.
  static func createdAndSaved(_ replica: inout ZoneReplica<DictionaryReplicaStore>, _ state: inout SyncEngine.State)
    throws -> Record
  {
    let note = try Self.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = Self.batch(&replica, &state)
    replica.handleEvent(
      .sentRecordZoneChanges(.init(savedRecords: [Self.saved(note, tag: "t1")])), syncEngine: &state)
    return note
  }

  @Test("a deletion of a note the server has waits for a fetch that starts after it, then is sent")
  func deletionWaitsForAFetch() throws {
    var replica = try Self.replica()
    var state = SyncEngine.State()
    let note = try Self.createdAndSaved(&replica, &state)
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

  /// A note created, saved as `t1` (`first`), then edited here ("oat milk"): the edit is unsent.
  static func savedThenEdited(_ policy: DeletePolicy = .deleteWins) throws -> (
    ZoneReplica<DictionaryReplicaStore>, SyncEngine.State, note: Record, first: Record
  ) {
    var replica = try Self.replica(policy)
    var state = SyncEngine.State()
    let note = try Self.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = Self.batch(&replica, &state)
    let first = Self.saved(note, tag: "t1")
    replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [first])), syncEngine: &state)
    try replica.edit(
      note.recordID, setting: ["title": .string("oat milk")], at: Date(timeIntervalSince1970: 20),
      syncEngine: &state)
    return (replica, state, note, first)
  }

  /// `version` as another device saved it since: a body added, at `t2`.
  static func editedElsewhere(_ version: Record) -> Record {
    var server = version
    server["body"] = .string("2 litres")
    server.recordChangeTag = "t2"
    server.clearChangedKeys()
    return server
  }

  @Test("a fetched version merges over the last server version: the server's new key and the local edit both stay")
  func fetchedVersionMergesOverTheAncestor() throws {
    var (replica, state, note, first) = try Self.savedThenEdited()
    let server = Self.editedElsewhere(first)
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [server], deletions: [])), syncEngine: &state)
    let merged = try #require(replica.store[note.recordID])
    #expect(merged["title"] == .string("oat milk") && merged["body"] == .string("2 litres"))
    #expect(merged.recordChangeTag == "t2", "the merge is saved next on the server's tag")
    #expect(state.pendingRecordZoneChanges.contains(.saveRecord(note.recordID)))
  }

  @Test(
    "a conflict refused without the server's record keeps the change pending, held until a fetch brings that version")
  func conflictWithoutServerRecordWaitsForAFetch() throws {
    var (replica, state, note, first) = try Self.savedThenEdited()
    let sent = try #require(Self.batch(&replica, &state)?.recordsToSave.first)
    // The engine removes what it sent; CloudKit refuses it, and its error lacks the server's record.
    state.remove(pendingRecordZoneChanges: [.saveRecord(note.recordID)])
    let refusal = SyncEngine.FailedRecordSave(record: sent, error: CloudKitError(code: .serverRecordChanged))
    replica.handleEvent(
      .sentRecordZoneChanges(.init(savedRecords: [], failedRecordSaves: [refusal])), syncEngine: &state)
    #expect(replica.store[note.recordID]?["title"] == .string("oat milk"), "the user's edit stays")
    #expect(state.pendingRecordZoneChanges.contains(.saveRecord(note.recordID)), "and stays pending")
    #expect(Self.batch(&replica, &state) == nil, "sent again before a fetch, it would only be refused again")
    #expect(replica.pendingWork(in: state).savesAwaitingFetch == [note.recordID])

    let server = Self.editedElsewhere(first)
    replica.handleEvent(.willFetchChanges, syncEngine: &state)
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [server], deletions: [])), syncEngine: &state)
    replica.handleEvent(.didFetchRecordZoneChanges(try Self.zone(), error: nil), syncEngine: &state)
    let merged = try #require(Self.batch(&replica, &state)?.recordsToSave.first)
    #expect(merged["title"] == .string("oat milk") && merged["body"] == .string("2 litres"))
    #expect(merged.recordChangeTag == "t2", "sent on the version that refused it")
  }

  @Test(
    "a deletion of a stale copy spares the record created anew under its ID, whether the feed had decided yet or not",
    arguments: [true, false])
  func deletionOfStaleCopySparesRecordCreatedAnew(deletedAfterTheFeed: Bool) throws {
    var (replica, state, note, _) = try Self.savedThenEdited()
    // Another device deleted the note and created a new one under its ID: another creation date.
    let anew = Self.saved(try Self.note("n1", title: "bread"), tag: "t9", created: Date(timeIntervalSince1970: 30))
    replica.handleEvent(.willFetchChanges, syncEngine: &state)
    replica.handleEvent(
      .fetchedDatabaseChanges(.init(modifications: [try Self.zone()], deletions: [])), syncEngine: &state)
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [anew], deletions: [])), syncEngine: &state)
    replica.handleEvent(.didFetchRecordZoneChanges(try Self.zone(), error: nil), syncEngine: &state)
    #expect(replica.store[note.recordID]?["title"] == .string("oat milk"), "undecided: the edited copy stays")
    if deletedAfterTheFeed { replica.handleEvent(.didFetchChanges, syncEngine: &state) }
    try replica.delete(note.recordID, at: Date(timeIntervalSince1970: 40), syncEngine: &state)
    if !deletedAfterTheFeed { replica.handleEvent(.didFetchChanges, syncEngine: &state) }
    // The next fetch finds nothing changed; the deletion, which carries no change tag, must not go.
    for event in [
      SyncEngine.Event.willFetchChanges, .fetchedDatabaseChanges(.init(modifications: [], deletions: [])),
      .didFetchChanges,
    ] {
      replica.handleEvent(event, syncEngine: &state)
    }
    #expect(replica.store[note.recordID] == anew, "the record created anew is shown")
    #expect(!state.pendingRecordZoneChanges.contains(.deleteRecord(note.recordID)))
    #expect(Self.batch(&replica, &state) == nil)
  }

  @Test(
    "a save whose answer was lost landed: its value, fetched, is this device's own, so the edit made since wins",
    arguments: [true, false])
  func ownUnansweredSaveIsNotAnotherDevicesChange(answerLost: Bool) throws {
    var (replica, state, note, first) = try Self.savedThenEdited()
    // "oat milk" goes out; its answer is lost (it landed), or the server refuses it (it did not).
    let sent = try #require(Self.batch(&replica, &state)?.recordsToSave.first)
    let error = CloudKitError(code: answerLost ? .networkFailure : .serverRecordChanged)
    replica.handleEvent(
      .sentRecordZoneChanges(
        .init(savedRecords: [], failedRecordSaves: [SyncEngine.FailedRecordSave(record: sent, error: error)])),
      syncEngine: &state)
    try replica.edit(
      note.recordID, setting: ["title": .string("soy milk")], at: Date(timeIntervalSince1970: 30), syncEngine: &state)
    // The server holds "oat milk": this device's landed save, or (after a refusal) another device's equal write —
    // equal values agree, so either way only this device changed the title since.
    var server = first
    server["title"] = .string("oat milk")
    server.recordChangeTag = "t2"
    server.clearChangedKeys()
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [server], deletions: [])), syncEngine: &state)
    let merged = try #require(replica.store[note.recordID])
    #expect(merged["title"] == .string("soy milk"), "this device's latest edit stands")
  }

  @Test(
    "a counter equal to a refused save's is another device's increment: both count; one whose answer was lost is its own",
    arguments: [true, false])
  func counterEqualToARefusedSaveCountsTwice(refused: Bool) throws {
    var replica = ZoneReplica(
      configuration: ReplicaConfiguration(
        zoneID: try Self.zone(), deviceName: "phone", resolver: FieldMerge(overrides: ["plays": .counter])),
      store: DictionaryReplicaStore())
    var state = SyncEngine.State()
    var note = try Self.note("n1", title: "song")
    note["plays"] = .int64(0)
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = Self.batch(&replica, &state)
    let first = Self.saved(note, tag: "t1")
    replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [first])), syncEngine: &state)
    try replica.edit(
      note.recordID, setting: ["plays": .int64(1)], at: Date(timeIntervalSince1970: 20), syncEngine: &state)
    let sent = try #require(Self.batch(&replica, &state)?.recordsToSave.first)
    let error = CloudKitError(code: refused ? .serverRecordChanged : .networkFailure)
    replica.handleEvent(
      .sentRecordZoneChanges(
        .init(savedRecords: [], failedRecordSaves: [SyncEngine.FailedRecordSave(record: sent, error: error)])),
      syncEngine: &state)
    // The server holds 1: another device's increment (the refused save did not land), or this device's own.
    var server = first
    server["plays"] = .int64(1)
    server.recordChangeTag = "t2"
    server.modifiedByDevice = "mac"
    server.clearChangedKeys()
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [server], deletions: [])), syncEngine: &state)
    #expect(replica.store[note.recordID]?["plays"] == .int64(refused ? 2 : 1))
  }

  @Test("an unreadable copy goes with its unsent values; the app refetches only when the server may hold the note")
  func unreadableCopyGoes() throws {
    var replica = try Self.replica()
    var state = SyncEngine.State()
    let draft = try Self.note("n1", title: "draft")
    try replica.create(draft, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    #expect(!replica.discardUnreadable(draft.recordID, syncEngine: &state), "never handed out: nothing to refetch")
    #expect(replica.store.isEmpty && state.pendingRecordZoneChanges.isEmpty)
    let sent = try Self.note("n2", title: "milk")
    try replica.create(sent, at: Date(timeIntervalSince1970: 11), syncEngine: &state)
    _ = Self.batch(&replica, &state)
    #expect(replica.discardUnreadable(sent.recordID, syncEngine: &state), "its save may land: refetch")
    #expect(replica.store.isEmpty && state.pendingRecordZoneChanges.isEmpty)
  }

  @Test(
    "a note whose copy went unreadable is still the server's: a copy made and deleted before the refetch deletes it",
    arguments: [false, true])
  func deletionBeforeRefetchReachesTheServer(answeredBeforeDamage: Bool) throws {
    var replica = try Self.replica()
    var state = SyncEngine.State()
    let note = try Self.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = Self.batch(&replica, &state)
    var landed = Self.saved(note, tag: "t1")
    landed.modifiedByDevice = "phone"
    // The stored copy goes unreadable after its save was answered, or while it was in flight.
    let saved = SyncEngine.Event.sentRecordZoneChanges(.init(savedRecords: [landed]))
    if answeredBeforeDamage { replica.handleEvent(saved, syncEngine: &state) }
    #expect(replica.discardUnreadable(note.recordID, syncEngine: &state), "the server holds it: refetch")
    if !answeredBeforeDamage { replica.handleEvent(saved, syncEngine: &state) }
    // Before the refetch, the user makes the note again and deletes it.
    try replica.create(try Self.note("n1", title: "again"), at: Date(timeIntervalSince1970: 20), syncEngine: &state)
    try replica.delete(note.recordID, at: Date(timeIntervalSince1970: 21), syncEngine: &state)
    #expect(state.pendingRecordZoneChanges == [.deleteRecord(note.recordID)], "the deletion is owed to the server")
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [landed], deletions: [])), syncEngine: &state)
    #expect(replica.store[note.recordID] == nil, "the user's last word on n1 is its deletion")
    #expect(state.pendingRecordZoneChanges.contains(.deleteRecord(note.recordID)))
  }

  /// A replica whose note n1 ("milk") the server acknowledged as t1, and whose stored copy then went unreadable.
  static func acknowledgedThenDiscarded() throws -> (ZoneReplica<DictionaryReplicaStore>, SyncEngine.State, Record) {
    var replica = try Self.replica()
    var state = SyncEngine.State()
    let note = try Self.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = Self.batch(&replica, &state)
    replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [Self.saved(note, tag: "t1")])), syncEngine: &state)
    replica.discardUnreadable(note.recordID, syncEngine: &state)
    return (replica, state, note)
  }

  /// The user makes n1 ("again") anew; its save lands as t2, a record created at 20 s.
  static func madeAnewAndSaved(
    _ replica: inout ZoneReplica<DictionaryReplicaStore>, _ state: inout SyncEngine.State
  ) throws -> Record {
    let again = try Self.note("n1", title: "again")
    try replica.create(again, at: Date(timeIntervalSince1970: 20), syncEngine: &state)
    _ = Self.batch(&replica, &state)
    var second = Self.saved(again, tag: "t2", created: Date(timeIntervalSince1970: 20))
    second.modifiedByDevice = "phone"
    replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [second])), syncEngine: &state)
    return second
  }

  @Test(
    "a server version left unmerged is forgotten when the server deletes the note: a later deletion is of the new one")
  func heldBackVersionGoesWithTheServersDeletion() throws {
    var (replica, state, note) = try Self.acknowledgedThenDiscarded()
    // Another device deletes n1; this one makes n1 anew, saves it, and deletes it.
    replica.handleEvent(
      .fetchedRecordZoneChanges(
        .init(modifications: [], deletions: [.init(recordID: note.recordID, recordType: "Note")])),
      syncEngine: &state)
    let second = try Self.madeAnewAndSaved(&replica, &state)
    try replica.delete(note.recordID, at: Date(timeIntervalSince1970: 21), syncEngine: &state)
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [second], deletions: [])), syncEngine: &state)
    #expect(replica.store[note.recordID] == nil, "the deletion is of the note made anew, which the server holds")
    #expect(state.pendingRecordZoneChanges.contains(.deleteRecord(note.recordID)))
  }

  @Test(
    "a version held back is forgotten once this device's own copy is acknowledged: a later deletion is of that copy")
  func heldBackVersionGoesWhenTheCopyIsSaved() throws {
    var (replica, state, note) = try Self.acknowledgedThenDiscarded()
    // Unheard of here, the server lost n1 (its zone went and came back); the note made anew lands as a new record.
    let second = try Self.madeAnewAndSaved(&replica, &state)
    try replica.delete(note.recordID, at: Date(timeIntervalSince1970: 21), syncEngine: &state)
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [second], deletions: [])), syncEngine: &state)
    #expect(replica.store[note.recordID] == nil, "the deletion is of the copy the server acknowledged last")
    #expect(state.pendingRecordZoneChanges.contains(.deleteRecord(note.recordID)))
  }

  @Test(
    "a version held back that a listing from the beginning leaves out is gone: a copy made and deleted sends nothing")
  func heldBackVersionGoesWithTheListing() throws {
    var (replica, state, note) = try Self.acknowledgedThenDiscarded()
    // The refetch lists the zone from its beginning: n1 is not there any more.
    replica.zoneWillBeListedFromBeginning()
    let zone = try Self.zone()
    replica.handleEvent(.willFetchRecordZoneChanges(zone), syncEngine: &state)
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [], deletions: [])), syncEngine: &state)
    replica.handleEvent(.didFetchRecordZoneChanges(zone, error: nil), syncEngine: &state)
    try replica.create(try Self.note("n1", title: "draft"), at: Date(timeIntervalSince1970: 20), syncEngine: &state)
    try replica.delete(note.recordID, at: Date(timeIntervalSince1970: 21), syncEngine: &state)
    #expect(state.pendingRecordZoneChanges.isEmpty, "the server holds no n1: nothing to delete")
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

  @Test("metadata persisted by 0.29, before saves could wait for a fetch, still decodes")
  func metadataFromTheLastReleaseDecodes() throws {
    var replica = try Self.replica()
    var state = SyncEngine.State()
    try replica.create(try Self.note("n1", title: "milk"), at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    // 0.29 wrote every key but the one added since; nothing waits, so this release writes none either.
    let json = try JSONEncoder().encode(replica.metadata)
    let keys = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any]).keys
    #expect(!keys.contains { $0.localizedCaseInsensitiveContains("serverRecord") })
    let decoded = try JSONDecoder().decode(ReplicaMetadata.self, from: json)
    #expect(decoded == replica.metadata)
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

  /// Run again without the rule (the zoo's `forget-queue-on-crash`), the same checks see the change lost: seeded runs
  /// reach this crash too rarely to hold the rule in place, so this test does.
  @Test(
    "at launch, what the store holds unsent is pending again, though the engine's state from before lacks it",
    arguments: [false, true])
  func launchRequeuesUnsentChanges(withoutTheRule: Bool) throws {
    var replica = try ZoneReplicaTests.replica()
    if withoutTheRule { replica.configuration.flaws = [.forgetQueueOnCrash] }
    var state = SyncEngine.State()
    let note = try ZoneReplicaTests.note("n1", title: "milk")
    let before = state.serialization  // the engine's last state update, before the note was added
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    // The app crashes before the engine's next state update: it relaunches from its store and that older state.
    var relaunched = ZoneReplica(
      configuration: replica.configuration, store: replica.store, metadata: replica.metadata)
    var restored = SyncEngine.State(before)
    relaunched.handleEvent(.willFetchChanges, syncEngine: &restored)
    let zone = try ZoneReplicaTests.zone()
    let requeued =
      restored.pendingRecordZoneChanges == [.saveRecord(note.recordID)]
      && restored.pendingDatabaseChanges == [.saveZone(zone)]
    #expect(requeued != withoutTheRule, "pending after launch: \(restored.pendingRecordZoneChanges)")
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

@Suite("ZoneReplica: account changes by policy")
struct ZoneReplicaAccountTests {
  /// A replica under `policy` holding one note the server confirmed for account `_user`.
  static func replica(_ policy: AccountChangePolicy) throws -> (ZoneReplica<DictionaryReplicaStore>, Record) {
    var replica = ZoneReplica(
      configuration: ReplicaConfiguration(
        zoneID: try ZoneReplicaTests.zone(), deviceName: "phone", resolver: FieldMerge(), accountChange: policy),
      store: DictionaryReplicaStore())
    var state = SyncEngine.State()
    replica.handleEvent(.accountChange(.signIn(currentUser: "_user")), syncEngine: &state)
    let note = try ZoneReplicaTests.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = ZoneReplicaTests.batch(&replica, &state)
    let saved = ZoneReplicaTests.saved(note, tag: "t1")
    replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [saved])), syncEngine: &state)
    return (replica, saved)
  }

  static let switched = SyncEngine.AccountChange.switchAccounts(previousUser: "_user", currentUser: "_other")

  @Test("a note created and deleted while signed out leaves nothing to delete when the account's note of its ID comes")
  func deletionWhileSignedOutSparesTheAccountsNote() throws {
    var (replica, saved) = try Self.replica(.deleteLocalData)
    var state = SyncEngine.State()
    replica.handleEvent(.accountChange(.signOut(previousUser: "_user")), syncEngine: &state)
    // Signed out, the user makes a note under the same ID and deletes it: no save of it can leave the device.
    let draft = try ZoneReplicaTests.note("n1", title: "draft")
    try replica.create(draft, at: Date(timeIntervalSince1970: 20), syncEngine: &state)
    try replica.delete(draft.recordID, at: Date(timeIntervalSince1970: 21), syncEngine: &state)
    replica.handleEvent(.accountChange(.signIn(currentUser: "_user")), syncEngine: &state)
    // The account's note, saved by this device before its data was deleted at the sign-out, comes back.
    var earlier = saved
    earlier.modifiedByDevice = "phone"
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [earlier], deletions: [])), syncEngine: &state)
    #expect(replica.store[saved.recordID]?["title"] == .string("milk"), "the account's note is another record: shown")
    #expect(!state.pendingRecordZoneChanges.contains(.deleteRecord(saved.recordID)), "and never deleted")
  }

  @Test("ask: a switch pauses syncing and keeps every record; nothing fetched for the new account reaches the store")
  func askPauses() throws {
    var (replica, note) = try Self.replica(.ask)
    var state = SyncEngine.State()
    replica.handleEvent(.accountChange(Self.switched), syncEngine: &state)
    #expect(replica.halt == .accountChanged(Self.switched))
    #expect(replica.store[note.recordID] == note)
    var theirs = try ZoneReplicaTests.note("other", title: "theirs")
    theirs = ZoneReplicaTests.saved(theirs, tag: "x1")
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [theirs], deletions: [])), syncEngine: &state)
    #expect(replica.store[theirs.recordID] == nil, "the new account's record does not mix with the old one's")
    try replica.edit(note.recordID, setting: ["title": .string("oat milk")], at: Date(), syncEngine: &state)
    #expect(ZoneReplicaTests.batch(&replica, &state) == nil, "nothing is sent while the question is open")
    #expect(replica.pendingWork(in: state).halt == .accountChanged(Self.switched))
  }

  @Test("ask, answered keep: every record is uploaded to the new account as new, and syncing resumes")
  func askAnsweredKeep() throws {
    var (replica, note) = try Self.replica(.ask)
    var state = SyncEngine.State()
    replica.handleEvent(.accountChange(Self.switched), syncEngine: &state)
    #expect(replica.resolveAccountChange(keepingData: true, syncEngine: &state))
    #expect(replica.halt == nil)
    #expect(replica.store[note.recordID]?.recordChangeTag == nil, "a new record in the new account")
    #expect(state.pendingRecordZoneChanges == [.saveRecord(note.recordID)])
    #expect(ZoneReplicaTests.batch(&replica, &state)?.recordsToSave.map(\.recordID) == [note.recordID])
    #expect(!replica.resolveAccountChange(keepingData: true, syncEngine: &state), "no question is open any more")
  }

  @Test("ask, answered delete: the records go, handed to the app first, and nothing is sent to the new account")
  func askAnsweredDelete() throws {
    var (replica, note) = try Self.replica(.ask)
    var state = SyncEngine.State()
    replica.handleEvent(.accountChange(Self.switched), syncEngine: &state)
    #expect(replica.resolveAccountChange(keepingData: false, syncEngine: &state))
    #expect(replica.store.isEmpty)
    #expect(replica.discarded.last?.records.map(\.recordID) == [note.recordID])
    #expect(state.pendingRecordZoneChanges.isEmpty)
  }

  @Test("ask: switching back to the records' own account before answering resumes syncing with nothing lost")
  func askSwitchBack() throws {
    var (replica, note) = try Self.replica(.ask)
    var state = SyncEngine.State()
    replica.handleEvent(.accountChange(Self.switched), syncEngine: &state)
    try replica.edit(note.recordID, setting: ["title": .string("oat milk")], at: Date(), syncEngine: &state)
    var back = SyncEngine.State()
    replica.handleEvent(
      .accountChange(.switchAccounts(previousUser: "_other", currentUser: "_user")), syncEngine: &back)
    #expect(replica.halt == nil)
    #expect(replica.store[note.recordID]?.recordChangeTag == "t1", "still the account's own record")
    #expect(back.pendingRecordZoneChanges == [.saveRecord(note.recordID)], "the unsent edit is pending again")
  }

  @Test("keep for the same account: a sign-out keeps, the same account's return syncs, another account's deletes")
  func keepForSameAccount() throws {
    var (replica, note) = try Self.replica(.keepForSameAccount)
    var state = SyncEngine.State()
    replica.handleEvent(.accountChange(.signOut(previousUser: "_user")), syncEngine: &state)
    #expect(replica.store[note.recordID] == note)
    replica.handleEvent(.accountChange(.signIn(currentUser: "_user")), syncEngine: &state)
    #expect(replica.store[note.recordID] == note)
    replica.handleEvent(.accountChange(.signOut(previousUser: "_user")), syncEngine: &state)
    replica.handleEvent(.accountChange(.signIn(currentUser: "_other")), syncEngine: &state)
    #expect(replica.store.isEmpty, "another account's sign-in takes the previous account's records")
    #expect(replica.discarded.count == 1)
  }

  @Test("delete local data: a switch takes the previous account's records")
  func deleteLocalData() throws {
    var (replica, _) = try Self.replica(.deleteLocalData)
    var state = SyncEngine.State()
    replica.handleEvent(.accountChange(Self.switched), syncEngine: &state)
    #expect(replica.store.isEmpty && replica.halt == nil)
  }
}

extension Record {
  /// A copy with `title` set.
  fileprivate func withTitle(_ title: String) -> Record {
    var copy = self
    copy["title"] = .string(title)
    return copy
  }
}
