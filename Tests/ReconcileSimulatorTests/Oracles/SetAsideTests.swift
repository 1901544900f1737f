import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// The judge says what it left unjudged: every record it set aside as unknowable is counted under its reason, in the
/// run's result, the runner's report and the exploration report.
@Suite("Oracles: records the judge sets aside are counted by reason")
struct SetAsideTests {
  /// d1's save of r1 lands but its answer is lost; d2, which never saw r1, creates it too. Whose record the server
  /// keeps, d1 cannot tell — but the end state keeps every contract under the placement the server's log shows, so
  /// it is judged, not set aside.
  static let unansweredSaveRaced = answerLost(
    then: """
      advance 3s
      d2 create Note/r1 title="d2.2"
      advance 3s
      """)

  /// d1's create of r1 lands but its answer is lost; d2 fetches it and deletes it. d1 then reads a deletion of r1 it
  /// cannot tell from one of an older r1, so it sends its create again, and r1 is back: under the placement the log
  /// shows, d2's deletion saw the create and should stand, but had d1's create landed after the deletion, the record
  /// would be its, and d1 sees the same either way.
  static let unansweredCreateDeleted = answerLost(
    then: """
      advance 1s
      d2 sync
      advance 1s
      d2 delete Note/r1
      advance 3s
      """)

  /// d1 creates r0, then r1 with the answer lost; `then` follows, and d1 creates r2 before quiescence.
  static func answerLost(then: String) -> String {
    """
    resolver field-merge
    delete-policy deleteWins
    device add d1
    device add d2
    send-after-edits
    d1 create Note/r0 title="d1.0"
    advance 3s
    fault lose-response d1
    d1 create Note/r1 title="d1.1"
    \(then)
    d1 create Note/r2 title="d1.3"
    quiesce
    expect invariants
    """
  }

  @Test(
    "a record in doubt whose end state keeps the contracts where the log placed its requests is judged, not set aside")
  func unansweredSaveRacedIsJudgedWhereTheLogExplainsIt() throws {
    let result = try Simulation.replay(Self.unansweredSaveRaced)
    #expect(result.passed, "\(result.violations)")
    #expect(result.setAside.isEmpty)
  }

  @Test(
    "a record only another placement of a request in doubt explains is set aside as unansweredSaveRaced, and only it")
  func unansweredSaveRacedIsCounted() throws {
    let result = try Simulation.replay(Self.unansweredCreateDeleted)
    #expect(result.passed, "\(result.violations)")
    #expect(result.setAside == [.unansweredSaveRaced: 1])
  }

  @Test("the same run with the answer delivered sets nothing aside and judges r1")
  func answeredRunSetsNothingAside() throws {
    let script = Self.unansweredCreateDeleted.replacingOccurrences(of: "fault lose-response d1\n", with: "")
    let result = try Simulation.replay(script)
    #expect(result.passed, "\(result.violations)")
    #expect(result.setAside.isEmpty)
  }

  /// d1 increments a counter and the answer is lost; d2 increments it concurrently. d1 cannot tell whether its save
  /// landed, so it merges its increment again, and the counter counts it twice.
  static let counterAnswerLost = """
    resolver merging
    device add d1
    device add d2
    send-after-edits
    invariants oneSidedChangesKept
    d1 create Note/r1 title="a"
    advance 2s
    d2 sync
    advance 2s
    fault lose-response d1
    d1 edit Note/r1 plays=1
    advance 1s
    d2 edit Note/r1 plays=2
    quiesce
    expect invariants
    """

  @Test(
    "an increment merged again after its answer was lost is set aside as unansweredEditMerged, and judged when answered"
  )
  func counterAnswerLostIsSetAside() throws {
    let lost = try Simulation.replay(Self.counterAnswerLost)
    #expect(lost.passed, "\(lost.violations)")
    #expect(lost.setAside == [.unansweredEditMerged: 1])
    let answered = try Simulation.replay(
      Self.counterAnswerLost.replacingOccurrences(of: "fault lose-response d1\n", with: ""))
    #expect(answered.passed, "\(answered.violations)")
    #expect(answered.setAside.isEmpty)
    #expect(answered.outcomes[.oneSidedChangesKept] != nil)
  }

  @Test("the runner and the exploration report add up what each run set aside")
  func reportsAddUp() throws {
    var configuration = SimulationConfiguration(steps: 60, resolver: .fieldMerge, deletePolicy: .editWins)
    configuration.faults = .hostile
    let seeds: Range<UInt64> = 0..<20
    let report = PropertyRunner(configuration: configuration, seeds: seeds).run()
    var expected: [SetAside: Int] = [:]
    for seed in seeds {
      var simulation = Simulation(seed: seed, configuration: configuration)
      expected.merge(simulation.run().setAside, uniquingKeysWith: +)
    }
    #expect(!expected.isEmpty, "hostile runs race edits with deletions, so some record must be set aside")
    #expect(report.recordsSetAside == expected)
    #expect(report.coverage.contains("records set aside as unknowable (of \(report.recordsJudged) judged): "))
    #expect(report.recordsJudged > 0)
    let exploration = ExplorationReport(report, configuration: "--faults hostile", seeds: seeds, shard: nil, seconds: 1)
    #expect(
      exploration.recordsSetAside == Dictionary(uniqueKeysWithValues: expected.map { ($0.key.rawValue, $0.value) }))
  }
}
