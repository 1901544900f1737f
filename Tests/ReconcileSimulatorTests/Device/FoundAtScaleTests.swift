import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// Bugs of the reference client that 60,000 explored seeds found and shrank: each counterexample failed before its
/// fix and replays clean after it.
@Suite("Device: bugs found by exploring at scale")
struct FoundAtScaleTests {
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

  /// Swarm seed 8609, shrunk. An edit finds d1's copy of r6 damaged, throws it away and restarts its listing of the
  /// zone, while a fetch sent before is on its way; that fetch's answer brought back the old token, so d1 never
  /// fetched r6 again.
  static let pageAfterListingRestarted = """
    resolver field-merge
    device add d1
    send-after-edits
    limit batch-items 5 batch-bytes 2000 page-size 10
    invariants convergence
    d1 create Note/r1 title="d1.0"
    advance 1s
    d1 create Note/r6 title="d1.64"
    d1 delete Note/r1
    advance 2s
    d1 sync
    fault corrupt d1 Note/r6
    d1 edit Note/r6 body="d1.114"
    quiesce
    expect invariants
    """

  /// Swarm seed 6982, shrunk. d2's copy of r7 is damaged and thrown away, and the zone is deleted; d2 creates r7 and
  /// deletes it, and the device still owed the discarded copy's deletion, though the zone had taken that record with
  /// it: once d3 created r7 in the new zone, d2's deletion removed d3's record.
  static let discardedCopyGoneWithZone = """
    resolver field-merge
    device add d2
    device add d3
    send-after-edits
    invariants noLostRecords
    d2 create Note/r7 title="d2.75"
    advance 2s
    fault corrupt d2 Note/r7
    fault delete-zone
    d2 edit Note/r7 title="d2.107"
    fault lose-request d2
    d2 create Note/r7 title="d2.168"
    d2 delete Note/r7
    d3 create Note/r7 title="d3.174"
    quiesce
    expect invariants
    """

  /// Flaky seed 38764, shrunk. d2 deletes r4 and creates it again; the re-created record's copy is damaged while its
  /// save is on its way. The save lands and the device keeps the server's version, but it had queued the deletion the
  /// damaged replacement owed, and sent it: the new record was deleted.
  static let damagedReplacementSaved = """
    resolver field-merge
    device add d2
    send-after-edits
    invariants noLostRecords
    d2 create Note/r4 title="d2.25"
    advance 2s
    d2 delete Note/r4
    advance 1s
    d2 create Note/r4 title="d2.36"
    fault corrupt d2 Note/r4
    quiesce
    expect invariants
    """

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

  /// Hostile seed 1583, shrunk. d2 re-creates r2 (replacing d3's, since deleted) and its save lands, unheard of; the
  /// user deletes r2 on d2. Fetching r2, d2 saw a creation date other than that of the record its replacement
  /// replaced, took r2 for a record created anew elsewhere, and kept it.
  static let ownReplacementDeleted = """
    resolver field-merge
    device add d2
    device add d3
    send-after-edits
    invariants noResurrection
    d2 create Note/r1 title="d2.0"
    d3 create Note/r2 title="d3.3"
    advance 3s
    d2 delete Note/r1
    advance 1s
    d2 offline
    fault transient d2 zoneBusy 3s
    fault transient d2 zoneBusy 10s
    d3 delete Note/r2
    d2 delete Note/r2
    d2 online
    advance 4s
    d2 create Note/r2 title="d2.134"
    fault delay d2 17s
    advance 9s
    fault item-transient d2 networkFailure 4s
    advance 22s
    d2 delete Note/r2
    quiesce
    expect invariants
    """

  static let cases = [
    ReplayCase(
      behaviour:
        "deleting a record created again after a deletion aims at the version the first deletion saw, so a refetch under editWins does not keep it (field-merge editWins hostile seed 448)",
      script: """
        resolver field-merge
        delete-policy editWins
        schemas minor
        device add d1
        device add d2
        send-after-edits
        invariants noResurrection
        d1 create Note/r1 title="d1.0"
        d2 create Note/r2 title="d2.1"
        advance 3s
        fault throttle 21s
        advance 10s
        d1 edit Note/r1 title="d1.43"
        advance 10s
        d1 delete Note/r2
        d1 create Note/r2 title="d1.116"
        d1 delete Note/r2
        d1 reset-sync
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a record created again after a deletion here survives that deletion landing late, when a fetch reports it (field-merge swarm seed 442)",
      script: """
        resolver field-merge
        device add d2
        device add d3
        send-after-edits
        limit batch-items 2 batch-bytes 800 page-size 5
        invariants noLostRecords
        d2 create Note/r1 title="d2.1"
        advance 1s
        d3 create Note/r3 title="d3.20"
        d2 delete Note/r1
        advance 1s
        fault delay d2 64s
        advance 6s
        d3 edit Note/r1 title="d3.131"
        advance 4s
        d2 create Note/r1 title="d2.136"
        advance 50s
        d2 offline
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a device that learns its zone was deleted and created again keeps what it fetched from the new zone, and its deletions of it (server-lww editWins hostile seed 9)",
      script: """
        # seed 9, shrunk from 100 to 18 steps
        # faults hostile
        # broke noResurrection: r7 was deleted (d2 deleted it at t=27s) and nothing later revived it, yet the server holds it (last saved by d3)
        resolver server-lww
        delete-policy editWins
        schemas minor
        device add d1 --clock-offset 0s
        device add d2 --clock-offset 0s
        device add d3 --clock-offset 0s
        send-after-edits
        invariants noResurrection
        d3 create Note/r1 title="d3.0"
        advance 1s
        d2 crash
        advance 2s
        fault corrupt d2 Note/r1
        fault delay d2 14s
        d2 create Note/r3 title="d2.75"
        advance 2s
        fault delete-zone
        d1 create Note/r6 title="d1.79"
        advance 2s
        d2 edit Note/r1 title="d2.82"
        advance 3s
        fault transient d2 zoneBusy 5s
        advance 3s
        d3 create Note/r7 title="d3.90"
        advance 4s
        d2 delete Note/r7
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a replacing create whose record was deleted (its own deletion, landed late) is saved anew, whatever the delete policy (swarm seed 141687)",
      script: """
        resolver field-merge
        device add d1
        send-after-edits
        limit page-size 3
        invariants noLostRecords
        d1 create Note/r3 title="d1.12"
        fault lose-response d1
        advance 6s
        fault transient d1 networkFailure 0s
        advance 7s
        d1 create Note/r6 title="d1.75"
        advance 51s
        d1 delete Note/r6
        advance 1s
        fault delay d1 73s
        advance 6s
        fault item-transient d1 serviceUnavailable 6s
        advance 39s
        d1 create Note/r6 title="d1.131"
        advance 5s
        fault item-transient d1 requestRateLimited 9s
        advance 8s
        d1 create Note/r7 title="d1.180"
        advance 7s
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour: "a replacing create meeting unknownItem is saved anew, not dropped by deleteWins (swarm seed 180911)",
      script: """
        resolver field-merge
        device add d1
        device add d2
        device add d3
        send-after-edits
        limit batch-items 3 batch-bytes 800 page-size 10
        invariants noLostRecords
        d3 create Note/r1 title="d3.0"
        advance 1s
        d2 sync
        d1 create Note/r2 title="d1.5"
        fault lose-response d2
        d2 edit Note/r1 title="d2.11"
        advance 4s
        d1 delete Note/r2
        fault delay d1 62s
        advance 18s
        d1 create Note/r2 title="d1.36"
        advance 36s
        d2 edit Note/r2 title="d2.45"
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a deletion's answer does not end the doubt about an earlier unanswered save: a create after it replaces that save (flaky seed 192780)",
      script: """
        resolver field-merge
        device add d1
        send-after-edits
        invariants oneSidedChangesKept
        d1 create Note/r2 title="d1.2"
        advance 2s
        fault delay d1 66s
        d1 create Note/r5 title="d1.56"
        advance 52s
        d1 delete Note/r5
        advance 10s
        d1 sync
        d1 create Note/r5 title="d1.112"
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a page answering a fetch sent for an earlier listing is dropped, even when both listings began from the start (hostile seed 52910)",
      script: """
        resolver field-merge
        device add d1
        device add d3
        send-after-edits
        invariants convergence
        d3 create Note/r1 title="d3.0"
        d1 create Note/r2 title="d1.2"
        fault transient d3 requestRateLimited 2s
        d3 create Note/r5 title="d3.30"
        advance 3s
        fault corrupt d3 Note/r5
        fault transient d3 serviceUnavailable 2s
        d3 create Note/r7 title="d3.168"
        fault delete-zone
        fault throttle 50s
        advance 12s
        fault corrupt d3 Note/r2
        advance 30s
        fault delay d3 3s
        advance 4s
        d3 edit Note/r2 title="d3.197"
        advance 1s
        d3 edit Note/r5 rank=199
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour: "a fetched page sent before the device restarted its listing does not bring back the old token",
      script: pageAfterListingRestarted),
    ReplayCase(
      behaviour:
        "a damaged copy thrown away is forgotten with its zone: a record created under its ID owes no deletion",
      script: discardedCopyGoneWithZone),
    ReplayCase(
      behaviour: "a damaged replacement whose save lands owes no deletion: the save replaced the record",
      script: damagedReplacementSaved),
    ReplayCase(
      behaviour: "a device's own replacement, landed unheard of, is deleted with the user's deletion",
      script: ownReplacementDeleted),
    ReplayCase(
      behaviour:
        "a damaged replacement of a record the user deleted owes that deletion as it was, change tag and all, so editWins spares only edits the user had not seen (hostile seed 457 under merging)",
      script: """
        resolver field-merge
        delete-policy editWins
        device add d1 --clock-offset 0s
        device add d3 --clock-offset 0s
        send-after-edits
        invariants noResurrection
        d3 create Note/r1 title="d3.0"
        advance 1s
        d1 create Note/r2 title="d1.4"
        d3 create Note/r3 title="d3.9"
        advance 1s
        d1 edit Note/r1 title="d1.16"
        d3 delete Note/r3
        advance 1s
        d3 delete Note/r1
        d3 create Note/r1 title="d3.113"
        fault corrupt d3 Note/r1
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a replacement leaves to the server a key it holds only because a merge kept the server's value while its app did not know the key (swarm seed 249, minor schemas)",
      script: """
        resolver merging
        delete-policy editWins
        schemas minor
        device add d1 --clock-offset 0s
        device add d2 --clock-offset 0s
        device add d3 --clock-offset 0s
        send-after-edits
        limit batch-items 3 page-size 5
        invariants oneSidedChangesKept
        d1 create Note/r2 title="d1.2"
        d2 create Note/r4 title="d2.28"
        d1 upgrade
        d3 sync
        advance 1s
        fault lose-request d3
        d3 create Note/r9 title="d3.89"
        d3 delete Note/r2
        d3 edit Note/r4 title="d3.94"
        d1 edit Note/r2 color="d1.129"
        d3 create Note/r2 title="d3.138"
        advance 27s
        d3 create Note/r13 title="d3.170"
        advance 37s
        d3 upgrade
        d1 edit Note/r2 color="d1.194"
        quiesce
        expect invariants
        """),
  ]

  @Test("each counterexample of a fixed client bug replays with every invariant held", arguments: cases)
  func fixedClientHolds(_ example: ReplayCase) throws {
    try example.expectHeld()
  }
}
