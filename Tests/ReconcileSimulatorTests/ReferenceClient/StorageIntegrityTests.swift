import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// A device whose stored records are damaged finds out before it uses them, throws them away, fetches the server's
/// copies again and never uploads the damage; a halted device sends nothing until it is restarted.
@Suite("Security: damaged storage is refetched, never uploaded; halted devices stay silent")
struct StorageIntegrityTests {
  let zone = try! ZoneID(zoneName: "Notes")

  func device(_ name: String) throws -> SimulatedDevice {
    try SimulatedDevice(configuration: .init(name: name, userRecordName: "_alice", zoneID: zone))
  }

  func note(_ name: String, title: String) throws -> Record {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: name, zoneID: zone))
    record["title"] = .string(title)
    return record
  }

  func serverHoldsDamage(_ server: SimulatedServer) -> Bool {
    server.records(in: zone, ownedBy: "_alice").contains { record in
      record.allKeys.contains { record[$0] == StorageDamage.garbage }
    }
  }

  @Test("a damaged record with unsent edits is thrown away before sending, and the server's copy comes back")
  func damagedRecordIsNotSent() throws {
    var server = SimulatedServer()
    var phone = try device("phone")
    try phone.create(try note("n1", title: "synced"), at: server.now)
    phone.sync(with: &server)
    try phone.edit(try RecordID(recordName: "n1", zoneID: zone), setting: ["title": "unsent"], at: server.now)
    let id = try RecordID(recordName: "n1", zoneID: zone)
    let damaged = phone.corruptStoredRecord(id)
    #expect(damaged)
    phone.sync(with: &server)
    #expect(!serverHoldsDamage(server))
    #expect(phone.storage.damagedRecordsDiscarded == 1)
    #expect(phone.record(id)?["title"] == "synced")
    #expect(phone.records == server.records(in: zone, ownedBy: "_alice"))
    #expect(phone.diagnostics.lastError?.contains("damaged") == true)
  }

  @Test("an edit of a damaged record fails with recordDamaged, and the next sync restores it")
  func editOfDamagedRecordFails() throws {
    var server = SimulatedServer()
    var phone = try device("phone")
    let id = try RecordID(recordName: "n1", zoneID: zone)
    try phone.create(try note("n1", title: "synced"), at: server.now)
    phone.sync(with: &server)
    phone.corruptStoredRecord(id)
    do {
      try phone.edit(id, setting: ["title": "x"], at: server.now)
      Issue.record("an edit of a damaged record succeeded")
    } catch {
      #expect(error == .recordDamaged(id))
    }
    #expect(phone.record(id) == nil)
    phone.sync(with: &server)
    #expect(phone.record(id)?["title"] == "synced")
  }

  @Test("a relaunch checks the whole store; a fetched change never merges into a damaged copy")
  func relaunchAndFetchCheck() throws {
    var server = SimulatedServer()
    var phone = try device("phone")
    var mac = try device("mac")
    let a = try RecordID(recordName: "a", zoneID: zone)
    let b = try RecordID(recordName: "b", zoneID: zone)
    try phone.create(try note("a", title: "a1"), at: server.now)
    try phone.create(try note("b", title: "b1"), at: server.now)
    phone.sync(with: &server)
    mac.sync(with: &server)
    phone.corruptStoredRecord(a)
    phone.crash()
    #expect(phone.record(a) == nil)
    #expect(phone.storage.damagedRecordsDiscarded == 1)
    // A damaged copy meets a newer server version: the server's copy replaces it.
    try mac.edit(b, setting: ["title": "b2"], at: server.now)
    mac.sync(with: &server)
    phone.corruptStoredRecord(b)
    phone.sync(with: &server)
    #expect(phone.record(a)?["title"] == "a1")
    #expect(phone.record(b)?["title"] == "b2")
    #expect(!serverHoldsDamage(server))
    #expect(phone.records == server.records(in: zone, ownedBy: "_alice"))
  }

  @Test(
    "random hostile runs with damaged storage: nothing damaged reaches the server and every device converges",
    arguments: [ResolverChoice.serverLastWriterWins, .fieldMerge, .hybridLogicalClock])
  func randomRunsNeverUploadDamage(resolver: ResolverChoice) throws {
    var damaged = 0
    var discarded = 0
    for seed in TestSeeds.seeds(1...40) {
      var simulation = Simulation(
        seed: seed, configuration: SimulationConfiguration(steps: 150, resolver: resolver, faults: .hostile))
      let result = simulation.run()
      damaged += result.steps.filter { if case .fault(.corruptStorage) = $0 { true } else { false } }.count
      discarded += simulation.clients.compactMap { ($0 as? SimulatedDevice)?.storage.damagedRecordsDiscarded }.reduce(
        0, +)
      #expect(result.passed, "\(result.violations); \(TestSeeds.replay(seed, test: "StorageIntegrityTests"))")
    }
    // The runs must actually damage records and the devices must actually find them, or this proves nothing.
    #expect(damaged > 20 && discarded > 10, "\(damaged) damaging steps, \(discarded) records found damaged")
  }

  // A crash clears a halt too (the relaunched app tries again), so this asks everything short of a relaunch.
  @Test("a halted device sends nothing, whatever it is asked, until restarted")
  func haltedDeviceIsSilent() throws {
    var server = SimulatedServer()
    var phone = try device("phone")
    try phone.create(try note("n1", title: "t"), at: server.now)
    server.injectFailure(.notAuthenticated, count: 1, device: "phone")
    phone.sync(with: &server)
    #expect(phone.isHalted)
    var sent = 0
    for second in 0..<600 {
      let now = server.now.addingTimeInterval(TimeInterval(second))
      phone.requestSync()
      if second % 60 == 0 { phone.goOffline() } else if second % 60 == 30 { phone.goOnline() }
      if phone.nextRequest(at: now) != nil { sent += 1 }
      phone.checkTimeout(at: now)
    }
    #expect(sent == 0)
    phone.restart()
    #expect(phone.nextRequest(at: server.now) != nil)
  }
}
