import Foundation
import Reconcile
import ReconcileSimulator
import Testing

@Suite("Server: the private database's default zone")
struct DefaultZoneTests {
  @Test("a save to the private default zone works without creating a zone, and the zone keeps no change feed")
  func defaultZoneExists() throws {
    var server = SimulatedServer(configuration: .init(throttle: nil))
    let phone = ClientIdentity(userRecordName: "_carol", deviceName: "phone")
    var note = Record(recordType: "Note", recordID: try RecordID(recordName: "n1", zoneID: .default))
    note["title"] = "hello"
    let reply = try server.modifyRecords(ModifyRecordsRequest(saving: [note]), as: phone)
    #expect(reply.saved.count == 1, "\(reply.failures)")
    #expect(server.records(in: .default, ownedBy: "_carol").map(\.recordID) == [note.recordID])
    // CloudKit's default zone has no change tokens: a change feed request is refused.
    #expect(throws: CloudKitError.self) {
      try server.fetchZoneChanges(ZoneChangesRequest(zoneID: .default, since: nil), as: phone)
    }
    // Another user's default zone is their own.
    let other = ClientIdentity(userRecordName: "_dave", deviceName: "mac")
    #expect(server.records(in: .default, ownedBy: "_dave").isEmpty)
    let fetched = try server.fetchRecords(FetchRecordsRequest(recordIDs: [note.recordID]), as: other)
    #expect(fetched.records.isEmpty)
  }
}
