import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// An app that writes its metadata and its store apart (``TwoWriteDelegate``), under the simulation's faults: a torn
/// crash strikes between the two writes of an event or of a user's operation, and every invariant must hold as for an
/// app that writes once. Each order the contract rules out must be caught, by the invariant its loss breaks.
@Suite("Persistence in two writes: torn crashes between the metadata and the store, judged")
struct TwoWritePersistenceTests {
  static func client(_ order: TwoWriteDelegate.Order, name: String) -> ClientUnderTest {
    ClientUnderTest(name: name) { setup in
      SimulatedSyncEngine(delegate: TwoWriteDelegate(setup: setup, order: order), setup: setup)
    }
  }

  static func report(
    _ order: TwoWriteDelegate.Order, name: String, seeds: Range<UInt64>, steps: Int = 60,
    resolver: ResolverChoice = .fieldMerge, deletePolicy: DeletePolicy = .deleteWins,
    faults: FaultProfile = .hostile, maximumFailures: Int? = nil
  ) -> PropertyReport {
    var configuration = SimulationConfiguration(
      steps: steps, resolver: resolver, deletePolicy: deletePolicy, faults: faults)
    configuration.client = client(order, name: name)
    configuration.maximumClockSkew = 0
    return PropertyRunner(configuration: configuration, seeds: seeds, maximumFailures: maximumFailures).run()
  }

  /// The contract's sweep: each resolver family, both delete policies, the two fault profiles with crashes.
  static let budget = SweepBudget(unit: (12, 60), quick: (100, 100), full: (500, 200))
  static let cells: [(ResolverChoice, DeletePolicy, FaultProfile)] = [ResolverChoice.fieldMerge, .merging].flatMap {
    resolver in
    DeletePolicy.allCases.flatMap { policy in [FaultProfile.hostile, .swarm].map { (resolver, policy, $0) } }
  }

  @Test("metadata first, carrying the store's writes: every invariant holds through crashes torn between the two")
  func contractHolds() {
    var tornRuns = 0
    for (resolver, policy, faults) in Self.cells {
      let report = Self.report(
        .metadataThenStore, name: "two-writes", seeds: Self.budget.seeds, steps: Self.budget.steps,
        resolver: resolver, deletePolicy: policy, faults: faults, maximumFailures: 1)
      let cell = "two-writes \(resolver.rawValue) \(policy) \(faults.name)"
      Self.budget.report(
        "persistence in two writes: \(cell)", failures: report.failures.count,
        detail: report.failures.first.map { "seed \($0.seed.map(String.init) ?? "?")" } ?? "")
      #expect(report.failures.isEmpty, "\(cell): \(report.failures.first.map { "\($0.script)" } ?? "")")
      tornRuns += report.runsReaching["tornCrash", default: 0]
    }
    // Torn crashes must strike, or passing proves nothing.
    #expect(tornRuns > 20, "\(tornRuns) runs with a torn crash")
  }

  @Test("metadata first but carrying nothing: a user's change torn from the store is lost, and caught")
  func metadataCarryingNothingIsCaught() throws {
    let report = Self.report(
      .metadataCarryingNothingThenStore, name: "two-writes-carrying-nothing", seeds: 0..<100, maximumFailures: 1)
    let failure = try #require(report.failures.first, "passed \(report.seedsRun) seeds")
    #expect(failure.description.contains("crashed between two persistence writes of the user's operation"))
    #expect([.oneSidedChangesKept, .noLostRecords].contains(failure.violation.invariant), "\(failure)")
  }

  @Test("store first: a user's deletion torn from the metadata comes back, and is caught")
  func storeFirstIsCaught() throws {
    let report = Self.report(.storeThenMetadata, name: "store-then-metadata", seeds: 0..<300, maximumFailures: 1)
    let failure = try #require(report.failures.first, "passed \(report.seedsRun) seeds")
    #expect(failure.violation.invariant == .noResurrection, "\(failure)")
  }
}

extension TwoWritePersistenceTests {
  /// Seed 32 of the contract's sweep (merging, deleteWins, hostile), shrunk: a crash after the user's deletion was
  /// written, before the engine's state update, left the engine a save pending from an earlier edit; the launch took it
  /// for the deletion, and the deletion was never sent.
  @Test("a deletion torn from the engine's state is queued again at launch, though a save of the record is pending")
  func deletionTornFromTheEngineIsQueuedAgain() throws {
    let script = """
      client two-writes
      resolver merging
      delete-policy deleteWins
      schemas none
      device add d1 --clock-offset 0s
      device add d3 --clock-offset 0s
      send-after-edits
      steps-may-skip
      limit conflict-without-record-every 2
      d1 create Note/r2 title="d1.17"
      d3 sync
      fault quota-full 39s
      d3 edit Note/r2 title="d3.46"
      fault torn-crash d3
      d3 delete Note/r2
      quiesce
      expect invariants
      """
    let result = try Simulation.replay(script, clients: [Self.client(.metadataThenStore, name: "two-writes")])
    #expect(result.trace.contains { "\($0)".contains("crashed between two persistence writes") })
    #expect(result.violations.isEmpty, "\(result.violations)")
  }
}
