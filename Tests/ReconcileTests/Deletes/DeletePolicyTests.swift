import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

@Suite("Deletes: DeletePolicy and tombstones")
struct DeletePolicyTests {
  static func edited() throws -> Record {
    var record = try Scenario.note(["title": "x"]).savedByServer(tag: "t1", at: Scenario.t0)
    record["title"] = "edited"
    record.encryptedValues["secret"] = "s"
    record.parent = Reference(recordID: try RecordID(recordName: "folder"))
    return record
  }

  @Test("a tombstone blocks copies of the record it deleted, not one created anew under the same ID")
  func tombstoneBlocksOnlyTheDeletedIncarnation() throws {
    let deleted = try Self.edited()
    var tombstones = Tombstones()
    tombstones.insert(Tombstone(deleting: deleted, at: Scenario.t0))
    #expect(tombstones[deleted.recordID]?.creationDate == deleted.creationDate)
    #expect(tombstones.blocks(deleted))
    var recreated = deleted
    recreated.creationDate = Scenario.t0.addingTimeInterval(3_600)
    #expect(!tombstones.blocks(recreated))
    // Without a known creation date on either side, the ID alone decides: blocked.
    var unsaved = Record(recordType: "Note", recordID: deleted.recordID)
    unsaved["title"] = "new"
    #expect(tombstones.blocks(unsaved))
    var unknown = Tombstones()
    unknown.insert(Tombstone(recordID: deleted.recordID, recordType: "Note", deletedAt: Scenario.t0))
    #expect(unknown.blocks(recreated))
  }

  @Test("unknownItem: deleteWins accepts the deletion with a tombstone")
  func unknownItemDeleteWins() throws {
    let local = try Self.edited()
    let when = Scenario.t0.addingTimeInterval(60)
    #expect(
      DeletePolicy.deleteWins.resolveUnknownItem(for: local, at: when) == .deleted(Tombstone(deleting: local, at: when))
    )
  }

  @Test("unknownItem: editWins recreates the record as new, with every value and every key marked changed")
  func unknownItemEditWins() throws {
    let local = try Self.edited()
    guard case .recreate(let record) = DeletePolicy.editWins.resolveUnknownItem(for: local, at: Scenario.t0) else {
      Issue.record("expected a recreation")
      return
    }
    #expect(record.recordID == local.recordID && record.recordType == local.recordType)
    #expect(record.recordChangeTag == nil && record.modificationDate == nil, "saved as a new record")
    #expect(record.values == local.values && record.encryptedValuesByKey == local.encryptedValuesByKey)
    #expect(record.parent == local.parent)
    #expect(record.changedKeys == ["title", "secret"])
  }

  @Test("a fetched deletion meeting unsent edits follows the policy; without edits it is always accepted")
  func fetchedDeletion() throws {
    let local = try Self.edited()
    let deletion = Tombstone(recordID: local.recordID, recordType: "Note", deletedAt: Scenario.t0, deletedBy: "_other")
    #expect(DeletePolicy.deleteWins.resolveFetchedDeletion(deletion, of: local) == .deleted(deletion))
    guard case .recreate(let revived) = DeletePolicy.editWins.resolveFetchedDeletion(deletion, of: local) else {
      Issue.record("expected a recreation")
      return
    }
    #expect(revived["title"] == "edited")
    var clean = local
    clean.clearChangedKeys()
    for policy in DeletePolicy.allCases {
      #expect(policy.resolveFetchedDeletion(deletion, of: clean) == .deleted(deletion), "\(policy)")
    }
  }

  @Test("a fetched change meeting an unsent local deletion: deleteWins sends it, editWins keeps the server's record")
  func pendingDeletion() throws {
    let deleted = try Scenario.note(["title": "x"]).savedByServer(tag: "t1", at: Scenario.t0)
    let pending = Tombstone(deleting: deleted, at: Scenario.t0, by: "phone")
    var server = try Scenario.note(["title": "changed elsewhere"]).savedByServer(tag: "t2", at: Scenario.t0)
    server.modifiedByDevice = "tablet"
    #expect(DeletePolicy.deleteWins.resolvePendingDeletion(pending, against: server) == .deleted(pending))
    #expect(DeletePolicy.editWins.resolvePendingDeletion(pending, against: server) == .keep(server))
  }

  @Test("editWins never lets a change the deletion saw cancel it: the version deleted, or the deleter's own save")
  func pendingDeletionAgainstWhatItSaw() throws {
    let deleted = try Scenario.note(["title": "x"]).savedByServer(tag: "t1", at: Scenario.t0)
    let pending = Tombstone(deleting: deleted, at: Scenario.t0, by: "phone")
    #expect(pending.recordChangeTag == "t1")
    // The very version deleted comes back in a fetch.
    #expect(DeletePolicy.editWins.resolvePendingDeletion(pending, against: deleted) == .deleted(pending))
    // The deleter's own save, made before the deletion, lands unheard of.
    var ownSave = try Scenario.note(["title": "mine"]).savedByServer(tag: "t2", at: Scenario.t0)
    ownSave.modifiedByDevice = "phone"
    #expect(DeletePolicy.editWins.resolvePendingDeletion(pending, against: ownSave) == .deleted(pending))
    // The deleter's own save answered after the deletion: its tag is on the tombstone.
    var answered = pending
    answered.recordChangeTag = "t3"
    var acknowledged = try Scenario.note(["title": "mine"]).savedByServer(tag: "t3", at: Scenario.t0)
    acknowledged.modifiedByDevice = nil
    #expect(DeletePolicy.editWins.resolvePendingDeletion(answered, against: acknowledged) == .deleted(answered))
    #expect(!pending.saw(acknowledged))
  }

  @Test("tombstones block stale copies, keep the latest deletion, and round-trip through JSON")
  func tombstones() throws {
    let record = try Self.edited()
    var tombstones = Tombstones()
    tombstones.insert(Tombstone(deleting: record, at: Scenario.t0.addingTimeInterval(10), by: "phone"))
    tombstones.insert(Tombstone(deleting: record, at: Scenario.t0, by: "tablet"))
    #expect(tombstones.count == 1)
    #expect(tombstones[record.recordID]?.deletedBy == "phone", "the later deletion is kept")
    #expect(tombstones.blocks(record))
    #expect(!tombstones.blocks(try Scenario.note([:]).withID("other")))

    let other = Tombstone(
      recordID: try RecordID(recordName: "b", zoneID: ZoneID(zoneName: "Notes")), recordType: "Task",
      deletedAt: Scenario.t0)
    tombstones.insert(other)
    let data = try JSONEncoder().encode(tombstones)
    #expect(try JSONDecoder().decode(Tombstones.self, from: data) == tombstones)

    tombstones.removeAll(deletedBefore: Scenario.t0.addingTimeInterval(5))
    #expect(tombstones.all.map(\.recordID) == [record.recordID])
    #expect(tombstones.remove(record.recordID) != nil)
    #expect(!tombstones.blocks(record), "a revived record may be uploaded again")
  }

  @Test("a tombstone with a bad record name does not decode, and the error names it")
  func badTombstoneJSON() throws {
    let json =
      #"[{"recordID":{"recordName":"b\u00e4d","zoneID":{"zoneName":"Notes"}},"recordType":"Note","deletedAt":0}]"#
    let error = #expect(throws: DecodingError.self) { try JSONDecoder().decode(Tombstones.self, from: Data(json.utf8)) }
    #expect(String(describing: error).contains("bäd"))
  }

  @Test("the tombstone reads as a sentence")
  func tombstoneDescription() throws {
    let tombstone = Tombstone(
      recordID: try RecordID(recordName: "n1"), recordType: "Note", deletedAt: Scenario.t0, deletedBy: "phone")
    #expect(tombstone.description == "Note n1 in _defaultZone:__defaultOwner__ deleted 2026-09-21T14:13:20Z by phone")
  }
}

extension Record {
  /// A copy under another record name.
  func withID(_ name: String) throws -> Record {
    var copy = self
    copy.recordID = try RecordID(recordName: name, zoneID: recordID.zoneID)
    return copy
  }
}
