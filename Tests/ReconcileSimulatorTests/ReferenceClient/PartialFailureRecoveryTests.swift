import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// Bugs of the reference client that 60,000 explored seeds found and shrank: each counterexample failed before its
/// fix and replays clean after it.
@Suite("Reference client: a partial failure, a crash or a late answer leaves nothing half done")
struct PartialFailureRecoveryTests {
  /// Flaky seed 1583, shrunk. d2 deletes r1 while r1's create is on its way; the create lands, and the deletion goes
  /// out in one atomic request with r2's save, whose item-transient failure fails the deletion as a sibling. The device
  /// took that for a refusal of r1's save and dropped its deletion: r1 stayed on the server.
  static let deletionFailedAsASibling = """
    resolver field-merge
    device add d2
    send-after-edits
    invariants noResurrection convergence
    d2 create Note/r1 title="d2.0"
    advance 2s
    d2 delete Note/r1
    d2 create Note/r2 title="d2.134"
    fault item-transient d2 networkFailure 4s
    advance 1s
    quiesce
    expect invariants
    """

  @Test("a deletion failed beside another item's error stays queued once the record's save has landed")
  func deletionFailedAsASiblingIsSentAgain() throws {
    let result = try Simulation.replay(Self.deletionFailedAsASibling)
    #expect(result.passed, "\(result.violations)")
    #expect(result.outcomes[.noResurrection] == .held(checks: 1))
  }

  /// Hostile seed 17254, shrunk. d3 crashes between applying the first page of a fetch from the zone's beginning and
  /// keeping its token; the zone is then deleted and created again, and d3's next fetch from the beginning finds it
  /// empty. The device had kept the interrupted fetch's list of records seen, so it kept r8, which the server no
  /// longer has.
  static let interruptedFullFetch = """
    resolver field-merge
    device add d2
    device add d3
    send-after-edits
    invariants convergence
    d3 crash
    d3 offline
    d2 create Note/r8 title="d2.72"
    fault torn-crash d3
    d3 online
    advance 1s
    fault throttle 3s
    fault delete-zone
    quiesce
    expect invariants
    """

  @Test("a fetch from the zone's beginning forgets what an interrupted one saw")
  func fullFetchStartsItsListingAnew() throws {
    let result = try Simulation.replay(Self.interruptedFullFetch)
    #expect(result.passed, "\(result.violations)")
    #expect(result.statistics.tornCrashes == 1)
  }

  /// Swarm seed 39457, shrunk. d2's save of r7 is delayed past its timeout; d2 retries, the retry lands, and d2 deletes
  /// r7. The stale first copy then lands as a new record. d2 recognised its own late save only for records the server
  /// had never acknowledged, so r7 came back.
  static let staleCopyOfARetriedSave = """
    resolver field-merge
    device add d2
    send-after-edits
    invariants noResurrection
    d2 sync
    advance 1s
    fault delay d2 90s
    d2 create Note/r7 title="d2.127"
    advance 62s
    d2 delete Note/r7
    advance 29s
    quiesce
    expect invariants
    """

  @Test("a device deletes again its own late save, whether or not the record it deleted had been acknowledged")
  func staleCopyOfARetriedSaveIsDeletedAgain() throws {
    let result = try Simulation.replay(Self.staleCopyOfARetriedSave)
    #expect(result.passed, "\(result.violations)")
    #expect(result.outcomes[.noResurrection] == .held(checks: 1))
  }

}
