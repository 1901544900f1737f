import Foundation
import Reconcile
import Testing

@Suite("CloudKitError carries what CloudKit's errors carry")
struct CloudKitErrorTests {
  let zone: ZoneID

  init() throws { zone = try ZoneID(zoneName: "Notes", ownerName: "_alice") }

  func note(_ name: String, tag: String?) throws -> Record {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: name, zoneID: zone))
    record.recordChangeTag = tag
    return record
  }

  @Test("a conflict is the three records; without the server's record there is none, and the client's stays")
  func conflictIsItsRecords() throws {
    let client = try note("n1", tag: "t1")
    let server = try note("n1", tag: "t2")
    var error = CloudKitError(
      code: .serverRecordChanged, conflict: Conflict(client: client, ancestor: nil, server: server))
    #expect(error.clientRecord == client && error.serverRecord == server && error.ancestorRecord == nil)
    #expect(error.conflict == Conflict(client: client, ancestor: nil, server: server))
    error.serverRecord = nil
    #expect(error.conflict == nil)
    #expect(error.clientRecord == client)
    error.conflict = nil
    #expect(error.clientRecord == nil)
  }

  @Test("a Web Services error reads into the record and zone it names")
  func webServicesErrorNamesItsRecord() throws {
    let body = WebServices.ServerError(code: .notFound, reason: "gone", recordName: "n1", zoneID: zone)
    let error = body.cloudKitError
    #expect(error.code == .unknownItem)
    #expect(error.recordID == (try RecordID(recordName: "n1", zoneID: zone)))
    #expect(error.zoneID == zone)
    let request = WebServices.ServerError(code: .throttled, reason: "slow down", retryAfter: 5)
    #expect(request.cloudKitError.recordID == nil && request.cloudKitError.retryAfter == 5)
  }

  @Test("partial errors are keyed by record ID: one name in two zones is two items")
  func partialErrorsByID() throws {
    let here = try RecordID(recordName: "n1", zoneID: zone)
    let there = try RecordID(recordName: "n1", zoneID: .default)
    let error = CloudKitError(
      code: .partialFailure,
      partialErrors: [here: CloudKitError(code: .zoneBusy, retryAfter: 1), there: CloudKitError(code: .unknownItem)])
    #expect(error.partialErrors.count == 2)
    #expect(error.partialErrors[here]?.isTransient == true && error.partialErrors[there]?.isTransient == false)
  }
}
