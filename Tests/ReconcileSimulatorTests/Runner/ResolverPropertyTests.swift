import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// The property runs of every built-in resolver: flaky faults with 3 or 4 devices, and swarm runs through app
/// upgrades. `swift test` runs small budgets; `Scripts/deep-sweep.sh` runs 500 (CI) or 2,000 (nightly) seeds of
/// each in release.
@Suite("Simulation: every resolver keeps its invariants under flaky faults")
struct ResolverPropertyTests {
  static let flaky = SweepBudget(unit: (40, 100), quick: (500, 200), full: (2_000, 200))
  static let swarm = SweepBudget(unit: (40, 200), quick: (200, 200), full: (1_000, 200))

  @Test(
    "all invariants the resolver promises hold over the sweep's seeds under flaky faults",
    arguments: ResolverChoice.allCases)
  func invariantsHold(resolver: ResolverChoice) {
    // Even seeds with three devices, odd seeds with four.
    var failures = 0
    for devices in [3, 4] {
      let configuration = SimulationConfiguration(
        deviceCount: devices, steps: Self.flaky.steps, resolver: resolver, deletePolicy: .deleteWins, faults: .flaky)
      var runner = PropertyRunner(configuration: configuration, seeds: Self.flaky.seeds)
      runner.shard = try? Shard(index: devices - 3, of: 2)
      let report = runner.run()
      failures += report.failures.count
      #expect(report.passed, "\(report)")
      #expect(report.seedsRun >= Self.flaky.seeds.count / 2 || report.seedsRun <= 1)
    }
    Self.flaky.report("resolver \(resolver.rawValue) flaky", failures: failures)
  }

  @Test(
    "every resolver keeps its invariants under swarm testing, and the runs reach every path they claim to test",
    arguments: ResolverChoice.allCases)
  func swarmRuns(resolver: ResolverChoice) {
    // Half the seeds meet a major app upgrade (old devices halt), half a minor one (old devices keep unknown keys).
    var reports: [PropertyReport] = []
    let all = Self.swarm.seeds
    let half = all.lowerBound + UInt64(all.count / 2)
    for (scenario, seeds) in [
      (SchemaScenario.majorUpgrade, all.lowerBound..<half), (.minorUpgrade, half..<all.upperBound),
    ]
      as [(SchemaScenario, Range<UInt64>)]
    {
      let configuration = SimulationConfiguration(
        deviceCount: 3, steps: Self.swarm.steps, resolver: resolver, deletePolicy: .deleteWins, faults: .swarm,
        schemas: scenario)
      let report = PropertyRunner(configuration: configuration, seeds: seeds).run()
      #expect(report.passed, "\(report)")
      reports.append(report)
    }
    Self.swarm.report("resolver \(resolver.rawValue) swarm", failures: reports.reduce(0) { $0 + $1.failures.count })
    guard let total = PropertyReport.merged(reports), total.seedsRun > 2 else { return }
    // A property proved on runs that never reach a path proves nothing about it.
    #expect(total.pathsNeverReached.isEmpty, "\(total.coverage)")
    #expect(total.invariantsNeverExercised.isEmpty, "\(total.coverage)")
  }

  @Test("the coverage check fires: runs without faults or schemas never reach torn crashes, halts or damaged storage")
  func coverageNamesWhatWasNeverReached() {
    let configuration = SimulationConfiguration(steps: 60, resolver: .fieldMerge, faults: .none)
    let report = PropertyRunner(configuration: configuration, seeds: 0..<5).run()
    #expect(report.passed, "\(report)")
    #expect(report.pathsNeverReached.contains("tornCrash"), "\(report.coverage)")
    #expect(report.pathsNeverReached.contains("halt"), "\(report.coverage)")
    #expect(report.invariantsNeverExercised.contains(.haltedDeviceSendsNothing), "\(report.coverage)")
    #expect(report.invariantsNeverExercised.contains(.damagedDataNeverUploaded), "\(report.coverage)")
    #expect(report.coverage.contains("never reached:"))
  }

  @Test(
    "the last-writer-wins resolvers lose one-sided writes, and the runner shrinks the loss to at most 10 steps",
    arguments: [ResolverChoice.serverLastWriterWins, .localClock])
  func knownLostWriteIsFoundAndShrunk(resolver: ResolverChoice) throws {
    let configuration = SimulationConfiguration(
      steps: 200, resolver: resolver, faults: .flaky, invariants: [.oneSidedChangesKept])
    let report = PropertyRunner(configuration: configuration, seeds: TestSeeds.range(0..<50)).run()
    let failure = try #require(report.failures.first, "the runner should find the documented lost write")
    #expect(failure.violation.invariant == .oneSidedChangesKept)
    #expect(failure.steps.count <= 10, "\(failure)")
    // The printed script replays the same failure.
    let replayed = try Simulation.replay(failure.script)
    #expect(replayed.violations.contains { $0.invariant == .oneSidedChangesKept }, "\(failure.script)")
  }
}
