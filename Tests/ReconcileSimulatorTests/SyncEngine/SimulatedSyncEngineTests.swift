import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// Delegates written outside the module, each wrapping the example delegate and changing how it handles events; the
/// rest forwards (``ExampleSyncDelegateWrapper``).
typealias WrappingDelegate = ExampleSyncDelegateWrapper

/// Records every event it is handed.
struct RecordingDelegate: WrappingDelegate {
  var inner: ExampleSyncDelegate
  var events: [String] = []

  init(setup: ClientSetup) { inner = ExampleSyncDelegate(setup: setup) }

  mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    events.append(Self.name(of: event))
    inner.handleEvent(event, syncEngine: &syncEngine)
  }

  static func name(of event: SyncEngine.Event) -> String {
    switch event {
    case .stateUpdate: "stateUpdate"
    case .accountChange(let change): "accountChange \(change)"
    case .fetchedDatabaseChanges: "fetchedDatabaseChanges"
    case .fetchedRecordZoneChanges: "fetchedRecordZoneChanges"
    case .sentDatabaseChanges: "sentDatabaseChanges"
    case .sentRecordZoneChanges: "sentRecordZoneChanges"
    case .willFetchChanges: "willFetchChanges"
    case .willFetchRecordZoneChanges: "willFetchRecordZoneChanges"
    case .didFetchRecordZoneChanges(_, let error?): "didFetchRecordZoneChanges(\(error.code))"
    case .didFetchRecordZoneChanges: "didFetchRecordZoneChanges"
    case .didFetchChanges: "didFetchChanges"
    case .willSendChanges: "willSendChanges"
    case .didSendChanges: "didSendChanges"
    }
  }
}

/// A broken delegate: it skips deletions in fetched changes.
struct DeletionDroppingDelegate: WrappingDelegate {
  var inner: ExampleSyncDelegate
  init(setup: ClientSetup) { inner = ExampleSyncDelegate(setup: setup) }
  mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    if case .fetchedRecordZoneChanges(var changes) = event {
      changes.deletions = []
      inner.handleEvent(.fetchedRecordZoneChanges(changes), syncEngine: &syncEngine)
      return
    }
    inner.handleEvent(event, syncEngine: &syncEngine)
  }
}

@Suite("Sync engine: a CKSyncEngine-shaped engine drives the app's delegate under the simulation")
struct SimulatedSyncEngineTests {
  static let recording = ClientUnderTest(name: "recording") { try SimulatedSyncEngine<RecordingDelegate>(setup: $0) }
  static let dropping = ClientUnderTest(name: "deletion-dropping") {
    try SimulatedSyncEngine<DeletionDroppingDelegate>(setup: $0)
  }

  static func configuration(skew: Int, faults: FaultProfile = .none, client: ClientUnderTest = .syncEngine)
    -> SimulationConfiguration
  {
    var configuration = SimulationConfiguration(
      steps: 60, resolver: .serverLastWriterWins, deletePolicy: .editWins, faults: faults)
    configuration.client = client
    configuration.maximumClockSkew = skew
    return configuration
  }

  @Test("the example delegate keeps every invariant with true clocks and a perfect network")
  func exampleHoldsWithTrueClocks() {
    let report = PropertyRunner(configuration: Self.configuration(skew: 0), seeds: 0..<40).run()
    #expect(report.failures.isEmpty, "\(report)")
    // The runs must sync and collide, or passing proves nothing.
    #expect(report.requests > 1_000)
    #expect(report.conflicts > 50)
  }

  @Test(
    "with true clocks the example delegate survives crashes, torn crashes, zone deletions, throttling and lowered limits",
    arguments: [FaultProfile.hostile, .swarm])
  func exampleHoldsUnderFaults(_ faults: FaultProfile) {
    let report = PropertyRunner(configuration: Self.configuration(skew: 0, faults: faults), seeds: 0..<40).run()
    #expect(report.failures.isEmpty, "\(report)")
    #expect(report.runsReaching["tornCrash", default: 0] > 0)
  }

  @Test("the runner finds the Apple sample rules' clock-skew loss and shrinks it to a replayable script")
  func runnerFindsClockSkewLoss() throws {
    let report = PropertyRunner(configuration: Self.configuration(skew: 120, client: .syncEngineSample), seeds: 0..<40)
      .run()
    let failure = try #require(report.failures.first)
    #expect(failure.violation.invariant == .convergence)
    #expect(failure.steps.count <= 15, "\(failure.script)")
    #expect(failure.script.contains("client sync-engine-sample"))
    let skewed = failure.script.split(separator: "\n").filter {
      $0.hasPrefix("device add") && !$0.contains("--clock-offset 0s")
    }
    #expect(!skewed.isEmpty, "the counterexample needs a skewed clock:\n\(failure.script)")

    let replayed = try Simulation.replay(failure.script)
    #expect(!replayed.passed)
    // With every clock true the same steps keep every invariant: the skew is the cause.
    let trueClocks = failure.script.split(separator: "\n").map { line in
      line.hasPrefix("device add")
        ? Substring(line.replacing(/--clock-offset -?\d+s/, with: "--clock-offset 0s")) : line
    }.joined(separator: "\n")
    #expect(try Simulation.replay(trueClocks).passed)
  }

  /// Runs `script` (devices d1 and d2 on the recording client) without quiescing; returns both devices.
  static func recorded(_ script: String) throws -> (
    d1: SimulatedSyncEngine<RecordingDelegate>, d2: SimulatedSyncEngine<RecordingDelegate>
  ) {
    var simulation = Simulation(script: try SimulationScript.parse(script, clients: [Self.recording]))
    _ = simulation.run(quiescing: false)
    return (
      try #require(simulation.client(named: "d1") as? SimulatedSyncEngine<RecordingDelegate>),
      try #require(simulation.client(named: "d2") as? SimulatedSyncEngine<RecordingDelegate>)
    )
  }

  @Test("a fetch and a send deliver CKSyncEngine's events in CKSyncEngine's order")
  func eventsArriveInOrder() throws {
    let script = """
      client recording
      resolver server-lww
      delete-policy editWins
      schemas none
      device add d1
      device add d2
      d1 create Note/r1 title="hello"
      advance 5s
      d2 sync
      advance 5s
      """
    let (d1, d2) = try Self.recorded(script)
    let send = ["willSendChanges", "sentDatabaseChanges", "stateUpdate", "sentRecordZoneChanges", "stateUpdate"]
    #expect(d1.delegate.events.joined(separator: " ").contains(send.joined(separator: " ")), "\(d1.delegate.events)")
    let fetch = [
      "willFetchChanges", "fetchedDatabaseChanges", "stateUpdate", "willFetchRecordZoneChanges",
      "fetchedRecordZoneChanges", "stateUpdate", "didFetchRecordZoneChanges", "didFetchChanges",
    ]
    #expect(d2.delegate.events.joined(separator: " ").contains(fetch.joined(separator: " ")), "\(d2.delegate.events)")
    #expect(d2.records.map(\.recordID.recordName) == ["r1"])
    #expect(d2.pendingChangeCount == 0)
  }

  @Test(
    "an expired zone token ends that zone's fetch with the error; the database feed is read again, then the whole zone")
  func expiredZoneTokenIsAnnounced() throws {
    // d2 knows r1 and r2; r2 is deleted while d2 is away and the history that reported it is compacted, so only a
    // fetch from the beginning, which no longer lists r2, can tell d2 it is gone.
    let script = """
      client recording
      resolver server-lww
      delete-policy deleteWins
      schemas none
      device add d1
      device add d2
      d1 create Note/r1 title="one"
      d1 create Note/r2 title="two"
      advance 5s
      d2 sync
      advance 5s
      d1 delete Note/r2
      d1 sync
      advance 5s
      fault expire-tokens
      d2 sync
      advance 5s
      """
    let (_, d2) = try Self.recorded(script)
    let events = d2.delegate.events.joined(separator: " ")
    // The database feed is read again before the zone is listed from its beginning: it would report the zone deleted
    // and created again, with the reason.
    let restart = [
      "willFetchRecordZoneChanges", "didFetchRecordZoneChanges(changeTokenExpired (21))", "stateUpdate",
      "fetchedDatabaseChanges", "stateUpdate", "willFetchRecordZoneChanges", "fetchedRecordZoneChanges",
    ]
    #expect(events.contains(restart.joined(separator: " ")), "\(d2.delegate.events)")
    #expect(d2.records.map(\.recordID.recordName) == ["r1"])
  }

  @Test("a broken delegate written outside the module is caught, shrunk, and replayed by name")
  func outsideDelegateIsCaught() throws {
    let report = PropertyRunner(configuration: Self.configuration(skew: 0, client: Self.dropping), seeds: 0..<40).run()
    let failure = try #require(report.failures.first)
    #expect(failure.violation.invariant == .convergence)
    #expect(failure.steps.count <= 15, "\(failure.script)")
    #expect(failure.script.contains("client deletion-dropping"))
    #expect(!(try Simulation.replay(failure.script, clients: [Self.dropping])).passed)
    #expect(throws: SimulationScript.ParseError.self) { try Simulation.replay(failure.script) }
  }

  @Test("the engine survives torn crashes: the app relaunches from the state it persisted")
  func tornCrashesAreSurvived() {
    var torn = 0
    for seed in UInt64(0)..<30 {
      var configuration = Self.configuration(skew: 0, faults: .hostile)
      configuration.steps = 40
      var simulation = Simulation(seed: seed, configuration: configuration)
      let result = simulation.run()
      torn += result.statistics.tornCrashes
      #expect(!result.violations.contains { $0.invariant == .serverInvariants }, "seed \(seed): \(result.violations)")
    }
    #expect(torn > 0, "no torn crash landed inside the engine")
  }

  @Test(
    "the built-in delegate merges with the run's resolver and keeps a newer app's keys",
    arguments: [
      (ResolverChoice.fieldMerge, SchemaScenario.none), (.fieldMerge, .minorUpgrade),
      (.hybridLogicalClock, .majorUpgrade),
    ])
  func builtInDelegateKeepsEveryContract(_ resolver: ResolverChoice, _ schemas: SchemaScenario) {
    var configuration = SimulationConfiguration(
      steps: 100, resolver: resolver, deletePolicy: .deleteWins, faults: .flaky, schemas: schemas)
    configuration.client = .syncEngine
    configuration.maximumClockSkew = 0
    let report = PropertyRunner(configuration: configuration, seeds: 0..<40).run()
    #expect(report.failures.isEmpty, "\(report)")
    // The runs must merge, or passing proves nothing.
    #expect(report.conflicts > 50)
  }

  @Test("Apple's sample rules merge by their own rule, so a run naming another resolver is refused by name")
  func sampleRulesRefuseAnotherResolver() throws {
    let script = """
      client sync-engine-sample
      resolver field-merge
      device add d1 --clock-offset 0s
      d1 create Note/r1 title="x"
      """
    #expect {
      try Simulation.replay(script)
    } throws: { error in
      "\(error)".contains("sync-engine-sample merges by its own rule") && "\(error)".contains("server-lww")
    }
    let accepted = script.replacing("resolver field-merge", with: "resolver server-lww")
    #expect(try Simulation.replay(accepted).passed)
  }
}
