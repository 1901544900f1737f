import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// The zoo of classic sync-engine bugs: each ``ClientDefect`` is the reference client with one mistake from the field.
/// Within the CI budget the property runner must find every one, report it under the invariant that names it, and
/// shrink it to a short script that replays — and that passes once the defect line is removed, so the defect (not the
/// steps) is what broke the invariant. The search runs in the deep sweep; `swift test` replays the scripts it found,
/// committed in `Tests/Zoo` (``ZooScripts``).
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
    // A token committed before its page is lost only to a torn crash between the two writes: since each page is one
    // event to the sync core, one write, swarm runs strike there every few hundred seeds; torn crashes alone, often.
    let tornCrashesOnly = FaultProfile.hostile.without(Set(FaultKind.allCases).subtracting([.tornCrash]))
    // A deletion sent without a fetch needs a record deleted and created anew elsewhere that this device has not
    // fetched yet: runs without faults, whose devices sync less often, and longer ones reach it within the budget.
    let blindDeletion = defect == .sendDeletionsWithoutFetch
    var configuration = SimulationConfiguration(
      steps: blindDeletion ? 100 : 60, resolver: defect == .stripUnknownKeys ? .serverLastWriterWins : .fieldMerge,
      faults: accountDefects.contains(defect)
        ? accountsOnly
        : defect == .commitTokenBeforePage ? tornCrashesOnly : blindDeletion ? FaultProfile.none : .swarm,
      schemas: defect == .stripUnknownKeys ? .minorUpgrade : .none)
    configuration.defects = [defect]
    configuration.deletePolicy = defect.deletePolicy
    // A device showing its damaged copy also differs from the server; the run judges the invariant made for the bug,
    // which must catch it on its own.
    if defect == .skipStorageCheck { configuration.invariants = [defect.caughtBy] }
    return configuration
  }

  @Test(
    "each defect's committed script breaks the invariant made for it, and passes once the defect line goes",
    arguments: ClientDefect.allCases)
  func committedScriptCatches(_ defect: ClientDefect) throws {
    try ZooScripts.expectCaught(try ZooScripts.script(defect.rawValue), by: defect, as: defect.caughtBy)
  }

  @Test(
    "the runner catches the defect within the budget and shrinks it to at most 15 steps",
    .enabled(if: ZooScripts.searches, "the search runs in the deep sweep"), arguments: ClientDefect.allCases)
  func runnerCatchesAndShrinks(_ defect: ClientDefect) throws {
    let configuration = Self.configuration(for: defect)
    let report = PropertyRunner(configuration: configuration, seeds: 0..<Self.budget).run()
    let found = report.failures.first
    SweepBudget(everyDepth: (Self.budget, configuration.steps)).reportCatch("zoo defect \(defect.rawValue)", found)
    let failure = try #require(
      found, "\(defect) was not caught in \(Self.budget) seeds (replay: swift test --filter SyncBugZooTests)")
    #expect(failure.violation.invariant == defect.caughtBy, "\(defect): \(failure)")
    #expect(failure.steps.count <= 15, "\(defect) shrank only to \(failure.steps.count) steps:\n\(failure.script)")

    try ZooScripts.expectCaught(failure.script, by: defect, as: defect.caughtBy)
    try ZooScripts.keep(
      failure, as: defect.rawValue, pins: "\(defect.rawValue) breaks \(defect.caughtBy); without it the script passes",
      seeds: Self.budget)
  }

  /// The defects that remove a rule of Reconcile's sync core: the CKSyncEngine client (the core inside) makes them too.
  /// Without its launch check (`forget-queue-on-crash`) the core loses a change only when a torn crash strikes between
  /// an event that queued it and the engine's state update, which seeded runs reach too rarely for this budget;
  /// `ZoneReplicaTests` pins that rule directly.
  static let coreDefects = ClientDefect.allCases.filter { $0.removesCoreRule && $0 != .forgetQueueOnCrash }

  /// Where the core's mistake shows first under another invariant than the reference client's, and why.
  static let coreCaughtBy: [ClientDefect: Invariant] = [
    // The queued deletion goes with the rest, and the next fetch brings the deleted record back.
    .resetSyncDropsUnsent: .noResurrection,
    // The record kept across accounts comes back to its own account carrying the other account's edits, over the
    // user's own.
    .keepDataAcrossAccounts: .oneSidedChangesKept,
  ]

  /// Each rule of `ZoneReplica` that a defect names is held in place: removed from the core inside the `sync-engine`
  /// client, a seeded run finds the mistake, names the invariant made for it, and shrinks it to a script that passes
  /// once the defect line goes.
  @Test(
    "each committed script of the sync core without one of its rules breaks the invariant, and passes with the rule",
    arguments: coreDefects)
  func coreScriptCatches(_ defect: ClientDefect) throws {
    let script = try ZooScripts.script("sync-core-" + defect.rawValue)
    #expect(script.contains("client sync-engine"), "\(script)")
    try ZooScripts.expectCaught(script, by: defect, as: Self.coreCaughtBy[defect] ?? defect.caughtBy)
  }

  @Test("every flaw of the sync core is one defect's, named by type: none unreachable from the zoo")
  func everyCoreFlawHasItsDefect() {
    let flaws = ClientDefect.allCases.compactMap(\.replicaFlaw)
    #expect(Set(flaws) == Set(ReplicaFlaw.allCases))
    #expect(flaws.count == ReplicaFlaw.allCases.count, "two defects name one flaw")
    for defect in ClientDefect.allCases {
      if let flaw = defect.replicaFlaw { #expect("\(flaw)" == Self.camelCase(defect.rawValue), "\(defect)") }
    }
  }

  /// `drop-edits-during-save` as `dropEditsDuringSave`.
  static func camelCase(_ name: String) -> String {
    let words = name.split(separator: "-")
    return ([String(words.first ?? "")] + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }).joined()
  }

  @Test(
    "without one of its rules, the sync core inside the CKSyncEngine client is caught and shrunk",
    .enabled(if: ZooScripts.searches, "the search runs in the deep sweep"), arguments: coreDefects)
  func coreWithoutRuleIsCaught(_ defect: ClientDefect) throws {
    var configuration = Self.configuration(for: defect)
    configuration.client = .syncEngine
    // A new record's save whose answer is lost is what the core must remember: lost answers are flaky's mainstay.
    if defect == .dropUnacknowledgedDeletes { configuration.faults = .flaky }
    let expected = Self.coreCaughtBy[defect] ?? defect.caughtBy
    let report = PropertyRunner(configuration: configuration, seeds: 0..<Self.budget).run()
    let found = report.failures.first
    SweepBudget(everyDepth: (Self.budget, configuration.steps)).reportCatch(
      "zoo defect \(defect.rawValue) (sync core)", found)
    let failure = try #require(
      found,
      "\(defect) in the sync core was not caught in \(Self.budget) seeds (replay: swift test --filter SyncBugZooTests)")
    #expect(failure.violation.invariant == expected, "\(defect): \(failure)")
    #expect(failure.steps.count <= 15, "\(defect) shrank only to \(failure.steps.count) steps:\n\(failure.script)")
    #expect(failure.script.contains("client sync-engine"), "\(failure.script)")
    try ZooScripts.expectCaught(failure.script, by: defect, as: expected)
    try ZooScripts.keep(
      failure, as: "sync-core-" + defect.rawValue,
      pins: "the sync core without \(defect.rawValue) breaks \(expected); with the rule the script passes",
      seeds: Self.budget)
  }
}
