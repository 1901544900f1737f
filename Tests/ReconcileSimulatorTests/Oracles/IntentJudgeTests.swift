import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// Counterexamples the property runner found in a correct client, where the judge, not the client, was wrong: each
/// replays clean now. (Each failed against the judge before its fix; the zoo's tests show the invariants still firing
/// on broken clients.)
@Suite("Oracles: the intent judge's own mistakes, found at scale")
struct IntentJudgeTests {
  /// Hostile seed 474, shrunk. d1's edit removes `body` and sets `title`; a later edit sets `title` again before the
  /// first is sent, so the first edit's title never lands — but the save carrying the later title carries the
  /// removal too, before d1's stored copy is damaged. The judge counted the whole edit withdrawn and expected `body`
  /// to end with the value the removal replaced.
  static let removalSentWithLaterValues = """
    resolver field-merge
    delete-policy deleteWins
    device add d1
    send-after-edits
    invariants oneSidedChangesKept
    d1 create Note/r6 title="d1.32"
    d1 edit Note/r6 body="d1.37"
    fault lose-response d1
    advance 3s
    d1 edit Note/r6 -body title="d1.96"
    advance 30s
    d1 edit Note/r6 title="d1.166"
    advance 28s
    fault corrupt d1 Note/r6
    quiesce
    expect invariants
    """

  @Test("an edit whose removal was sent with a later edit's values, before its copy was damaged, counts")
  func removalSentWithLaterValuesCounts() throws {
    let fixed = try Simulation.replay(Self.removalSentWithLaterValues)
    #expect(fixed.passed, "\(fixed.violations)")
    guard case .held(let checks)? = fixed.outcomes[.oneSidedChangesKept] else {
      Issue.record("oneSidedChangesKept was not judged: \(String(describing: fixed.outcomes[.oneSidedChangesKept]))")
      return
    }
    #expect(checks > 0)
  }
}
