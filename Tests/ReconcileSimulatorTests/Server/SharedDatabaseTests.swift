import Foundation
import Reconcile
import ReconcileSimulator
import Testing

@Suite("Server: the shared database charges the owner and reports revoked shares")
struct SharedDatabaseTests {
  @Test("a participant's save into a shared zone counts against the owner's quota, not the participant's")
  func sharedSavesChargeTheOwner() throws {
    var fixture = try ServerFixture()
    _ = try fixture.create(try fixture.note("n1", ["title": "shared"]))
    let shared = try ZoneID(zoneName: "Notes", ownerName: "_alice")
    fixture.server.share(fixture.notes, ownedBy: "_alice", with: "_bob", permission: .readWrite)
    var edit = try #require(
      try fixture.server.fetchZoneChanges(ZoneChangesRequest(scope: .shared, zoneID: shared), as: fixture.bob)
        .changed.first)
    edit["title"] = "bob's edit"
    // Bob's own storage is full: his save into Alice's zone still goes through.
    fixture.server.setQuotaExceeded(true, for: "_bob")
    let accepted = try fixture.save([edit], as: fixture.bob, scope: .shared)
    #expect(accepted.failures.isEmpty && accepted.saved.count == 1, "\(accepted.failures)")
    // Alice's storage is full: the same kind of save is refused, and nothing changes.
    fixture.server.setQuotaExceeded(false, for: "_bob")
    fixture.server.setQuotaExceeded(true, for: "_alice")
    var again = try #require(accepted.saved.first)
    again["title"] = "refused"
    #expect(throws: CloudKitError.quotaExceeded) { try fixture.save([again], as: fixture.bob, scope: .shared) }
    #expect(
      fixture.server.records(in: fixture.notes, ownedBy: "_alice").first { $0.recordType == "Note" }?["title"]
        == "bob's edit")
  }

  @Test("a revoked share shows as a deleted zone in the participant's database changes")
  func revokedShareIsADeletedZone() throws {
    var fixture = try ServerFixture()
    let shared = try ZoneID(zoneName: "Notes", ownerName: "_alice")
    fixture.server.share(fixture.notes, ownedBy: "_alice", with: "_bob", permission: .readOnly)
    let first = try fixture.server.fetchDatabaseChanges(DatabaseChangesRequest(scope: .shared), as: fixture.bob)
    #expect(first.changedZones == [shared])
    #expect(first.deletedZones.isEmpty)
    fixture.server.share(fixture.notes, ownedBy: "_alice", with: "_bob", permission: nil)
    let after = try fixture.server.fetchDatabaseChanges(
      DatabaseChangesRequest(scope: .shared, since: first.token), as: fixture.bob)
    #expect(after.deletedZones == [shared])
    #expect(after.changedZones.isEmpty)
    // A user the zone was never shared with sees nothing of it.
    let stranger = ClientIdentity(userRecordName: "_eve", deviceName: "laptop")
    let none = try fixture.server.fetchDatabaseChanges(DatabaseChangesRequest(scope: .shared), as: stranger)
    #expect(none.changedZones.isEmpty && none.deletedZones.isEmpty)
  }

  @Test("sharing saves the zone-wide share record: participants are read from it, and deleting it ends the share")
  func participantsLiveInTheShareRecord() throws {
    var fixture = try ServerFixture()
    _ = try fixture.create(try fixture.note("n1", ["title": "shared"]))
    let shared = try ZoneID(zoneName: "Notes", ownerName: "_alice")
    fixture.server.share(fixture.notes, ownedBy: "_alice", with: "_bob", permission: .readWrite)
    let share = try #require(fixture.server.zoneShare(of: fixture.notes, ownedBy: "_alice"))
    #expect(share.isZoneWide)
    #expect(share.participants.map(\.role) == [.owner, .privateUser])
    #expect(share.participants[1].userIdentity.userRecordName == "_bob")
    #expect(share.participants[1].permission == .readWrite)
    // The share is a record of the zone: it arrives in the owner's feed and in the participant's.
    let owners = try fixture.server.fetchZoneChanges(ZoneChangesRequest(zoneID: fixture.notes), as: fixture.alicePhone)
    #expect(
      owners.changed.contains { $0.recordType == "cloudkit.share" && $0.recordID.recordName == "cloudkit.zoneshare" })
    let bobs = try fixture.server.fetchZoneChanges(ZoneChangesRequest(scope: .shared, zoneID: shared), as: fixture.bob)
    #expect(bobs.changed.map(\.recordType).sorted() == ["Note", "cloudkit.share"])

    // Alice deletes the share record: Bob loses the zone, and his database feed reports it deleted.
    let before = try fixture.server.fetchDatabaseChanges(DatabaseChangesRequest(scope: .shared), as: fixture.bob)
    let shareID = try RecordID(recordName: "cloudkit.zoneshare", zoneID: fixture.notes)
    let deleted = try fixture.server.modifyRecords(ModifyRecordsRequest(deleting: [shareID]), as: fixture.alicePhone)
    #expect(deleted.deleted == [shareID])
    #expect(fixture.server.zoneShare(of: fixture.notes, ownedBy: "_alice") == nil)
    #expect(throws: CloudKitError.self) {
      try fixture.server.fetchZoneChanges(ZoneChangesRequest(scope: .shared, zoneID: shared), as: fixture.bob)
    }
    let after = try fixture.server.fetchDatabaseChanges(
      DatabaseChangesRequest(scope: .shared, since: before.token), as: fixture.bob)
    #expect(after.deletedZones == [shared])
  }
}
