import Foundation
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// The zoo of classic sync-engine bugs: each ``ClientDefect`` is the reference client with one mistake from the field.
/// Within the CI budget the property runner must find every one, report it under the invariant that names it, and
/// shrink it to a short script that replays — and that passes once the defect line is removed, so the defect (not the
/// steps) is what broke the invariant.
@Suite("Zoo: the runner catches every classic sync bug and shrinks it")
struct SyncBugZooTests {
  /// Seeds the runner may spend on one defect in CI.
  static let budget: UInt64 = 300

  /// The defects in how a client answers an account change.
  static let accountDefects: Set<ClientDefect> = [
    .keepDataAcrossAccounts, .uploadPendingToNewAccount, .keepSyncStateAcrossAccounts,
  ]

  /// Stripping unknown keys also drops another device's values, which field-merge's lost-write contract reports first;
  /// server last-writer-wins promises no such contract, so the run names the invariant made for this bug.
  ///
  /// The account defects run with account changes as the only fault, drawn in every run: they need a device to leave
  /// an account and come back, which swarm runs, drawing account changes in a third of seeds among every other fault,
  /// reach only every few hundred seeds.
  static func configuration(for defect: ClientDefect) -> SimulationConfiguration {
    let accountsOnly = FaultProfile.hostile.without(Set(FaultKind.allCases).subtracting([.accountChange]))
    var configuration = SimulationConfiguration(
      steps: 60, resolver: defect == .stripUnknownKeys ? .serverLastWriterWins : .fieldMerge,
      faults: accountDefects.contains(defect) ? accountsOnly : .swarm,
      schemas: defect == .stripUnknownKeys ? .minorUpgrade : .none)
    configuration.defects = [defect]
    configuration.deletePolicy = defect.deletePolicy
    // A device showing its damaged copy also differs from the server; the run judges the invariant made for the bug,
    // which must catch it on its own.
    if defect == .skipStorageCheck { configuration.invariants = [defect.caughtBy] }
    return configuration
  }

  @Test(
    "the runner catches the defect within the budget and shrinks it to at most 15 steps",
    arguments: ClientDefect.allCases)
  func runnerCatchesAndShrinks(_ defect: ClientDefect) throws {
    let report = PropertyRunner(configuration: Self.configuration(for: defect), seeds: 0..<Self.budget).run()
    let found = report.failures.first
    SweepBudget(everyDepth: (Self.budget, 60)).reportCatch("zoo defect \(defect.rawValue)", found)
    let failure = try #require(
      found, "\(defect) was not caught in \(Self.budget) seeds (replay: swift test --filter SyncBugZooTests)")
    #expect(failure.violation.invariant == defect.caughtBy, "\(defect): \(failure)")
    #expect(failure.steps.count <= 15, "\(defect) shrank only to \(failure.steps.count) steps:\n\(failure.script)")

    let replayed = try Simulation.replay(failure.script)
    #expect(
      replayed.violations.contains { $0.invariant == defect.caughtBy }, "\(defect) did not replay:\n\(failure.script)")

    let repaired = failure.script.split(separator: "\n").filter { $0 != "defect \(defect.rawValue)" }.joined(
      separator: "\n")
    let healthy = try Simulation.replay(repaired)
    #expect(healthy.passed, "\(defect): the shrunk script fails without the defect too:\n\(healthy.violations)")
  }
}
