import Foundation
import Reconcile
import Testing

/// A stand-in for `CKSyncEngine.State`: keeps pending changes as CloudKit documents and logs every call.
final class FakeEngineState: SyncEngineStateBridging {
  var records: [SyncEngine.PendingRecordZoneChange] = []
  var zones: [SyncEngine.PendingDatabaseChange] = []
  var calls: [String] = []

  var bridgedPendingRecordZoneChanges: [SyncEngine.PendingRecordZoneChange] { records }
  var bridgedPendingDatabaseChanges: [SyncEngine.PendingDatabaseChange] { zones }
  func addBridged(pendingRecordZoneChanges changes: [SyncEngine.PendingRecordZoneChange]) {
    calls.append("add \(changes)")
    for change in changes where !records.contains(change) { records.append(change) }
  }
  func removeBridged(pendingRecordZoneChanges changes: [SyncEngine.PendingRecordZoneChange]) {
    calls.append("remove \(changes)")
    records.removeAll { changes.contains($0) }
  }
  func addBridged(pendingDatabaseChanges changes: [SyncEngine.PendingDatabaseChange]) {
    calls.append("add zones \(changes.map(\.zoneID.zoneName))")
    for change in changes where !zones.contains(change) { zones.append(change) }
  }
  func removeBridged(pendingDatabaseChanges changes: [SyncEngine.PendingDatabaseChange]) {
    calls.append("remove zones \(changes.map(\.zoneID.zoneName))")
    zones.removeAll { changes.contains($0) }
  }
}

/// Keeps what it is handed; re-adds a save that failed with a conflict, and drops the save of a record it no longer
/// has when building a batch.
struct KeepingDelegate: SyncEngineDelegate {
  var records: [RecordID: Record] = [:]
  var events: [SyncEngine.Event] = []
  var saved: SyncEngine.StateSerialization?

  mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    events.append(event)
    switch event {
    case .stateUpdate(let serialization): saved = serialization
    case .fetchedRecordZoneChanges(let changes):
      for record in changes.modifications { records[record.recordID] = record }
    case .sentRecordZoneChanges(let sent):
      for failure in sent.failedRecordSaves where failure.error.code == .serverRecordChanged {
        syncEngine.add(pendingRecordZoneChanges: [.saveRecord(failure.record.recordID)])
      }
    default: break
    }
  }

  mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? {
    let orphans = syncEngine.pendingRecordZoneChanges.filter {
      if case .saveRecord(let id) = $0 { return records[id] == nil }
      return false
    }
    syncEngine.remove(pendingRecordZoneChanges: orphans)
    return SyncEngine.RecordZoneChangeBatch(pendingChanges: syncEngine.pendingRecordZoneChanges) { records[$0] }
  }
}

struct Boom: Error {}

@Suite(
  "Sync engine host: a delegate runs against an engine that keeps its own state (the CKSyncEngine adapter's logic)")
struct SyncEngineDelegateHostTests {
  let zone = try! ZoneID(zoneName: "Notes")
  func id(_ name: String) throws -> RecordID { try RecordID(recordName: name, zoneID: zone) }

  @Test("the delegate's adds and removes are replayed onto the engine in the order it made them")
  func replaysEditsInOrder() throws {
    let engine = FakeEngineState()
    let a = try id("a")
    let b = try id("b")
    engine.records = [.saveRecord(a)]
    let host = SyncEngineDelegateHost(KeepingDelegate())
    host.perform(on: engine) { _, state in
      #expect(state.pendingRecordZoneChanges == [.saveRecord(a)])
      state.add(pendingRecordZoneChanges: [.saveRecord(b)])
      state.remove(pendingRecordZoneChanges: [.saveRecord(a)])
      state.add(pendingDatabaseChanges: [.saveZone(zone)])
    }
    #expect(
      engine.calls == ["add [save b]", "remove [save a]", "add zones [\"Notes\"]"])
    #expect(engine.records == [.saveRecord(b)])
    #expect(engine.zones == [.saveZone(zone)])
  }

  @Test("edits made before the body throws still reach the engine; nothing is replayed twice")
  func replaysWhenTheBodyThrows() throws {
    let engine = FakeEngineState()
    let host = SyncEngineDelegateHost(KeepingDelegate())
    let a = try id("a")
    #expect(throws: Boom.self) {
      try host.perform(on: engine) { _, state in
        state.add(pendingRecordZoneChanges: [.saveRecord(a)])
        throw Boom()
      }
    }
    #expect(engine.calls == ["add [save a]"])
    host.perform(on: engine) { _, _ in }
    #expect(engine.calls == ["add [save a]"])
  }

  @Test("a batch is built from the engine's pending changes; a save of a record the app no longer has is removed")
  func batchFromEnginePendingChanges() throws {
    let engine = FakeEngineState()
    let a = try id("a")
    let gone = try id("gone")
    engine.records = [.saveRecord(gone), .saveRecord(a), .deleteRecord(try id("c"))]
    var delegate = KeepingDelegate()
    delegate.records[a] = Record(recordType: "Note", recordID: a)
    let host = SyncEngineDelegateHost(delegate)
    let batch = host.nextBatch(SyncEngine.SendChangesContext(reason: .scheduled), on: engine)
    #expect(batch?.recordsToSave.map(\.recordID) == [a])
    #expect(batch?.recordIDsToDelete.map(\.recordName) == ["c"])
    #expect(engine.calls == ["remove [save gone]"])
  }

  @Test("fetched records convert; one CloudKit holds that Reconcile cannot is left out, kept and reported")
  func fetchedRecordsConvertOrAreKept() throws {
    let good = FakeCKRecord(type: "Note", name: "good")
    good.plain["title"] = .string("Hi")
    good.markFetched(tag: "t1")
    let bad = FakeCKRecord(type: "Note", name: "bad")
    bad.plain["tags"] = .list([.list([.string("nested")])])
    let reported = Reported()
    let host = SyncEngineDelegateHost(KeepingDelegate()) { reported.append($0) }
    let event = host.fetchedRecordZoneChanges(
      modifications: [good, bad],
      deletions: [(("old", "Notes", "__defaultOwner__"), "Note"), (("", "Notes", "x"), "Note")])
    guard case .fetchedRecordZoneChanges(let changes) = event else {
      Issue.record("expected fetched changes, got \(event)")
      return
    }
    #expect(changes.modifications.map(\.recordID.recordName) == ["good"])
    #expect(changes.modifications.first?["title"] == .string("Hi"))
    #expect(changes.modifications.first?.recordChangeTag == "t1")
    #expect(changes.deletions.map(\.recordID.recordName) == ["old"])
    #expect(host.failures.count == 2)
    #expect(reported.all == host.failures)
    #expect("\(host.failures[0])".contains("a fetched record (Note 'bad')"))
    #expect("\(host.failures[1])".contains("a fetched deletion"))
  }

  @Test("a failed save carries its conflict; an error whose record does not convert keeps its code without it")
  func sentChangesCarryConflicts() throws {
    let client = FakeCKRecord(type: "Note", name: "n")
    client.plain["title"] = .string("mine")
    let server = FakeCKRecord(type: "Note", name: "n")
    server.plain["title"] = .string("theirs")
    server.markFetched(tag: "t9")
    let broken = FakeCKRecord(type: "Note", name: "n")
    broken.plain["x"] = .list([.list([])])
    let conflict = FakeCKError(
      bridgedCode: 14, bridgedMessage: "changed", bridgedConflictRecords: (client, nil, server))
    let unreadable = FakeCKError(
      bridgedCode: 14, bridgedRetryAfter: 3, bridgedMessage: "changed", bridgedConflictRecords: (client, nil, broken))
    let host = SyncEngineDelegateHost(KeepingDelegate())
    let event = host.sentRecordZoneChanges(
      savedRecords: [FakeCKRecord](), failedRecordSaves: [(client, conflict), (client, unreadable)],
      deletedRecordIDs: [("d", "Notes", "__defaultOwner__")],
      failedRecordDeletes: [(("e", "Notes", "__defaultOwner__"), FakeCKError(bridgedCode: 11))])
    guard case .sentRecordZoneChanges(let sent) = event else {
      Issue.record("expected sent changes, got \(event)")
      return
    }
    #expect(sent.failedRecordSaves.count == 2)
    #expect(sent.failedRecordSaves[0].error.conflict?.server["title"] == .string("theirs"))
    #expect(sent.failedRecordSaves[0].error.conflict?.server.recordChangeTag == "t9")
    #expect(sent.failedRecordSaves[1].error.code == .serverRecordChanged)
    #expect(sent.failedRecordSaves[1].error.retryAfter == 3)
    #expect(sent.failedRecordSaves[1].error.conflict == nil)
    #expect(sent.deletedRecordIDs.map(\.recordName) == ["d"])
    #expect(sent.failedRecordDeletes[try id("e")]?.code == .unknownItem)
    #expect(host.failures.count == 1)
  }

  @Test("zone results convert by zone ID, failures with their errors")
  func sentDatabaseChangesConvert() throws {
    let host = SyncEngineDelegateHost(KeepingDelegate())
    let event = host.sentDatabaseChanges(
      savedZones: [("Notes", "__defaultOwner__")],
      failedZoneSaves: [(("Other", "__defaultOwner__"), FakeCKError(bridgedCode: 25))],
      deletedZoneIDs: [], failedZoneDeletes: [(("Gone", "__defaultOwner__"), FakeCKError(bridgedCode: 26))])
    guard case .sentDatabaseChanges(let sent) = event else {
      Issue.record("expected zone results, got \(event)")
      return
    }
    #expect(sent.savedZones == [zone])
    #expect(sent.failedZoneSaves[try ZoneID(zoneName: "Other")]?.code == .quotaExceeded)
    #expect(sent.failedZoneDeletes[try ZoneID(zoneName: "Gone")]?.code == .zoneNotFound)
    #expect(host.failures.isEmpty)
  }

  @Test("a state update carries the engine's serialization as bytes and a copy of its pending changes")
  func stateUpdateCarriesEngineBytes() throws {
    struct EngineBytes: Codable, Equatable {
      var token = "abc"
      var counter = 7
    }
    let engine = FakeEngineState()
    engine.records = [.saveRecord(try id("a"))]
    let host = SyncEngineDelegateHost(KeepingDelegate())
    guard case .stateUpdate(let serialization)? = host.stateUpdate(EngineBytes(), of: engine) else {
      Issue.record("expected a state update")
      return
    }
    host.handle(.stateUpdate(serialization), on: engine)
    let persisted = host.read { $0.saved }
    let saved = try #require(persisted)
    #expect(saved.pendingRecordZoneChanges.ordered == engine.records)
    let stored = try JSONEncoder().encode(saved)
    let relaunched = try JSONDecoder().decode(SyncEngine.StateSerialization.self, from: stored)
    #expect(relaunched == saved)
    #expect(try relaunched.engineState?.decode(EngineBytes.self) == EngineBytes())
  }
}

/// Collects reported failures across the host's lock.
final class Reported: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [SyncEngineError] = []
  func append(_ error: SyncEngineError) {
    lock.lock()
    items.append(error)
    lock.unlock()
  }
  var all: [SyncEngineError] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }
}

@Suite("Sync engine state: what the delegate persists")
struct SyncEngineStateTests {
  struct Tokens: Codable, Hashable, Sendable { var sequence: Int }
  struct Other: Codable, Hashable, Sendable { var name: String }

  @Test("an engine state held as a value survives encoding and decodes back as its type")
  func engineStateRoundTrips() throws {
    var serialization = SyncEngine.StateSerialization()
    let zone = try ZoneID(zoneName: "Notes")
    serialization.pendingRecordZoneChanges = [
      .saveRecord(try RecordID(recordName: "a", zoneID: zone)),
      .deleteRecord(try RecordID(recordName: "b", zoneID: zone)),
    ]
    serialization.pendingDatabaseChanges = [.saveZone(zone), .deleteZone(try ZoneID(zoneName: "Old"))]
    serialization.engineState = SyncEngine.EngineState(Tokens(sequence: 41))
    #expect(serialization.engineState?.value(as: Tokens.self) == Tokens(sequence: 41))
    let bytes = try JSONEncoder().encode(serialization)
    let back = try JSONDecoder().decode(SyncEngine.StateSerialization.self, from: bytes)
    #expect(back.pendingRecordZoneChanges == serialization.pendingRecordZoneChanges)
    #expect(back.pendingDatabaseChanges == serialization.pendingDatabaseChanges)
    #expect(back.engineState?.value(as: Tokens.self) == nil)
    #expect(try back.engineState?.decode(Tokens.self) == Tokens(sequence: 41))
  }

  @Test("a zone deletion's reason, kept by an app until it acts on it, decodes back as itself")
  func zoneDeletionReasonRoundTrips() throws {
    let reasons: [SyncEngine.ZoneDeletion.Reason] = [.deleted, .purged, .encryptedDataReset]
    let back = try JSONDecoder().decode(
      [SyncEngine.ZoneDeletion.Reason].self, from: try JSONEncoder().encode(reasons))
    #expect(back == reasons)
  }

  @Test("another engine's state is refused with both types named, in memory and from bytes")
  func anotherEnginesStateIsRefused() throws {
    let state = SyncEngine.EngineState(Tokens(sequence: 1))
    #expect(throws: SyncEngineError.engineStateMismatch(expected: "Other", found: "Tokens")) {
      try state.decode(Other.self)
    }
    let fromBytes = try JSONDecoder().decode(
      SyncEngine.EngineState.self, from: JSONEncoder().encode(SyncEngine.EngineState(Other(name: "x"))))
    do {
      _ = try fromBytes.decode(Tokens.self)
      Issue.record("bytes of another engine's state decoded")
    } catch {
      #expect(error.localizedDescription.contains("expected Tokens, found bytes that do not decode"))
    }
  }

  @Test("a save replaces a pending delete of the same record; adding twice keeps one")
  func pendingChangesStayConsistent() throws {
    let a = try RecordID(recordName: "a", zoneID: ZoneID(zoneName: "Notes"))
    var state = SyncEngine.State()
    state.add(pendingRecordZoneChanges: [.deleteRecord(a)])
    state.add(pendingRecordZoneChanges: [.saveRecord(a), .saveRecord(a)])
    #expect(state.pendingRecordZoneChanges == [.saveRecord(a)])
  }

  @Test("pending changes keep their order through adds, replacements and removes, and persist as a plain JSON array")
  func pendingChangesKeepOrderAndFormat() throws {
    let zone = try ZoneID(zoneName: "Notes")
    let ids = try ["a", "b", "c", "d"].map { try RecordID(recordName: $0, zoneID: zone) }
    var state = SyncEngine.State()
    state.add(pendingRecordZoneChanges: ids.map { .saveRecord($0) })
    state.add(pendingRecordZoneChanges: [.deleteRecord(ids[1]), .saveRecord(ids[2])])
    #expect(state.pendingRecords.contains(.deleteRecord(ids[1])) && !state.pendingRecords.contains(.saveRecord(ids[1])))
    #expect(
      state.pendingRecordZoneChanges == [
        .saveRecord(ids[0]), .saveRecord(ids[2]), .saveRecord(ids[3]), .deleteRecord(ids[1]),
      ])
    state.remove(pendingRecordZoneChanges: [.saveRecord(ids[2]), .saveRecord(ids[1])])
    #expect(state.pendingRecordZoneChanges == [.saveRecord(ids[0]), .saveRecord(ids[3]), .deleteRecord(ids[1])])
    #expect(!state.pendingRecords.contains(.saveRecord(ids[2])))

    // The list is stored as the array it always was: bytes written by an earlier version read back the same.
    struct AsArray: Codable {
      var pendingRecordZoneChanges: [SyncEngine.PendingRecordZoneChange]
      var pendingDatabaseChanges: [SyncEngine.PendingDatabaseChange] = []
    }
    let bytes = try JSONEncoder().encode(state.serialization)
    #expect(
      try JSONDecoder().decode(AsArray.self, from: bytes).pendingRecordZoneChanges == state.pendingRecordZoneChanges)
    let earlier = try JSONEncoder().encode(AsArray(pendingRecordZoneChanges: state.pendingRecordZoneChanges))
    let read = try JSONDecoder().decode(SyncEngine.StateSerialization.self, from: earlier)
    #expect(SyncEngine.State(read).pendingRecordZoneChanges == state.pendingRecordZoneChanges)

    // A list read with a change twice (an engine's copy, or edited bytes) keeps it once, where it first appears.
    var twice = SyncEngine.State(SyncEngine.StateSerialization())
    twice.serialization.pendingRecordZoneChanges = [.saveRecord(ids[1]), .saveRecord(ids[0]), .saveRecord(ids[1])]
    #expect(twice.pendingRecordZoneChanges == [.saveRecord(ids[1]), .saveRecord(ids[0])])
    twice.remove(pendingRecordZoneChanges: [.saveRecord(ids[1])])
    #expect(twice.pendingRecordZoneChanges == [.saveRecord(ids[0])])
    #expect(!twice.pendingRecords.contains(.saveRecord(ids[1])) && twice.pendingRecords.count == 1)

    // Thousands of removals one by one close their holes and keep the order of what is left.
    var many = SyncEngine.State()
    let manyIDs = try (0..<1_000).map { try RecordID(recordName: "n\($0)", zoneID: zone) }
    many.add(pendingRecordZoneChanges: manyIDs.map { .saveRecord($0) })
    for id in manyIDs where id.recordName.hasSuffix("7") == false {
      many.remove(pendingRecordZoneChanges: [.saveRecord(id)])
    }
    let left = manyIDs.filter { $0.recordName.hasSuffix("7") }
    #expect(many.pendingRecordZoneChanges == left.map { .saveRecord($0) })
    #expect(
      many.pendingRecords.count == left.count && left.allSatisfy { many.pendingRecords.contains(.saveRecord($0)) })
    many.add(pendingRecordZoneChanges: [.deleteRecord(left[0])])
    #expect(
      many.pendingRecordZoneChanges.last == .deleteRecord(left[0])
        && !many.pendingRecords.contains(.saveRecord(left[0])))
    #expect(many.serialization == SyncEngine.State(many.serialization).serialization)
  }
}
