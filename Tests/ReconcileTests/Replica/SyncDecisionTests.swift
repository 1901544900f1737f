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
    let merge = try #require(decisions.last)
    #expect(
      merge.description
        == "merged n1 over the last version it knew: body: merged; pin: kept server, lost <redacted>; "
        + "title: kept server, lost \"soy milk\"")
    #expect(!merge.description.contains("9999") && !"\(merge)".contains("0000"))
    #expect(replica.takeDecisions().isEmpty, "taken decisions are forgotten")
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
