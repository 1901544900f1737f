import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// Every invariant can fail: a deliberately broken component — a client mistake (``ClientDefect``), a resolver that
/// breaks its promise, a server that cannot page a compacted feed — makes it fire, the same steps with the component
/// fixed do not, and the property runner finds and shrinks the bug to a script that replays it.
@Suite("Oracles: each invariant fires on a deliberately broken component")
struct InvariantFiringTests {
  /// Seed 004's resurrection (issue text): the save of r1 lands but its answer is lost, then the user deletes r1.
  static let resurrection = """
    resolver field-merge
    delete-policy deleteWins
    device add d1
    device add d2
    d1 sync
    advance 5s
    d1 create Note/r1 title="d1.2"
    d1 sync
    fault lose-response d1
    d1 delete Note/r1
    advance 120s
    d2 sync
    advance 10s
    quiesce
    expect invariants
    """

  @Test("a delete survives a lost answer: r1 ends absent everywhere, and a client that drops it resurrects r1")
  func unacknowledgedDeleteIsKept() throws {
    let fixed = try Simulation.replay(Self.resurrection)
    #expect(fixed.passed, "\(fixed.violations)")
    #expect(fixed.outcomes[.noResurrection] == .held(checks: 1))
    let broken = try Simulation.replay(
      Self.resurrection.replacingOccurrences(
        of: "device add d1", with: "defect drop-unacknowledged-deletes\ndevice add d1"))
    let messages = broken.violations.filter { $0.invariant == .noResurrection }.map(\.message)
    #expect(messages.contains { $0.contains("yet the server holds it") })
    #expect(messages.contains { $0.contains("yet d2 shows it") })
  }

  /// A hand-written scenario for each client defect, and the invariant that must catch it.
  struct Case: Sendable, CustomTestStringConvertible {
    var defect: ClientDefect
    var invariant: Invariant
    var script: String
    var testDescription: String { "\(defect) → \(invariant)" }
  }

  /// Two devices that both hold r1.
  static let sharedRecord = """
    resolver field-merge
    device add d1
    device add d2
    d1 create Note/r1 title="x"
    d1 sync
    advance 5s
    d2 sync
    advance 5s

    """

  static let cases: [Case] = [
    Case(defect: .dropUnacknowledgedDeletes, invariant: .noResurrection, script: resurrection),
    Case(
      defect: .sendWhileHalted, invariant: .haltedDeviceSendsNothing,
      script: """
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
        advance 5s
        old sync
        advance 5s
        quiesce
        """),
    Case(
      defect: .dropEditsDuringSave, invariant: .oneSidedChangesKept,
      script: """
        resolver field-merge
        device add d1
        send-after-edits
        d1 create Note/r1 title="zero"
        d1 sync
        advance 5s
        fault delay d1 5s
        d1 edit Note/r1 title="first"
        d1 edit Note/r1 title="second"
        advance 10s
        quiesce
        """),
    Case(
      defect: .forgetQueueOnCrash, invariant: .noLostRecords,
      script: """
        resolver field-merge
        device add d1
        d1 sync
        advance 5s
        d1 offline
        d1 create Note/r1 title="unsent"
        d1 crash
        d1 online
        quiesce
        """),
    Case(
      defect: .ignoreFetchedDeletions, invariant: .convergence,
      script: sharedRecord + """
        d1 delete Note/r1
        d1 sync
        advance 5s
        quiesce
        """),
    Case(
      defect: .skipStorageCheck, invariant: .damagedDataNeverUploaded,
      script: """
        resolver field-merge
        device add d1
        d1 sync
        advance 5s
        d1 offline
        d1 create Note/r1 scratch="x"
        fault corrupt d1 r1
        d1 online
        d1 sync
        advance 5s
        quiesce
        """),
    Case(
      defect: .stripUnknownKeys, invariant: .unknownKeysKept,
      script: """
        resolver field-merge
        schemas minor
        device add new --upgraded
        device add old
        new create Note/r1 title="hello" color="red"
        new sync
        advance 5s
        old sync
        advance 5s
        old edit Note/r1 title="edited"
        old sync
        advance 5s
        quiesce
        """),
    Case(
      defect: .rewindTokenOnCrash, invariant: .serverInvariants,
      script: sharedRecord + """
        d1 sync
        advance 5s
        d2 edit Note/r1 title="y"
        d2 sync
        advance 5s
        d1 sync
        advance 5s
        d1 crash
        quiesce
        """),
    // The phone's save of "a" lands with its answer lost; the user types "b"; the fetch brings "a".
    Case(
      defect: .forgetUnansweredSaves, invariant: .oneSidedChangesKept,
      script: """
        resolver field-merge
        device add phone --clock-offset 0s
        device add mac --clock-offset 0s
        send-after-edits
        phone create Note/1 title="draft"
        quiesce
        advance 10s
        fault lose-response phone
        phone edit Note/1 title="a"
        advance 1s
        phone edit Note/1 title="b"
        quiesce
        """),
  ]

  @Test("each client defect makes its invariant fire; the correct client keeps it", arguments: cases)
  func defectFires(_ testCase: Case) throws {
    let fixed = try Simulation.replay(testCase.script)
    #expect(!fixed.violations.contains { $0.invariant == testCase.invariant }, "\(fixed.violations)")
    if case .notApplicable(let why)? = fixed.outcomes[testCase.invariant] {
      Issue.record("the scenario must exercise \(testCase.invariant), but it did not apply: \(why)")
    }
    let broken = try Simulation.replay("defect \(testCase.defect)\n" + testCase.script)
    #expect(
      broken.violations.contains { $0.invariant == testCase.invariant },
      "\(testCase.defect) should break \(testCase.invariant): \(broken.violations)")
  }

  /// Defects the runner must find in 120-step runs; `swift test` tries the first, the deep sweep every one (the zoo
  /// pins each defect by its committed script).
  static let searchedDefects: [(ClientDefect, FaultProfile)] = [
    (.ignoreFetchedDeletions, .none), (.dropUnacknowledgedDeletes, .flaky), (.dropEditsDuringSave, .flaky),
    (.forgetQueueOnCrash, .flaky), (.skipStorageCheck, .hostile),
  ]

  @Test(
    "the runner finds each client defect in random runs and shrinks it to a script that replays it",
    arguments: SweepDepth.current == .unit ? Array(searchedDefects.prefix(1)) : searchedDefects)
  func runnerFindsDefect(_ defect: ClientDefect, faults: FaultProfile) throws {
    var configuration = SimulationConfiguration(steps: 120, resolver: .fieldMerge, faults: faults)
    configuration.defects = [defect]
    let report = PropertyRunner(configuration: configuration, seeds: 0..<300, maximumShrinkRuns: 400).run()
    let failure = try #require(report.failures.first, "no seed of 300 caught \(defect)")
    #expect(failure.script.contains("defect \(defect)"))
    #expect(failure.steps.count < 120)
    let replayed = try Simulation.replay(failure.script)
    #expect(replayed.violations.contains { $0.invariant == failure.violation.invariant }, "\(failure.script)")
  }

  @Test("the shrinker also shrinks step parameters: keys the failure does not need are dropped, waits halved")
  func shrinkerShrinksParameters() throws {
    var configuration = SimulationConfiguration(steps: 120, resolver: .fieldMerge, faults: .flaky)
    configuration.defects = [.forgetQueueOnCrash]
    let report = PropertyRunner(configuration: configuration, seeds: 0..<300, maximumShrinkRuns: 600).run()
    let failure = try #require(report.failures.first)
    for step in failure.steps {
      switch step {
      case .create(_, let record): #expect(record.values.count == 1, "\(failure.script)")
      case .edit(_, _, _, let values, _): #expect(values.count == 1, "\(failure.script)")
      default: break
      }
    }
  }

  // MARK: Broken resolvers

  /// Claims the edit-count contract but keeps the server's record whole.
  static let brokenEditCount = ResolverUnderTest(
    name: "broken-edit-count", resolver: .serverLastWriterWins,
    bookkeeping: EditBookkeeping(editCountKey: "editCount"), lostWriteContract: .highestEditCountKept)
  /// Claims the latest-stamp contract but keeps the server's record whole.
  static let brokenStamps = ResolverUnderTest(
    name: "broken-hlc", resolver: .serverLastWriterWins,
    bookkeeping: EditBookkeeping(fieldStampsKey: "fieldStamps"), lostWriteContract: .latestStampKept)
  /// Refuses every conflict, so devices halt again after every restart.
  static let refusing = ResolverUnderTest(
    name: "refusing",
    resolver: CustomResolver { _ in
      throw ConflictResolutionError.mismatchedRecordType(role: .client, found: "x", server: "y")
    })

  static let concurrentEdits = """
    device add d1
    device add d2
    d1 create Note/r1 title="a" rank=1
    d1 sync
    advance 5s
    d2 sync
    advance 5s
    d2 edit Note/r1 rank=2
    d2 edit Note/r1 rank=3
    d2 edit Note/r1 title="d2"
    d1 edit Note/r1 title="d1"
    d1 sync
    advance 5s
    d2 sync
    advance 5s
    quiesce
    """

  @Test(
    "a resolver that breaks its stamp contract is caught; the real one keeps it",
    arguments: [
      (brokenEditCount, ResolverChoice.editCount, Invariant.highestEditCountKept),
      (brokenStamps, .hybridLogicalClock, .latestStampKept),
    ])
  func brokenResolverFires(_ broken: ResolverUnderTest, real: ResolverChoice, invariant: Invariant) throws {
    let good = try Simulation.replay("resolver \(real)\n" + Self.concurrentEdits)
    #expect(good.outcomes[invariant].map { if case .held = $0 { true } else { false } } == true, "\(good.outcomes)")
    let bad = try Simulation.replay("resolver \(broken.name)\n" + Self.concurrentEdits, resolvers: [broken])
    #expect(bad.violations.contains { $0.invariant == invariant }, "\(bad.violations)")
  }

  @Test("a resolver that refuses every conflict never lets the world settle: liveness fires")
  func livenessFires() throws {
    let good = try Simulation.replay("resolver field-merge\n" + Self.concurrentEdits)
    #expect(good.outcomes[.liveness] == .held(checks: 1))
    let bad = try Simulation.replay("resolver refusing\n" + Self.concurrentEdits, resolvers: [Self.refusing])
    #expect(bad.violations.contains { $0.invariant == .liveness }, "\(bad.violations)")
  }

  @Test("the halted-device check judges what the network carried: a halted device that sends is caught")
  func haltedDeviceIsJudgedOnTheNetwork() throws {
    let script = Self.cases[1].script
    let broken = try Simulation.replay("defect send-while-halted\n" + script)
    let message = try #require(broken.violations.first { $0.invariant == .haltedDeviceSendsNothing }?.message)
    #expect(message.contains("halted old sent"))
  }

  // MARK: Outcomes

  @Test("an invariant with nothing to judge says not applicable and why, never held")
  func notApplicableIsReported() throws {
    let result = try Simulation.replay(
      """
      resolver field-merge
      device add d1
      d1 create Note/r1 title="x"
      d1 sync
      quiesce
      """)
    #expect(result.passed)
    guard case .notApplicable(let why)? = result.outcomes[.noResurrection] else {
      Issue.record("noResurrection should not apply without a deletion: \(String(describing: result.outcomes))")
      return
    }
    #expect(why.contains("no user deleted"))
    guard case .notApplicable? = result.outcomes[.haltedDeviceSendsNothing] else {
      Issue.record("no device halted, so the halted-device check cannot have held")
      return
    }
    #expect(result.outcomes[.convergence] == .held(checks: 1))
  }

  @Test("violations come in a fixed order, and the same seeds replay byte for byte in one process")
  func stableOrderAndDeterminism() {
    for faults in [FaultProfile.flaky, .swarm] {
      var configuration = SimulationConfiguration(steps: 150, resolver: .fieldMerge, faults: faults)
      configuration.defects = [.dropEditsDuringSave, .ignoreFetchedDeletions]
      for seed in UInt64(0)..<6 {
        var first = Simulation(seed: seed, configuration: configuration)
        var second = Simulation(seed: seed, configuration: configuration)
        let a = first.run()
        let b = second.run()
        #expect(a.trace.joined(separator: "\n") == b.trace.joined(separator: "\n"), "seed \(seed), \(faults)")
        #expect(a.violations == b.violations)
        #expect(a.outcomes == b.outcomes)
        let order = Invariant.allCases
        let ranks = a.violations.compactMap { order.firstIndex(of: $0.invariant) }
        #expect(ranks == ranks.sorted(), "violations grouped by invariant in declaration order")
      }
    }
  }
}
