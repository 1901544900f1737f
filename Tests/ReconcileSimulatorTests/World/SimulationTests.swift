import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

@Suite("Simulation: determinism, replay, shards and custom resolvers")
struct SimulationTests {
  @Test("the same seed gives a byte-identical trace; another seed does not", arguments: TestSeeds.seeds(0...4))
  func sameSeedSameTrace(seed: UInt64) {
    let configuration = SimulationConfiguration(
      deviceCount: 4, steps: 150, resolver: .hybridLogicalClock, faults: .hostile)
    var first = Simulation(seed: seed, configuration: configuration)
    var second = Simulation(seed: seed, configuration: configuration)
    var other = Simulation(seed: seed + 1_000, configuration: configuration)
    let a = first.run()
    let b = second.run()
    #expect(
      a.trace.joined(separator: "\n") == b.trace.joined(separator: "\n"),
      "\(TestSeeds.replay(seed, test: "sameSeedSameTrace"))")
    #expect(a.trace != other.run().trace)
    #expect(a.statistics == b.statistics)
  }

  @Test("a run's script replays it exactly: same steps, same trace", arguments: TestSeeds.seeds(10...14))
  func scriptReplaysRun(seed: UInt64) throws {
    let configuration = SimulationConfiguration(
      steps: 120, resolver: .editCount, faults: .hostile, schemas: .minorUpgrade)
    var simulation = Simulation(seed: seed, configuration: configuration)
    let result = simulation.run()
    let parsed = try SimulationScript.parse(result.script)
    #expect(parsed.steps == result.steps)
    #expect(parsed.setup == result.setup)
    let replayed = try Simulation.replay(result.script)
    #expect(replayed.trace == result.trace, "\(TestSeeds.replay(seed, test: "scriptReplaysRun"))")
  }

  @Test("a script saved with the halted-device invariant's old name still parses")
  func oldInvariantName() throws {
    let parsed = try SimulationScript.parse(
      "resolver server-lww\ndevice add a\ninvariants convergence haltedDeviceWritesNothing\nquiesce\nexpect invariants")
    #expect(parsed.invariants == [.convergence, .haltedDeviceSendsNothing])
  }

  @Test("every step survives a round trip through its script line")
  func stepLinesRoundTrip() throws {
    var contact = Record(
      recordType: "Contact", recordID: try RecordID(recordName: "c1", zoneID: Simulation.zoneID))
    contact["name"] = "Al"
    let steps: [SimulationStep] = [
      .createNote(device: "a", name: "r1", values: ["title": "say \"hi\" \\ bye", "rank": 3, "score": 1.5]),
      .editNote(device: "a", name: "r1", values: ["title": "x", "body": FieldValue?.none]),
      .deleteNote(device: "a", name: "r1"), .sync(device: "a"), .crash(device: "a"), .offline(device: "a"),
      .online(device: "a"), .upgrade(device: "a"), .clockJump(device: "a", seconds: -90),
      .clockJump(device: "a", seconds: 5), .clockJump(device: "a", seconds: 0.5),
      .advance(seconds: 30), .advance(seconds: 1.5), .restart(device: "a"),
      .create(device: "a", record: contact),
      .edit(device: "a", type: "Contact", record: contact.recordID, values: ["name": "Bo"]),
      .delete(device: "a", type: "Contact", record: contact.recordID),
      .fault(.serverError(code: .zoneBusy, count: 2, device: "a", retryAfter: 5)),
      .fault(.serverError(code: .notAuthenticated, count: 1, device: nil, retryAfter: 10)),
      .fault(.disconnectAfterSave(device: "a")), .clearFaults, .fault(.loseRequest(device: "a")),
      .fault(.loseResponse(device: "a")),
      .fault(.duplicate(device: "a")), .fault(.delay(device: "a", seconds: 20)),
      .fault(.transient(device: "a", error: "zoneBusy", retryAfter: 5)), .fault(.throttle(seconds: 30)),
      .fault(.expireTokens), .fault(.deleteZone), .fault(.corruptStorage(device: "a", record: "r1")),
      .fault(.tornCrash(device: "a")), .fault(.tornCrash(device: "a", afterWrites: 2)), .fault(.expireDatabaseTokens),
      .fault(.quotaFull(seconds: 45)),
      .fault(.itemTransient(device: "a", error: "serviceUnavailable", retryAfter: 3)),
    ]
    let setup = SimulationSetup(
      resolver: ResolverUnderTest(.fieldMerge), deletePolicy: .editWins, schemas: .majorUpgrade,
      devices: [DeviceSetup(name: "a", clockOffset: -120, upgraded: true)])
    let text = SimulationScript.render(setup: setup, steps: steps, invariants: [.convergence, .liveness])
    let parsed = try SimulationScript.parse(text)
    #expect(parsed.steps == steps)
    #expect(parsed.setup == setup)
    #expect(parsed.invariants == [.convergence, .liveness])
    #expect(parsed.quiesces && parsed.expectsInvariants)
  }

  @Test(
    "a bad script line is reported with its line number and the offending token",
    arguments: [
      ("resolver nope", 1, "nope"), ("device add a\na jump", 2, "jump"),
      ("device add a\na edit Note/r1 title", 2, "title"),
      ("fault delay a soon", 1, "soon"), ("b sync", 1, "b"), ("device add a\na create Note/r1 t=\"open", 2, "t=\"open"),
      ("invariants convergence nonsense", 1, "nonsense"), ("advance -3s", 1, "-3s"),
    ])
  func parseErrorsNameLineAndToken(script: String, line: Int, token: String) {
    do {
      _ = try SimulationScript.parse(script)
      Issue.record("expected a parse error for \(script)")
    } catch {
      #expect(error.line == line)
      #expect(error.token == token, "\(error)")
    }
  }

  @Test("shards split the seeds without overlap, and merged reports add up")
  func shards() throws {
    let configuration = SimulationConfiguration(deviceCount: 2, steps: 30, resolver: .fieldMerge)
    let whole = PropertyRunner(configuration: configuration, seeds: 0..<12).run()
    let parts = try (0..<3).map { index in
      PropertyRunner(configuration: configuration, seeds: 0..<12, shard: try Shard(index: index, of: 3)).run()
    }
    #expect(parts.map(\.seedsRun) == [4, 4, 4])
    let merged = try #require(PropertyReport.merged(parts))
    #expect(merged.seedsRun == whole.seedsRun)
    #expect(merged.requests == whole.requests)
    #expect(try Shard(parsing: "1/3") == Shard(index: 1, of: 3))
    #expect(try Shard(parsing: "2 of 4") == Shard(index: 2, of: 4))
    #expect(throws: ShardError.self) { try Shard(parsing: "3/3") }
    #expect(throws: ShardError.self) { try Shard(parsing: "x") }
  }

  @Test("a resolver of your own plugs in, and its promised contract is checked")
  func customResolver() throws {
    // A resolver that keeps the client's version of every key is "client wins": it promises nothing, so checking it
    // against the one-sided-changes contract must find a loss, which replays through its name.
    let clientWins = ResolverUnderTest(
      name: "client-wins", resolver: CustomResolver { conflict in conflict.client },
      lostWriteContract: .oneSidedChangesKept)
    let report = PropertyRunner(
      configuration: SimulationConfiguration(steps: 200, resolver: clientWins, faults: .flaky), seeds: 0..<40
    ).run()
    let failure = try #require(report.failures.first)
    #expect(failure.script.contains("resolver client-wins"))
    let replayed = try Simulation.replay(failure.script, resolvers: [clientWins])
    #expect(!replayed.passed)
    #expect(throws: SimulationScript.ParseError.self) { try Simulation.replay(failure.script) }
  }

  /// The app-upgrade sweep's budget: 60 seeds at every depth before it moved to the deep sweep.
  static let upgrades = SweepBudget(unit: (12, 200), quick: (60, 200), full: (500, 200))

  @Test(
    "app upgrades: old devices keep unknown keys (minor) or halt and resume after upgrading (major)",
    arguments: [SchemaScenario.minorUpgrade, .majorUpgrade])
  func schemaScenarios(scenario: SchemaScenario) {
    let budget = Self.upgrades
    let configuration = SimulationConfiguration(
      steps: budget.steps, resolver: .fieldMerge, faults: .flaky, schemas: scenario)
    let report = PropertyRunner(configuration: configuration, seeds: budget.seeds).run()
    #expect(report.passed, "\(report)")
    // The runs reach what the scenario is about: an old app keeping keys it does not know (minor), or halting on a
    // newer app's record (major).
    let reached =
      scenario == .majorUpgrade
      ? report.runsReaching["halt", default: 0] : report.runsExercising[.unknownKeysKept, default: 0]
    #expect(reached > 0, "no run reached what \(scenario) tests: \(report.coverage)")
    budget.report(
      "app upgrades \(scenario)", failures: report.failures.count + (reached > 0 ? 0 : 1),
      detail: "\(reached) runs reached it")
  }

  @Test("a scripted schema halt: the 1.0 device's edit meets a 2.0 record and is not written until it upgrades")
  func scriptedSchemaHalt() throws {
    let script = """
      resolver field-merge
      schemas major
      device add new --upgraded
      device add old
      old create Note/r1 title="hello"
      old sync
      advance 5s
      new sync
      advance 5s
      old edit Note/r1 title="mine"
      new edit Note/r1 color="red"
      new sync
      advance 5s
      old sync
      old sync
      advance 5s
      """
    let result = try Simulation.replay(script)
    #expect(result.trace.contains { $0.contains("old halted: schema") })
    let halted = try #require(result.trace.firstIndex { $0.contains("old halted: schema") })
    #expect(!result.trace[halted...].contains { $0.contains("old: saved") })
    #expect(result.passed)
  }
}
