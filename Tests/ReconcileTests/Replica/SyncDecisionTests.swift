import Foundation
import Reconcile
import Testing

/// How a ZoneReplica describes a merge, key by key, through its public API.
@Suite("SyncDecision: a merge explained key by key")
struct SyncDecisionTests {
  @Test("a merge of concurrent edits names kept, merged and lost values, and never prints an encrypted one")
  func mergeOutcomes() throws {
    let zone = try ZoneID(zoneName: "Notes")
    var replica = ZoneReplica(
      configuration: ReplicaConfiguration(
        zoneID: zone, deviceName: "mac", resolver: FieldMerge(.server, overrides: ["body": .text(.line)])),
      store: DictionaryReplicaStore())
    replica.recordsDecisions = true
    var state = SyncEngine.State()
    var note = Record(recordType: "Note", recordID: try RecordID(recordName: "n1", zoneID: zone))
    note["title"] = .string("milk")
    note["body"] = .string("eggs\n")
    note.encryptedValues["pin"] = .string("1234")
    try replica.create(note, at: Date(timeIntervalSince1970: 1), syncEngine: &state)
    _ = replica.nextRecordZoneChangeBatch(.init(reason: .scheduled), syncEngine: &state)
    var saved = note
    saved.recordChangeTag = "t1"
    saved.clearChangedKeys()
    replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [saved])), syncEngine: &state)
    try replica.edit(
      note.recordID, setting: ["title": .string("soy milk"), "body": .string("eggs\nbread\n")], at: Date(),
      syncEngine: &state)
    try replica.edit(note.recordID, setting: [:], at: Date(), syncEngine: &state)
    var local = try #require(replica.store[note.recordID])
    local.encryptedValues["pin"] = .string("9999")
    replica.store[note.recordID] = local
    var server = saved
    server["title"] = .string("oat milk")
    server["body"] = .string("butter\neggs\n")
    server.encryptedValues["pin"] = .string("0000")
    server.recordChangeTag = "t2"
    server.clearChangedKeys()
    _ = replica.takeDecisions()
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [server], deletions: [])), syncEngine: &state)
    let decisions = replica.takeDecisions()
    #expect(decisions.first == .fetched(saved: [note.recordID], deleted: []))
    #expect(decisions.first?.description == "fetched saved record n1")
    let merge = try #require(decisions.last)
    #expect(
      merge.description
        == "merged Note/n1 over the last version it knew: body: merged cleanly; pin: kept server, lost <redacted>; "
        + "title: kept server, lost \"soy milk\"")
    #expect(!merge.description.contains("9999") && !"\(merge)".contains("0000"))
    #expect(replica.takeDecisions().isEmpty, "taken decisions are forgotten")
  }

  /// A merge of `server` over `ancestor` with the device's `client` edits, by `resolver`, as the replica explains it.
  static func explained(
    _ resolver: any ConflictResolver, ancestor: [String: FieldValue], client: [String: FieldValue],
    server: [String: FieldValue]
  ) throws -> String {
    let zone = try ZoneID(zoneName: "Notes")
    var replica = ZoneReplica(
      configuration: ReplicaConfiguration(zoneID: zone, deviceName: "mac", resolver: resolver),
      store: DictionaryReplicaStore())
    replica.recordsDecisions = true
    var state = SyncEngine.State()
    var note = Record(recordType: "Note", recordID: try RecordID(recordName: "n1", zoneID: zone))
    for (key, value) in ancestor { note[key] = value }
    try replica.create(note, at: Date(timeIntervalSince1970: 1), syncEngine: &state)
    _ = replica.nextRecordZoneChangeBatch(.init(reason: .scheduled), syncEngine: &state)
    var saved = try #require(replica.store[note.recordID])
    saved.recordChangeTag = "t1"
    saved.clearChangedKeys()
    replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [saved])), syncEngine: &state)
    try replica.edit(note.recordID, setting: client, at: Date(timeIntervalSince1970: 2), syncEngine: &state)
    var theirs = saved
    for (key, value) in server { theirs[key] = value }
    theirs.recordChangeTag = "t2"
    theirs.clearChangedKeys()
    _ = replica.takeDecisions()
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [theirs], deletions: [])), syncEngine: &state)
    return try #require(replica.takeDecisions().last).description
  }

  @Test("a text key says whether it merged cleanly, how many stretches overlapped and how they were settled")
  func textOutcomes() throws {
    let ancestor: [String: FieldValue] = ["body": "milk\neggs\n"]
    #expect(
      try Self.explained(
        FieldMerge(.server, overrides: ["body": .text(.line, overlap: .both)]), ancestor: ancestor,
        client: ["body": "oat milk\neggs\n"], server: ["body": "soy milk\neggs\n"])
        == "merged Note/n1 over the last version it knew: body: merged, 1 overlap, both versions kept")
    #expect(
      try Self.explained(
        FieldMerge(.server, overrides: ["body": .text(.line, overlap: .server)]), ancestor: ancestor,
        client: ["body": "oat milk\neggs\n"], server: ["body": "soy milk\neggs\n"])
        == "merged Note/n1 over the last version it knew: body: merged, 1 overlap, the server's version kept "
        + "(the client's lost there)")
    // One side's removal and the other's append: clean, though the result equals neither side.
    #expect(
      try Self.explained(
        ResolverSet(default: FieldMerge(.server, overrides: ["body": .text()])), ancestor: ancestor,
        client: ["body": "eggs\n"], server: ["body": "milk\neggs\nbread\n"])
        == "merged Note/n1 over the last version it knew: body: merged cleanly")
  }

  @Test("a value a keep-both policy set aside is named where it went, not as lost; stamps are not the user's keys")
  func keptAsideAndBookkeeping() throws {
    #expect(
      try Self.explained(
        FieldMerge(.server, overrides: ["title": .keepBoth(into: "titleConflict")]), ancestor: ["title": "Groceries"],
        client: ["title": "Groceries (Sun)"], server: ["title": "Groceries (Sat)"])
        == "merged Note/n1 over the last version it knew: title: kept server, the client's in titleConflict")
    #expect(
      try Self.explained(
        FieldMerge(.editCount(key: "editCount")), ancestor: ["title": "a"], client: ["title": "b"],
        server: ["title": "c", "editCount": 5])
        == "merged Note/n1 over the last version it knew: title: kept server, lost \"b\"")
  }

  @Test("a replica that does not record decisions keeps none")
  func offByDefault() throws {
    let zone = try ZoneID(zoneName: "Notes")
    var replica = ZoneReplica(
      configuration: ReplicaConfiguration(zoneID: zone, deviceName: "mac"), store: DictionaryReplicaStore())
    var state = SyncEngine.State()
    replica.handleEvent(.fetchedRecordZoneChanges(.init(modifications: [], deletions: [])), syncEngine: &state)
    #expect(replica.decisions.isEmpty)
  }
}
