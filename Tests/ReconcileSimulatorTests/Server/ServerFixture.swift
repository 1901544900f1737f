import Foundation
import Reconcile
import ReconcileSimulator

/// A server with Alice's "Notes" zone, and helpers to name records and save them.
struct ServerFixture {
  var server = SimulatedServer(configuration: .init(throttle: nil, recordsEvents: true))
  let alicePhone = ClientIdentity(userRecordName: "_alice", deviceName: "phone")
  let aliceMac = ClientIdentity(userRecordName: "_alice", deviceName: "mac")
  let bob = ClientIdentity(userRecordName: "_bob", deviceName: "bob-phone")
  let anonymous = ClientIdentity(userRecordName: nil, deviceName: "kiosk")
  let notes: ZoneID

  init(capabilities: ZoneCapabilities = .customZone, configuration: SimulatedServer.Configuration? = nil) throws {
    if let configuration { server = SimulatedServer(configuration: configuration) }
    notes = try ZoneID(zoneName: "Notes")
    _ = try server.modifyZones(
      ModifyZonesRequest(saving: [RecordZone(zoneID: notes, capabilities: capabilities)]), as: alicePhone)
  }

  func id(_ name: String, in zone: ZoneID? = nil) throws -> RecordID {
    try RecordID(recordName: name, zoneID: zone ?? notes)
  }

  func note(_ name: String, _ values: [String: FieldValue] = ["title": "a"]) throws -> Record {
    var record = Record(recordType: "Note", recordID: try id(name))
    for (key, value) in values { record[key] = value }
    return record
  }

  /// Saves records and returns the reply.
  mutating func save(
    _ records: [Record],
    deleting: [RecordID] = [],
    policy: SavePolicy = .ifServerRecordUnchanged,
    atomic: Bool = true,
    as client: ClientIdentity? = nil,
    scope: DatabaseScope = .private
  ) throws(CloudKitError) -> ModifyRecordsReply {
    try server.modifyRecords(
      ModifyRecordsRequest(scope: scope, saving: records, deleting: deleting, savePolicy: policy, isAtomic: atomic),
      as: client ?? alicePhone)
  }

  /// Saves one new record and returns it as the server holds it.
  mutating func create(_ record: Record) throws -> Record {
    let reply = try save([record])
    guard let saved = reply.saved.first else { throw FixtureError.notSaved(reply.failures) }
    return saved
  }
}

enum FixtureError: Error {
  case notSaved([RecordID: CloudKitError])
}
