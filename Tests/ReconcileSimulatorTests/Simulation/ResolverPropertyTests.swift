import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// The CI property runs: every built-in resolver, 500 seeds × 200 steps with 3 or 4 devices and flaky faults, and
/// 200 swarm seeds.
@Suite("Simulation: every resolver keeps its invariants under flaky faults")
struct ResolverPropertyTests {
  static let seeds: Range<UInt64> = 0..<500

  @Test("all invariants the resolver promises hold over 500 seeds × 200 steps", arguments: ResolverChoice.allCases)
  func invariantsHold(resolver: ResolverChoice) {
    // Even seeds with three devices, odd seeds with four.
    for devices in [3, 4] {
      let configuration = SimulationConfiguration(
        deviceCount: devices, steps: 200, resolver: resolver, deletePolicy: .deleteWins, faults: .flaky)
      var runner = PropertyRunner(configuration: configuration, seeds: TestSeeds.range(Self.seeds))
      runner.shard = try? Shard(index: devices - 3, of: 2)
      let report = runner.run()
      #expect(report.passed, "\(report)")
      #expect(report.seedsRun >= 250 || report.seedsRun <= 1)
    }
  }

  @Test(
    "every resolver keeps its invariants under swarm testing, and the runs reach every path they claim to test",
    arguments: ResolverChoice.allCases)
  func swarmRuns(resolver: ResolverChoice) {
    // Half the seeds meet a major app upgrade (old devices halt), half a minor one (old devices keep unknown keys).
    var reports: [PropertyReport] = []
    for (scenario, seeds) in [(SchemaScenario.majorUpgrade, 0..<100), (.minorUpgrade, 100..<200)]
      as [(SchemaScenario, Range<UInt64>)]
    {
      let configuration = SimulationConfiguration(
        deviceCount: 3, steps: 200, resolver: resolver, deletePolicy: .deleteWins, faults: .swarm, schemas: scenario)
      let report = PropertyRunner(configuration: configuration, seeds: TestSeeds.range(seeds)).run()
      #expect(report.passed, "\(report)")
      reports.append(report)
    }
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
