import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// The examples of the DocC article "Testing your sync logic with the simulator", as written.
@Suite("Article: Testing your sync logic with the simulator")
struct TestingArticleTests {
  struct NotesResolver: ConflictResolver {
    func resolve(_ conflict: Conflict) throws -> Record {
      try FieldMerge(.editCount(key: "editCount"), overrides: ["tags": .listUnion]).resolve(conflict)
    }
  }

  @Test("a resolver of your own keeps the one-sided-changes promise over seeded runs")
  func pluggedInResolver() {
    let mine = ResolverUnderTest(
      name: "notes-merge", resolver: NotesResolver(),
      bookkeeping: EditBookkeeping(editCountKey: "editCount"),
      lostWriteContract: .oneSidedChangesKept)
    let report = PropertyRunner(
      configuration: SimulationConfiguration(resolver: mine, faults: .flaky), seeds: 0..<20
    ).run()
    #expect(report.passed, "\(report)")
    #expect(report.seedsRun == 20)
  }

  @Test("the article's replay script loses d2's rank under server last-writer-wins")
  func articleScriptReplays() throws {
    let script = """
      resolver server-lww
      delete-policy deleteWins
      schemas none
      device add d1 --clock-offset 0s
      device add d2 --clock-offset 0s
      invariants oneSidedChangesKept
      d2 create Note/r16 rank=130 title="d2.130"
      d2 sync
      advance 5s
      d1 sync
      advance 5s
      d2 edit Note/r16 rank=153
      d1 edit Note/r16 title="d1.159"
      d1 sync
      advance 5s
      d2 sync
      quiesce
      expect invariants
      """
    let result = try Simulation.replay(script)
    let violation = try #require(result.violations.first)
    #expect(violation.invariant == .oneSidedChangesKept)
    #expect(violation.message.contains("d2 set rank of r16 to 153"))
    // The same steps under field merge keep both edits.
    let merged = try Simulation.replay(script.replacingOccurrences(of: "server-lww", with: "field-merge"))
    #expect(merged.passed, "\(merged.violations)")
  }

  @Test("driving the server directly: a stale save gets serverRecordChanged")
  func driveTheServer() throws {
    var server = SimulatedServer()
    let phone = ClientIdentity(userRecordName: "_alice", deviceName: "phone")
    let notes = try ZoneID(zoneName: "Notes")
    _ = try server.modifyZones(ModifyZonesRequest(saving: [RecordZone(zoneID: notes)]), as: phone)

    var note = Record(recordType: "Note", recordID: try RecordID(recordName: "n1", zoneID: notes))
    note["title"] = "Hello"
    let saved = try server.modifyRecords(ModifyRecordsRequest(saving: [note]), as: phone).saved[0]

    var stale = saved
    stale["title"] = "Changed on the phone"
    var fresh = saved
    fresh["title"] = "Changed on the Mac"
    _ = try server.modifyRecords(ModifyRecordsRequest(saving: [fresh]), as: phone)
    let reply = try server.modifyRecords(ModifyRecordsRequest(saving: [stale]), as: phone)
    guard let failure = reply.failures[stale.recordID], failure.code == .serverRecordChanged else {
      Issue.record("expected serverRecordChanged, got \(String(describing: reply.failures[stale.recordID]))")
      return
    }
    let (ancestor, current) = (failure.ancestorRecord, failure.serverRecord)
    #expect(current?["title"] == "Changed on the Mac")
    #expect(ancestor?["title"] == "Hello")
  }

  @Test("a shard string from a CI matrix picks one slice of the seeds")
  func shardFromMatrix() throws {
    let shard = try Shard(parsing: "3/16")
    let runner = PropertyRunner(
      configuration: SimulationConfiguration(steps: 20), seeds: 0..<64, shard: shard)
    let report = runner.run()
    #expect(report.seedsRun == 4)
    #expect(report.passed, "\(report)")
  }
}
