import Foundation
import Reconcile
import ReconcileSimulator
import Testing

@Suite("Simulation: harsher faults — full storage, expired database tokens, late and stale requests, torn crashes")
struct HarsherFaultsTests {
  static let base = """
    resolver field-merge
    device add d1
    device add d2
    d1 create Note/r1 title="a"
    d1 sync
    advance 5s
    d2 sync
    advance 5s
    """

  @Test("full storage halts the saving device; it sends nothing while halted and converges once space is freed")
  func quotaFull() throws {
    let result = try Simulation.replay(
      Self.base + "\n" + """
        fault quota-full 30s
        d1 edit Note/r1 title="b"
        d1 sync
        advance 10s
        d1 sync
        advance 40s
        quiesce
        """)
    #expect(result.passed, "\(result.violations)")
    #expect(result.trace.contains { $0.contains("d1 halted: quotaExceeded") }, "\(result.trace)")
    #expect(result.outcomes[.haltedDeviceSendsNothing].map { if case .held = $0 { true } else { false } } == true)
    #expect(result.outcomes[.oneSidedChangesKept].map { if case .held = $0 { true } else { false } } == true)
  }

  @Test("expired database tokens: the device lists its zones again and keeps syncing")
  func databaseTokensExpire() throws {
    let result = try Simulation.replay(
      Self.base + "\n" + """
        fault expire-database-tokens
        d2 edit Note/r1 title="c"
        d2 sync
        advance 5s
        d1 sync
        advance 5s
        quiesce
        """)
    #expect(result.passed, "\(result.violations)")
    #expect(result.statistics.tokenExpiries >= 1, "\(result.statistics)")
  }

  @Test("a request delayed past its timeout arrives after the retry, and a duplicate arrives later: nothing is lost")
  func staleAndLateCopies() throws {
    let result = try Simulation.replay(
      Self.base + "\n" + """
        fault delay d1 90s
        d1 edit Note/r1 title="late"
        d1 sync
        advance 70s
        d2 edit Note/r1 body="meanwhile"
        d2 sync
        fault duplicate d2
        d2 edit Note/r1 title="dup"
        d2 sync
        advance 120s
        quiesce
        """)
    #expect(result.passed, "\(result.violations)")
    #expect(result.outcomes[.oneSidedChangesKept].map { if case .held = $0 { true } else { false } } == true)
  }

  @Test("a transient error on one item of a save: the item is retried after the wait, and nothing is lost")
  func itemTransient() throws {
    let result = try Simulation.replay(
      Self.base + "\n" + """
        d1 create Note/r2 title="two"
        fault item-transient d1 zoneBusy 5s
        d1 edit Note/r1 body="b"
        d1 sync
        advance 20s
        quiesce
        """)
    #expect(result.passed, "\(result.violations)")
    #expect(result.statistics.transientErrors == 1, "\(result.statistics)")
    #expect(result.statistics.batchRequestFailed >= 1, "an atomic zone fails the other item too: \(result.trace)")
    #expect(result.outcomes[.oneSidedChangesKept].map { if case .held = $0 { true } else { false } } == true)
  }

  @Test("networkFailure is an answer lost after the server applied the request: the device cannot count it as refused")
  func networkFailureMayHaveLanded() throws {
    let result = try Simulation.replay(
      """
      resolver field-merge
      device add d1
      device add d2
      send-after-edits
      d1 create Note/r1 title="a"
      advance 5s
      fault transient d1 networkFailure 0s
      d1 create Note/r2 title="two"
      advance 1s
      """ + "\n" + """
        advance 1s
        d1 delete Note/r2
        d2 create Note/r2 title="other"
        quiesce
        expect invariants
        """)
    let trace = result.trace.joined(separator: "\n")
    // The save landed before its answer was lost.
    let saved = try #require(result.trace.firstIndex { $0.contains("d1: saved Note/r2") }, "\(trace)")
    let lost = try #require(result.trace.firstIndex { $0.contains("network lost the answer to d1's modifyRecords") })
    #expect(saved < lost, "\(trace)")
    #expect(result.statistics.transientErrors >= 1)
    #expect(result.passed, "\(result.violations)")
  }

  @Test("a client that keeps sending without settling spends the request budget and ends as a liveness violation")
  func livelockEndsAtTheRequestBudget() throws {
    let script = """
      defect never-halve-batch
      device add d1
      limit batch-items 1
      d1 create Note/r1 title="a"
      d1 create Note/r2 title="b"
      """
    var simulation = Simulation(script: try SimulationScript.parse(script))
    _ = simulation.run(quiescing: false)
    let before = simulation.statistics.requests
    let quiescent = simulation.quiesce(requestBudget: 10)
    #expect(!quiescent)
    #expect(simulation.trace.last?.contains("request budget") == true, "\(simulation.trace)")
    #expect(simulation.statistics.requests - before <= 11, "the run stops at the budget, not a round later")
  }

  @Test("a crash between applying a fetched page and committing its token loses nothing")
  func tornCrashDuringFetch() throws {
    let result = try Simulation.replay(
      Self.base + "\n" + """
        d1 edit Note/r1 body="x"
        d1 sync
        advance 5s
        fault torn-crash d2
        d2 sync
        advance 10s
        quiesce
        """)
    #expect(result.passed, "\(result.violations)")
    #expect(result.statistics.tornCrashes == 1, "\(result.trace)")
  }
}
