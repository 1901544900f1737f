import Foundation
import Reconcile
import Testing

/// A deletion meets an edit it did not see: under `editWins` the edit cancels it, whether the device holds that edit
/// unshown (a halt kept it back) or meets it when the record created again is saved.
@Suite("ZoneReplica: deletions and edits they did not see")
struct ZoneReplicaUnseenEditTests {
  typealias Helpers = ZoneReplicaTests

  /// The engine's answer to a batch that saved `record`: lost (`networkFailure`).
  static func answerLost(_ record: Record) -> SyncEngine.Event {
    .sentRecordZoneChanges(
      .init(
        savedRecords: [],
        failedRecordSaves: [SyncEngine.FailedRecordSave(record: record, error: CloudKitError(code: .networkFailure))]))
  }

  /// The user deletes `id` and creates it again ("bread", no body) before the deletion is sent; then `server`, another
  /// device's edit (with a body) the deletion did not see, is fetched. Returns the note as the replica holds it then.
  static func createdAgainThenFetched(
    _ id: RecordID, _ server: Record, _ replica: inout ZoneReplica<DictionaryReplicaStore>,
    _ state: inout SyncEngine.State
  ) throws -> Record {
    try replica.delete(id, at: Date(timeIntervalSince1970: 30), syncEngine: &state)
    try replica.create(
      try Helpers.note(id.recordName, title: "bread"), at: Date(timeIntervalSince1970: 31), syncEngine: &state)
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [server], deletions: [])), syncEngine: &state)
    return try #require(replica.store[id])
  }

  /// n1 ("milk", coloured red) saved as `t1`, deleted here, and created again ("bread", no colour, no body) before the
  /// deletion was sent; then a fetch brings `t2`, another device's edit of `t1` (a body added) that the deletion did
  /// not see.
  static func createdAgainOverAnUnseenEdit(_ policy: DeletePolicy) throws -> (
    ZoneReplica<DictionaryReplicaStore>, SyncEngine.State, RecordID
  ) {
    var replica = try Helpers.replica(policy)
    var state = SyncEngine.State()
    var note = try Helpers.note("n1", title: "milk")
    note["color"] = .string("red")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = Helpers.batch(&replica, &state)
    let first = Helpers.saved(note, tag: "t1")
    replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [first])), syncEngine: &state)
    try replica.delete(note.recordID, at: Date(timeIntervalSince1970: 20), syncEngine: &state)
    try replica.create(
      try Helpers.note("n1", title: "bread"), at: Date(timeIntervalSince1970: 21), syncEngine: &state)
    replica.handleEvent(
      .fetchedRecordZoneChanges(.init(modifications: [Helpers.editedElsewhere(first)], deletions: [])),
      syncEngine: &state)
    return (replica, state, note.recordID)
  }

  @Test("editWins: a note created again over an edit its deletion did not see merges into it from the version deleted")
  func createdAgainMergesWithAnUnseenEdit() throws {
    let (replica, state, id) = try Self.createdAgainOverAnUnseenEdit(.editWins)
    let merged = try #require(replica.store[id])
    #expect(merged["body"] == .string("2 litres"), "the edit the deletion did not see stays")
    #expect(merged["title"] == .string("bread"), "the new note's title is a change from the version deleted")
    #expect(merged["color"] == nil, "a key the new note left out, it removed")
    #expect(state.pendingRecordZoneChanges.contains(.saveRecord(id)))
    #expect(!state.pendingRecordZoneChanges.contains(.deleteRecord(id)))
  }

  @Test("deleteWins: a note created again replaces the record whole, whatever was edited since the deletion")
  func createdAgainReplacesUnderDeleteWins() throws {
    let (replica, _, id) = try Self.createdAgainOverAnUnseenEdit(.deleteWins)
    let replaced = try #require(replica.store[id])
    #expect(replaced["title"] == .string("bread"))
    #expect(replaced["body"] == nil, "the deletion took the body with the record")
    #expect(replaced["color"] == nil)
  }

  /// n1 saved as `t1` under schema 1.0, edited here ("oat milk", unsent); a fetch brings `t2`, a 2.0 app's edit from
  /// another device, which halts the merge; then the user deletes n1.
  static func deletedWhileHalted(_ policy: DeletePolicy) throws -> (
    ZoneReplica<DictionaryReplicaStore>, SyncEngine.State, RecordID
  ) {
    let schema = Schema([
      RecordSchema(recordType: "Note", version: try SchemaVersion("1.0.0"), fields: [.init("title", .string)])
    ])
    var replica = ZoneReplica(
      configuration: ReplicaConfiguration(
        zoneID: try Helpers.zone(), deviceName: "phone", resolver: FieldMerge(), deletePolicy: policy,
        schema: schema),
      store: DictionaryReplicaStore())
    var state = SyncEngine.State()
    let id = try Helpers.note("n1", title: "milk").recordID
    try replica.create(
      try Helpers.note("n1", title: "milk"), at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = Helpers.batch(&replica, &state)
    let first = Helpers.saved(try #require(replica.store[id]), tag: "t1")
    replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [first])), syncEngine: &state)
    try replica.edit(
      id, setting: ["title": .string("oat milk")], at: Date(timeIntervalSince1970: 20), syncEngine: &state)
    var newer = first
    newer["schemaVersion"] = .string("2.0.0")
    newer["title"] = .string("whole milk")
    newer.recordChangeTag = "t2"
    newer.modifiedByDevice = "tablet"
    newer.clearChangedKeys()
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [newer], deletions: [])), syncEngine: &state)
    #expect(replica.halt != nil, "the 2.0 version must halt the merge for this test to mean anything")
    try replica.delete(id, at: Date(timeIntervalSince1970: 30), syncEngine: &state)
    return (replica, state, id)
  }

  @Test("editWins: a deletion made while halted gives way to the version the halt held back, which the user never saw")
  func deletionWhileHaltedGivesWayToTheUnseenEdit() throws {
    let (replica, state, id) = try Self.deletedWhileHalted(.editWins)
    #expect(replica.store[id]?["title"] == .string("whole milk"), "the other device's edit stays, shown now")
    #expect(state.pendingRecordZoneChanges.isEmpty, "nothing to delete, and the deleted copy's edit went with it")
  }

  @Test("deleteWins: a deletion made while halted stands and waits to be sent")
  func deletionWhileHaltedStandsUnderDeleteWins() throws {
    let (replica, state, id) = try Self.deletedWhileHalted(.deleteWins)
    #expect(replica.store[id] == nil)
    #expect(state.pendingRecordZoneChanges.contains(.deleteRecord(id)))
  }

  @Test(
    "editWins: a note whose create went unanswered, deleted and created again, merges with an unseen edit from the copy deleted"
  )
  func createdAgainAfterAnUnansweredCreate() throws {
    var replica = try Helpers.replica(.editWins)
    var state = SyncEngine.State()
    let note = try Helpers.note("n1", title: "milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 10), syncEngine: &state)
    _ = Helpers.batch(&replica, &state)
    replica.handleEvent(Self.answerLost(note), syncEngine: &state)
    // The create had landed (at 11 s), and another device added a body to it since.
    var server = Helpers.editedElsewhere(Helpers.saved(note, tag: "t1", created: Date(timeIntervalSince1970: 11)))
    server.modifiedByDevice = "tablet"
    let merged = try Self.createdAgainThenFetched(note.recordID, server, &replica, &state)
    #expect(merged["body"] == .string("2 litres"), "the edit the deletion did not see stays")
    #expect(merged["title"] == .string("bread"), "the new note's title is a change from the copy deleted")
  }

  @Test(
    "editWins: a note created again over an unseen edit counts the deleted copy's unanswered save as its own, not a change"
  )
  func createdAgainAfterAnUnansweredEdit() throws {
    var (replica, state, note, first) = try Helpers.savedThenEdited(.editWins)
    let sent = try #require(Helpers.batch(&replica, &state)?.recordsToSave.first)
    replica.handleEvent(Self.answerLost(sent), syncEngine: &state)
    // The edit landed (its answer lost), and another device added a body on top of it.
    var landed = first
    landed["title"] = .string("oat milk")
    var server = Helpers.editedElsewhere(landed)
    server.recordChangeTag = "t3"
    server.modifiedByDevice = "tablet"
    let merged = try Self.createdAgainThenFetched(note.recordID, server, &replica, &state)
    #expect(merged["body"] == .string("2 litres"), "the edit the deletion did not see stays")
    #expect(merged["title"] == .string("bread"), "the user's own landed title is no other device's change")
  }
}
