import Foundation
import ReconcileSimulator
import Testing

/// Counterexamples the 500 seeds × 200 steps sweep of the whole matrix found in `sync-engine` (the CKSyncEngine stand-in
/// with the delegate built on Reconcile); each was a delegate or fault-model bug, and each now replays held.
@Suite("Sync engine: counterexamples found by sweeping the matrix")
struct SyncEngineFoundAtScaleTests {
  static let case1 = """
    # seed 138, shrunk from 200 to 5 steps
    # broke noResurrection: r10 was deleted (d3 deleted it at t=4s) and nothing later revived it, yet the server holds it (last saved by d3)
    client sync-engine
    resolver hlc
    delete-policy deleteWins
    schemas minor
    device add d3 --clock-offset 0s
    send-after-edits
    invariants noResurrection
    d3 create Note/r6 title="d3.125"
    fault duplicate d3
    fault transient d3 zoneBusy 1s
    d3 create Note/r10 title="d3.175"
    d3 delete Note/r10
    quiesce
    expect invariants
    """

  static let case2 = """
    # seed 175, shrunk from 200 to 7 steps
    # broke noLostRecords: d3 created it at t=63s; no deletion came after, yet the server does not hold r4
    client sync-engine
    resolver hlc
    delete-policy deleteWins
    schemas minor
    device add d2 --clock-offset 0s
    device add d3 --clock-offset 0s
    send-after-edits
    invariants noLostRecords
    fault lose-request d2
    fault item-transient d2 networkFailure 10s
    advance 28s
    d2 create Note/r4 title="d2.32"
    advance 31s
    d2 delete Note/r4
    d3 create Note/r4 title="d3.136"
    quiesce
    expect invariants
    """

  static let case3 = """
    # seed 322, shrunk from 200 to 8 steps
    # broke noLostRecords: d2 created it at t=7s; no deletion came after, yet the server does not hold r3
    client sync-engine
    resolver hlc
    delete-policy deleteWins
    schemas major
    device add d1 --clock-offset 0s
    device add d2 --clock-offset 0s
    device add d3 --clock-offset 0s
    send-after-edits
    invariants noLostRecords
    d3 upgrade
    d3 create Note/r3 title="d3.27"
    d3 delete Note/r3
    d1 create Note/r3 title="d1.67"
    d3 crash
    advance 1s
    d1 delete Note/r3
    d2 create Note/r3 title="d2.120"
    quiesce
    expect invariants
    """

  static let case4 = """
    # seed 328, shrunk from 200 to 12 steps
    # broke oneSidedChangesKept: color of r4 changed to "d2.188" (#6), then a save wrote back its older value "d2.166" (first held at #5) at #7
    client sync-engine
    resolver field-merge
    delete-policy editWins
    schemas major
    device add d2 --clock-offset 0s
    device add d3 --clock-offset 0s
    send-after-edits
    invariants oneSidedChangesKept
    d3 create Note/r4 title="d3.3"
    d3 create Note/r2 title="d3.44"
    d3 delete Note/r4
    d2 upgrade
    d2 sync
    d3 offline
    d2 edit Note/r2 title="d2.132"
    d2 edit Note/r4 color="d2.166"
    d3 create Note/r4 title="d3.167"
    d3 edit Note/r2 title="d3.168"
    d3 online
    d2 edit Note/r4 color="d2.188"
    quiesce
    expect invariants
    """

  static let case5 = """
    # seed 133, shrunk from 200 to 8 steps
    # broke noLostRecords: d2 deleted it at t=5s and d1 edited it at t=7s, concurrently; under editWins the edit revives it, yet the server does not hold r6
    client sync-engine
    resolver server-lww
    delete-policy editWins
    schemas minor
    device add d1 --clock-offset 0s
    device add d2 --clock-offset 0s
    device add d3 --clock-offset 0s
    send-after-edits
    invariants noLostRecords
    d1 upgrade
    d3 create Note/r6 title="d3.42"
    d1 sync
    d1 edit Note/r6 color="d1.111"
    d2 sync
    d2 delete Note/r6
    d1 offline
    d1 edit Note/r6 title="d1.177"
    quiesce
    expect invariants
    """

  static let case6 = """
    # seed 237, shrunk from 200 to 8 steps
    # broke noLostRecords: d3 edited it at t=4s and d2 deleted it at t=5s, concurrently; under editWins the edit revives it, yet the server does not hold r4
    client sync-engine
    resolver server-lww
    delete-policy editWins
    schemas none
    device add d2 --clock-offset 0s
    device add d3 --clock-offset 0s
    send-after-edits
    invariants noLostRecords
    d3 create Note/r4 title="d3.28"
    d2 offline
    d2 online
    fault throttle 5s
    d3 edit Note/r4 title="d3.103"
    d2 delete Note/r4
    d2 sync
    d3 crash
    quiesce
    expect invariants
    """

  /// The script: a crash between two pages of a zone fetch, once the database token had moved on.
  static let crashBetweenPages = """
    client sync-engine
    resolver field-merge
    delete-policy deleteWins
    schemas none
    device add d1 --clock-offset 0s
    device add d2 --clock-offset 0s
    send-after-edits
    limit batch-items 10 batch-bytes 400 page-size 2
    d2 create Note/r8 title="d2.139"
    d1 create Note/r9 title="d1.180"
    d2 create Note/r10 title="d2.181"
    d1 sync
    d1 crash
    quiesce
    expect invariants
    """

  static let cases = [
    ReplayCase(
      behaviour:
        "a crash between two pages of a zone fetch loses none: the zones still to fetch are in the persisted state",
      script: crashBetweenPages),
    ReplayCase(
      behaviour: "a duplicate of the delegate's own save landing after a local-only deletion is deleted again",
      script: case1),
    ReplayCase(
      behaviour: "a per-item networkFailure is an answer lost: the save may have landed, and the simulator applies it",
      script: case2),
    ReplayCase(
      behaviour:
        "a conflict answer says the save did not land, so a deletion of that record since has nothing to delete",
      script: case3),
    ReplayCase(
      behaviour: "a replacement defines only the keys its user set or left out, never values an earlier merge kept",
      script: case4),
    ReplayCase(behaviour: "the version the unsent edits were made on, fetched again, merges nothing", script: case5),
    ReplayCase(behaviour: "an edit unsent through a crash revives a concurrent deletion", script: case6),
    ReplayCase(
      behaviour:
        "a halt on a newer app's record keeps the ancestor the user's change was made on, so the merge after the upgrade keeps the other device's body (none seed 0, merging, major schemas)",
      script: """
        client sync-engine
        resolver merging
        schemas major
        device add d1 --clock-offset 0s
        device add d2 --clock-offset 0s
        send-after-edits
        invariants oneSidedChangesKept
        d1 upgrade
        d2 create Note/r11 title="d2.118"
        d1 create Note/r11 title="d1.155"
        d1 edit Note/r11 body="d1.157'\\nd1.157\\n"
        d2 edit Note/r11 body="d2.162\\n"
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a zone the engine created that a listing of the database from the beginning leaves out is reported deleted (hostile seed 490, merging, after the database token expired)",
      script: """
        client sync-engine
        resolver merging
        delete-policy editWins
        device add d1 --clock-offset 0s
        send-after-edits
        invariants convergence
        d1 create Note/r4 title="d1.21"
        advance 1s
        fault delete-zone
        fault expire-database-tokens
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a save in doubt that lands after the record's deletion is fetched as the device's own and deleted again (swarm seed 382, merging)",
      script: """
        client sync-engine
        resolver merging
        device add d1 --clock-offset 0s
        send-after-edits
        limit batch-items 3 page-size 3
        invariants noResurrection
        d1 create Note/r3 title="d1.6"
        fault lose-response d1
        d1 edit Note/r3 title="d1.28"
        advance 2s
        d1 create Note/r1 title="d1.47"
        fault lose-response d1
        advance 60s
        fault delay d1 83s
        advance 57s
        d1 delete Note/r1
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a replacement leaves alone a key its app learnt only after the user created it (an upgrade since), which another device wrote meanwhile (none seed 434, merging, major schemas)",
      script: """
        client sync-engine
        resolver merging
        delete-policy editWins
        schemas major
        device add d2 --clock-offset 0s
        device add d3 --clock-offset 0s
        send-after-edits
        invariants oneSidedChangesKept
        d3 create Note/r1 title="d3.0"
        d3 delete Note/r1
        d3 create Note/r2 title="d3.3"
        d2 sync
        d2 upgrade
        d2 edit Note/r2 body=""
        d3 edit Note/r2 rank=120
        d3 create Note/r1 title="d3.123"
        d2 edit Note/r1 color="d2.126"
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a replacement whose own save landed unanswered, and was edited elsewhere since, merges with that version instead of overwriting it (flaky seed 235, major schemas)",
      script: """
        client sync-engine
        resolver field-merge
        delete-policy editWins
        schemas major
        device add d1 --clock-offset 0s
        device add d3 --clock-offset 0s
        send-after-edits
        invariants oneSidedChangesKept
        d1 create Note/r3 title="d1.8"
        fault lose-request d1
        d1 create Note/r4 title="d1.42"
        advance 41s
        d1 delete Note/r4
        fault lose-response d1
        advance 16s
        d1 create Note/r4 title="d1.158"
        d3 crash
        d3 edit Note/r4 rank=172
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a deletion of a record whose save is still in doubt outlives a fetch from the beginning, and the record created again replaces that save's late copy (hostile seed 210)",
      script: """
        client sync-engine
        resolver merging
        delete-policy deleteWins
        schemas minor
        device add d1 --clock-offset 0s
        device add d2 --clock-offset 0s
        send-after-edits
        invariants oneSidedChangesKept
        d1 create Note/r2 title="d1.3"
        d2 crash
        fault delay d2 61s
        d2 create Note/r5 title="d2.22"
        advance 5s
        d2 delete Note/r5
        advance 31s
        d2 crash
        advance 22s
        d2 create Note/r5 title="d2.164"
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a record halted on (a newer app's) and then deleted here is deleted on the server too, though the copy shown was never acknowledged (merging, none, major seed 324)",
      script: """
        client sync-engine
        resolver merging
        delete-policy deleteWins
        schemas major
        device add d2 --clock-offset 0s
        device add d3 --clock-offset 0s
        send-after-edits
        invariants convergence
        d2 upgrade
        d2 create Note/r5 title="d2.45"
        d3 offline
        d3 create Note/r5 title="d3.80"
        d3 online
        d3 delete Note/r5
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a create once unanswered may land after a later copy was answered: deleted after that, its late copy is deleted again (merging, hostile, minor seed 381)",
      script: """
        client sync-engine
        resolver merging
        delete-policy editWins
        schemas minor
        device add d1 --clock-offset 0s
        send-after-edits
        invariants noResurrection
        d1 create Note/r1 title="d1.0"
        fault throttle 13s
        advance 2s
        d1 create Note/r4 title="d1.74"
        advance 3s
        fault delay d1 90s
        advance 68s
        d1 delete Note/r4
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a deletion whose answer was lost waits for a fetch before it is sent again, so it never deletes a record another device revived since (merging, swarm seed 133)",
      script: """
        client sync-engine
        resolver merging
        delete-policy editWins
        schemas none
        device add d1 --clock-offset 0s
        device add d2 --clock-offset 0s
        send-after-edits
        limit batch-items 10
        invariants noLostRecords
        d1 create Note/r1 title="d1.2"
        fault delay d1 1s
        d1 delete Note/r1
        d1 crash
        fault lose-response d1
        fault lose-response d1
        fault lose-response d1
        d2 crash
        fault duplicate d1
        d2 offline
        fault delay d1 0s
        fault lose-response d1
        d1 crash
        advance 58s
        d2 edit Note/r1 tags=["c", "f", "d"]
        advance 1s
        d1 crash
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a zone found missing and then listed again is there: a crash between the two fetches does not turn the error into a deletion that drops what the listing fetched (hostile seed 285)",
      script: """
        # seed 285, shrunk from 200 to 11 steps
        # faults hostile
        # broke convergence: d1 differs from the server on r2: device has nothing; server has Note r2 in Notes:__defaultOwner__ tag t2 {title: "d3.2"}
        client sync-engine
        resolver field-merge
        delete-policy deleteWins
        schemas none
        device add d1 --clock-offset 0s
        device add d2 --clock-offset 0s
        device add d3 --clock-offset 0s
        send-after-edits
        invariants convergence
        d2 create Note/r1 title="d2.0"
        fault throttle 22s
        d3 create Note/r2 title="d3.2"
        d1 create Note/r3 title="d1.3"
        advance 18s
        d3 sync
        fault expire-database-tokens
        fault delete-zone
        fault torn-crash d1 after 3
        d1 crash
        advance 1s
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a zone fetch that finds the zone purged leaves the zone missing for the purge, even when a compacted feed never reports it (merging editWins swarm seed 23)",
      script: """
        # seed 23, shrunk from 100 to 6 steps
        # faults swarm
        # broke convergence: d3 differs from the server on r2: device has Note r2 in Notes:__defaultOwner__ tag t1 {schemaVersion: "1.0.0", title: "d1.3"}; server has nothing
        client sync-engine
        resolver merging
        delete-policy editWins
        schemas minor
        device add d1 --clock-offset 0s
        device add d3 --clock-offset 0s
        send-after-edits
        limit batch-items 5 batch-bytes 400 page-size 2
        invariants convergence
        d1 create Note/r2 title="d1.3"
        d1 create Note/r5 title="d1.45"
        d1 create Note/r6 title="d1.89"
        d3 crash
        fault purge-zone
        fault expire-database-tokens
        quiesce
        expect invariants
        """),
    ReplayCase(
      behaviour:
        "a copy uploaded again after an encrypted-data reset merges its unsent edits into the new zone's record, whose other creation date is the zone's doing (merging hostile seed 0)",
      script: """
        # seed 0, shrunk from 150 to 6 steps
        # faults hostile
        # broke oneSidedChangesKept: concurrent writes of tags of r1 (d3: ["a", "f", "e", "b"], d2: ["f", "c"]), yet the server ended with ["f", "c"] (every element added kept, every element removed gone), none of them
        client sync-engine
        resolver merging
        delete-policy deleteWins
        schemas none
        device add d2 --clock-offset 0s
        device add d3 --clock-offset 0s
        send-after-edits
        invariants oneSidedChangesKept
        d3 create Note/r1 title="d3.0"
        d2 sync
        fault reset-encrypted-data
        d2 crash
        d3 edit Note/r1 tags=["a", "f", "e", "b"]
        d2 edit Note/r1 tags=["f", "c"]
        quiesce
        expect invariants
        """),
  ]

  @Test("each counterexample replays with every invariant held", arguments: cases)
  func delegateHolds(_ example: ReplayCase) throws {
    try example.expectHeld()
  }
}
