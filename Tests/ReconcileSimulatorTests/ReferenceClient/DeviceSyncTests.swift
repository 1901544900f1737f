import Foundation
import Reconcile
import ReconcileSimulator
import Testing

@Suite("Device: the reference sync client")
struct DeviceSyncTests {
  let notes = try! ZoneID(zoneName: "Notes")

  private func device(
    _ name: String,
    resolver: any ConflictResolver = .serverLastWriterWins,
    deletePolicy: DeletePolicy = .deleteWins,
    user: String? = "_alice",
    schema: Schema? = nil
  ) throws -> SimulatedDevice {
    try SimulatedDevice(
      configuration: .init(
        name: name, userRecordName: user, zoneID: notes, resolver: resolver, deletePolicy: deletePolicy, schema: schema)
    )
  }

  private func note(_ name: String, _ values: [String: FieldValue]) throws -> Record {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: name, zoneID: notes))
    for (key, value) in values { record[key] = value }
    return record
  }

  @Test("two devices converge: a record created on one appears on the other with the same tag")
  func twoDevicesConverge() throws {
    var server = SimulatedServer()
    var phone = try device("phone")
    var mac = try device("mac")
    try phone.create(try note("n1", ["title": "hello"]), at: server.now)
    phone.sync(with: &server)
    mac.sync(with: &server)
    #expect(mac.records == phone.records)
    #expect(mac.records.first?["title"] == "hello")
    #expect(mac.records.first?.recordChangeTag != nil)
    #expect(phone.diagnostics.queuedCount == 0)
    #expect(phone.status == .idle)
  }

  @Test("concurrent edits to different fields both survive under field merge")
  func fieldMergeKeepsBothSides() throws {
    var server = SimulatedServer()
    var phone = try device("phone", resolver: .fieldMerge())
    var mac = try device("mac", resolver: .fieldMerge())
    try phone.create(try note("n1", ["title": "a", "body": "x"]), at: server.now)
    phone.sync(with: &server)
    mac.sync(with: &server)
    let id = try RecordID(recordName: "n1", zoneID: notes)
    try phone.edit(id, setting: ["title": "phone title"], at: server.now)
    try mac.edit(id, setting: ["body": "mac body"], at: server.now)
    phone.sync(with: &server)
    mac.sync(with: &server)
    phone.sync(with: &server)
    let final = try #require(server.records(in: notes, ownedBy: "_alice").first)
    #expect(final["title"] == "phone title")
    #expect(final["body"] == "mac body")
    #expect(phone.records == mac.records)
    #expect(phone.records.first == final)
  }

  @Test("a delete wins over a concurrent edit under deleteWins; the edit revives it under editWins")
  func deletePolicies() throws {
    for policy in DeletePolicy.allCases {
      var server = SimulatedServer()
      var phone = try device("phone", deletePolicy: policy)
      var mac = try device("mac", deletePolicy: policy)
      try phone.create(try note("n1", ["title": "a"]), at: server.now)
      phone.sync(with: &server)
      mac.sync(with: &server)
      let id = try RecordID(recordName: "n1", zoneID: notes)
      try phone.delete(id, at: server.now)
      try mac.edit(id, setting: ["title": "edited"], at: server.now)
      phone.sync(with: &server)
      mac.sync(with: &server)
      phone.sync(with: &server)
      let onServer = server.records(in: notes, ownedBy: "_alice")
      #expect(phone.records == mac.records, "\(policy)")
      if policy == .deleteWins {
        #expect(onServer.isEmpty)
        #expect(mac.records.isEmpty)
      } else {
        #expect(onServer.first?["title"] == "edited")
        #expect(phone.records.first?["title"] == "edited")
      }
    }
  }

  @Test("no account halts the device with a readable reason, keeping its queue and sending nothing")
  func haltsWithoutAccount() throws {
    var server = SimulatedServer()
    var kiosk = try device("kiosk", user: nil)
    try kiosk.create(try note("n1", ["title": "a"]), at: server.now)
    kiosk.sync(with: &server)
    #expect(kiosk.status == .halted)
    #expect(kiosk.haltReason == .notAuthenticated)
    #expect(kiosk.diagnostics.haltReason?.description.contains("Sign in") == true)
    #expect(kiosk.nextRequest(at: server.now) == nil)
    #expect(kiosk.diagnostics.queuedCount == 2, "the zone and the note")
  }

  @Test("an app 1.0 device shows a record from app 2.0, refuses to edit it, and halts when its unsent edit meets one")
  func schemaHalt() throws {
    func schema(_ version: String, extra: [RecordSchema.Field] = []) throws -> Schema {
      Schema([
        RecordSchema(
          recordType: "Note", version: try SchemaVersion(version),
          fields: [RecordSchema.Field("title", .string)] + extra)
      ])
    }
    var server = SimulatedServer()
    var new = try device("new", schema: try schema("2.0.0", extra: [RecordSchema.Field("color", .string)]))
    var old = try device("old", schema: try schema("1.0.0"))
    try new.create(try note("n1", ["title": "a", "color": "red"]), at: server.now)
    try old.create(try note("n2", ["title": "b"]), at: server.now)
    new.sync(with: &server)
    old.sync(with: &server)
    new.sync(with: &server)
    // A newer app's record is shown, never changed.
    let n1 = try RecordID(recordName: "n1", zoneID: notes)
    #expect(old.record(n1)?["color"] == .string("red"))
    #expect(throws: DeviceError.self) { try old.edit(n1, setting: ["title": .string("x")], at: server.now) }
    // An unsent edit of its own record meets app 2.0's version of it: the device halts and saves nothing.
    let n2 = try RecordID(recordName: "n2", zoneID: notes)
    try old.edit(n2, setting: ["title": .string("mine")], at: server.now)
    try new.edit(n2, setting: ["color": .string("blue")], at: server.now)
    new.sync(with: &server)
    let before = server.changeTagsIssued
    old.sync(with: &server)
    #expect(old.status == .halted)
    guard case .schema(let halt)? = old.haltReason else {
      Issue.record("expected a schema halt, got \(String(describing: old.haltReason))")
      return
    }
    #expect(halt.description.contains("Nothing was saved"))
    #expect(server.changeTagsIssued == before)
    #expect(old.record(n2)?["title"] == .string("mine"))
  }

  @Test("1,000 queued records go up in batches of at most 400, halving on limitExceeded")
  func batching() throws {
    var limits = SimulatedServer.Limits.cloudKit
    limits.maximumBatchItems = 150
    var server = SimulatedServer(configuration: .init(limits: limits, throttle: nil))
    var phone = try device("phone")
    for index in 0..<1_000 { try phone.create(try note("n\(index)", ["title": .string("t\(index)")]), at: server.now) }
    let requests = phone.sync(with: &server)
    #expect(server.records(in: notes, ownedBy: "_alice").count == 1_000)
    #expect(phone.diagnostics.queuedCount == 0)
    #expect(
      requests >= 1_000 / 100 + 2, "400 → 200 → 100 per batch after two limitExceeded replies; \(requests) requests")
  }

  @Test("transient errors are retried after their retry-after; the throttle grows and shrinks")
  func retries() throws {
    var server = SimulatedServer(configuration: .init(throttle: nil))
    var phone = try device("phone")
    try phone.create(try note("n1", ["title": "a"]), at: server.now)
    server.injectFailure(.zoneBusy(retryAfter: 30), count: 2)
    let start = server.now
    phone.sync(with: &server)
    #expect(server.records(in: notes, ownedBy: "_alice").count == 1)
    #expect(server.now.timeIntervalSince(start) >= 60)
    #expect(phone.diagnostics.lastError?.contains("zoneBusy") == true)
    #expect(phone.diagnostics.throttle < RetryPolicy().maximumThrottle)
  }
}
