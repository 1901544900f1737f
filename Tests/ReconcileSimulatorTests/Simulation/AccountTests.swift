import Foundation
import ReconcileSimulator
import Testing

/// iCloud accounts: devices sign in, out and across accounts; each account's records stay in its own database, and
/// each database is judged against what users meant for it.
@Suite("Accounts: each account's records stay in its own database and are judged there")
struct AccountTests {
  /// d2 signs in to another account, creates r2 there, signs out, creates r3 while signed out, and signs back in to
  /// the first account, which r3 is uploaded to.
  static func twoAccounts(client: String, defect: String? = nil) -> String {
    """
    client \(client)
    \(defect.map { "defect \($0)" } ?? "")
    device add d1
    device add d2
    send-after-edits
    d1 create Note/r1 title="a1"
    advance 3s
    d2 sync
    advance 2s
    d2 sign-in _other
    advance 2s
    d2 create Note/r2 title="b1"
    advance 3s
    d2 sign-out
    advance 2s
    d2 create Note/r3 title="offline"
    advance 3s
    d2 sign-in _user
    advance 5s
    quiesce
    expect invariants
    """
  }

  @Test("each account's records stay in its database, on both clients", arguments: ["reference", "sync-engine"])
  func recordsStayInTheirAccount(_ client: String) throws {
    let result = try Simulation.replay(Self.twoAccounts(client: client))
    #expect(result.passed, "\(result.violations)")
    // r1 and r3 are judged in the first account's database, r2 in the other's.
    guard case .held(let privacy) = result.outcomes[.accountsKeptApart] else {
      Issue.record("accountsKeptApart was not judged: \(String(describing: result.outcomes[.accountsKeptApart]))")
      return
    }
    #expect(privacy > 0)
    #expect(result.outcomes[.noLostRecords] == .held(checks: 3))
  }

  @Test(
    "a client that carries one account's data into another is caught by accountsKeptApart",
    arguments: [ClientDefect.keepDataAcrossAccounts, .uploadPendingToNewAccount])
  func carriedDataIsCaught(_ defect: ClientDefect) throws {
    let script = """
      defect \(defect.rawValue)
      device add d1
      device add d2
      send-after-edits
      d1 create Note/r1 title="a1"
      advance 3s
      d2 sync
      advance 2s
      d2 offline
      d2 edit Note/r1 title="a2"
      d2 sign-in _other
      d2 online
      advance 5s
      quiesce
      expect invariants
      """
    let broken = try Simulation.replay(script)
    #expect(broken.violations.contains { $0.invariant == .accountsKeptApart }, "\(broken.violations)")
    let healthy = try Simulation.replay(script.replacingOccurrences(of: "defect \(defect.rawValue)\n", with: ""))
    #expect(healthy.passed, "\(healthy.violations)")
  }

  @Test("a client that keeps its sync state across accounts deletes the new account's record of the same name")
  func syncStateKeptIsCaught() throws {
    let script = """
      defect keep-sync-state-across-accounts
      device add d1
      device add d2
      send-after-edits
      d2 sign-in _other
      d2 create Note/r1 title="b1"
      d1 create Note/r1 title="a1"
      advance 3s
      d1 offline
      d1 delete Note/r1
      d1 sign-in _other
      d1 online
      advance 5s
      quiesce
      expect invariants
      """
    let broken = try Simulation.replay(script)
    #expect(broken.violations.contains { $0.invariant == .noLostRecords }, "\(broken.violations)")
    let healthy = try Simulation.replay(
      script.replacingOccurrences(of: "defect keep-sync-state-across-accounts\n", with: ""))
    #expect(healthy.passed, "\(healthy.violations)")
  }

  /// d2 edits r1 offline, signs out with its data kept for the account, creates r3 while signed out, and signs in
  /// again to `account`: its own account gets every change; another gets none of them.
  static func keptForTheAccount(signingInTo account: String) -> [String] {
    [
      "account-change keep", "device add d1", "device add d2", "send-after-edits", "d1 create Note/r1 title=\"a1\"",
      "advance 3s", "d2 sync", "advance 2s", "d2 offline", "d2 edit Note/r1 title=\"a2\"", "d2 sign-out",
      "d2 create Note/r3 title=\"offline\"", "d1 edit Note/r1 body=\"b1\"", "advance 3s", "d2 sign-in \(account)",
      "d2 online", "advance 5s", "quiesce",
    ]
  }

  @Test("an app that keeps local data for the same account sends what was made signed out to that account only")
  func keepForTheSameAccount() throws {
    var same = SimulationSession()
    for line in Self.keptForTheAccount(signingInTo: "_user") { _ = try same.interpret(line) }
    // The edit unsent at the sign-out and the note made signed out both reach the account.
    #expect(try same.interpret("expect server Note/r1 title = \"a2\"").text.hasPrefix("ok:"))
    #expect(try same.interpret("expect server Note/r1 body = \"b1\"").text.hasPrefix("ok:"))
    #expect(try same.interpret("expect server Note/r3 exists").text.hasPrefix("ok:"))
    #expect(try same.execute("expect invariants").violations.isEmpty)

    var other = SimulationSession()
    for line in Self.keptForTheAccount(signingInTo: "_other") { _ = try other.interpret(line) }
    // Signing in to another account deleted them: the first account keeps what it had.
    #expect(try other.interpret("expect server Note/r1 title = \"a1\"").text.hasPrefix("ok:"))
    #expect(try other.interpret("expect server Note/r3 absent").text.hasPrefix("ok:"))
    #expect(try other.execute("expect invariants").violations.isEmpty)
  }

  /// d2 edits r1 offline and quits; while it is not running its user signs out and then in to `account`; it launches.
  static func changedWhileQuit(client: String, signingInTo account: String) -> [String] {
    [
      "client \(client)", "device add d1", "device add d2", "send-after-edits", "d1 create Note/r1 title=\"a1\"",
      "advance 3s", "d2 sync", "advance 3s", "d2 offline", "d2 edit Note/r1 title=\"a2\"", "d2 quit",
      "d2 edit Note/r1 title=\"never\"", "d2 sign-out", "advance 2s", "d2 sign-in \(account)", "advance 2s",
      "d2 online", "d2 launch", "advance 5s", "quiesce",
    ]
  }

  @Test(
    "account changes while the app is not running reach it at launch as one change, on both clients",
    arguments: ["reference", "sync-engine"])
  func changesWhileQuitArriveAsOne(_ client: String) throws {
    // Out and back in to the same account: no change at all, so the edit left unsent at the quit is kept and sent. (A
    // sign-out delivered on its own would have deleted it, as the app deletes local data on a sign-out.)
    var same = SimulationSession()
    var skipped: [String] = []
    for line in Self.changedWhileQuit(client: client, signingInTo: "_user") {
      let text = try same.interpret(line).text
      if text.contains("not running") { skipped.append(line) }
    }
    #expect(skipped == ["d2 edit Note/r1 title=\"never\""])
    #expect(try same.interpret("expect server Note/r1 title = \"a2\"").text.hasPrefix("ok:"))
    #expect(try same.execute("expect invariants").violations.isEmpty)

    // Into another account: one switch, which deletes the previous account's local data, unsent edit and all.
    var other = SimulationSession()
    for line in Self.changedWhileQuit(client: client, signingInTo: "_other") { _ = try other.interpret(line) }
    #expect(try other.interpret("expect server Note/r1 title = \"a1\"").text.hasPrefix("ok:"))
    #expect(try other.interpret("expect d2 Note/r1 absent").text.hasPrefix("ok:"))
    #expect(try other.execute("expect invariants").violations.isEmpty)
  }

  @Test("a switch and back while the app is not running reaches it as no change, and nothing is judged for the other")
  func switchAndBackWhileQuitIsNoChange() throws {
    let result = try Simulation.replay(
      """
      device add d2
      send-after-edits
      d2 create Note/r1 title="d2.1"
      d2 quit
      d2 sign-in _other
      d2 sign-in _user
      quiesce
      expect invariants
      """)
    // The other account's database holds nothing, and no app was told of it: nothing is meant for it.
    #expect(result.passed, "\(result.violations)")
    #expect(result.outcomes[.noLostRecords] == .held(checks: 1))
  }

  /// Seeded runs that failed before a fix of the judge's model of accounts or of a client, shrunk; each held once
  /// fixed. Named by the configuration and seed that found it.
  static let foundAtScale: [ReplayCase] = [
    // The deletion was never sent before the switch deleted the local data: it never happened on the server.
    ReplayCase(
      behaviour: "hostile seed 0: a deletion unsent at a switch is withdrawn",
      script: """
        device add d1
        device add d3
        send-after-edits
        d1 create Note/r6 title="d1.57"
        d3 sync
        advance 2s
        d3 delete Note/r6
        d3 sign-in _other
        quiesce
        expect invariants
        """
    ),
    // d2's edit landed before its deletion, which the sign-out withdrew: the edit stands as a racing write.
    ReplayCase(
      behaviour: "hostile seed 78: an edit whose later deletion was withdrawn stands",
      script: """
        device add d1
        device add d2
        send-after-edits
        d1 sign-in _other
        d1 create Note/r4 title="d1.21"
        d2 sign-in _other
        advance 2s
        d2 edit Note/r4 title="d2.93"
        d2 delete Note/r4
        d2 sign-out
        quiesce
        expect invariants
        """
    ),
    // Signed out, the device forgot it had seen r10: its create races the version on the server.
    ReplayCase(
      behaviour: "hostile seed 255: a create made signed out races what the device saw before",
      script: """
        device add d1
        send-after-edits
        d1 create Note/r10 title="d1.98"
        advance 5s
        d1 sign-out
        d1 create Note/r10 title="d1.142"
        d1 sign-in _user
        quiesce
        expect invariants
        """
    ),
    // The deletion was on its way at the sign-out and landed: it stands.
    ReplayCase(
      behaviour: "hostile seed 402: a deletion on its way at a sign-out lands",
      script: """
        device add d3
        send-after-edits
        d3 create Note/r2 title="d3.3"
        advance 3s
        d3 offline
        d3 delete Note/r2
        d3 create Note/r2 title="d3.20"
        fault corrupt d3 Note/r2
        d3 online
        d3 sign-out
        quiesce
        expect invariants
        """
    ),
    // d1 deleted a copy only it held (made signed out); the server's r2 is not what the user deleted.
    ReplayCase(
      behaviour: "sync-engine hostile seed 218: after a sign-out, a deletion races what the device saw before it",
      script: """
        client sync-engine
        resolver hlc
        device add d1
        device add d2
        send-after-edits
        d1 create Note/r2 title="d1.1"
        d2 sign-in _other
        d2 sign-in _user
        d1 sign-out
        d1 offline
        d1 create Note/r2 title="d1.111"
        d2 edit Note/r2 body="d2.112"
        d1 sign-in _user
        d1 delete Note/r2
        quiesce
        expect invariants
        """
    ),
    // A deletion of a signed-out copy took effect on the device: it withdrew the edits before it.
    ReplayCase(
      behaviour: "sync-engine hostile seed 288: a deletion with nothing to send is not withdrawn",
      script: """
        client sync-engine
        resolver merging
        device add d1
        send-after-edits
        d1 sign-out
        d1 create Note/r2 title="d1.5"
        d1 edit Note/r2 plays=2
        d1 delete Note/r2
        d1 sign-in _user
        d1 create Note/r2 title="d1.49"
        d1 edit Note/r2 plays=-1
        d1 sign-out
        quiesce
        expect invariants
        """
    ),
    // A create that leaves a list out removes only the elements that could be there when it landed.
    ReplayCase(
      behaviour: "sync-engine swarm seed 68: a create removes no element added after it landed",
      script: """
        client sync-engine
        resolver merging
        device add d1
        device add d2
        send-after-edits
        limit batch-items 10 batch-bytes 400 page-size 5
        d2 create Note/r2 title="d2.67"
        d2 delete Note/r2
        d1 sync
        fault quota-full 59s
        d2 create Note/r2 title="d2.112"
        d2 edit Note/r2 steps=["d2.116"]
        d1 edit Note/r2 steps=["d1.130", "d1.130'"]
        d1 edit Note/r2 steps=["d1.131", "d1.130'"]
        quiesce
        expect invariants
        """
    ),
    // The create's save was on its way past a deletion the sign-out withdrew: it is the create's, and the create
    // made signed out afterwards replaces nothing.
    ReplayCase(
      behaviour: "sync-engine swarm seed 79: a save past a withdrawn deletion is the create's",
      script: """
        client sync-engine
        resolver merging
        device add d1
        send-after-edits
        limit batch-items 5 batch-bytes 2000
        d1 create Note/r2 title="d1.1"
        d1 delete Note/r2
        d1 sign-out
        d1 create Note/r2 rank=152
        d1 sign-in _user
        quiesce
        expect invariants
        """
    ),
    // A device signed out with a change queued waits for its user to sign in: the world is quiet without it.
    ReplayCase(
      behaviour: "merging hostile seed 450: a signed-out device with queued changes is quiet",
      script: """
        resolver merging
        device add d1
        send-after-edits
        d1 create Note/r2 title="d1.3"
        advance 3s
        fault throttle 57s
        fault expire-tokens
        advance 4s
        fault transient d1 serviceUnavailable 0s
        advance 13s
        fault expire-database-tokens
        advance 14s
        d1 edit Note/r2 rank=58
        advance 1s
        fault throttle 21s
        advance 33s
        fault transient d1 serviceUnavailable 0s
        advance 27s
        fault transient d1 networkFailure 0s
        advance 42s
        d1 sign-out
        advance 2s
        d1 create Note/r11 title="d1.176"
        advance 20s
        fault transient d1 serviceUnavailable 0s
        advance 16s
        quiesce
        expect invariants
        """
    ),
    ReplayCase(
      // The create after the deletion replaced the record before the sign-out: the deletion stands with it.
      behaviour: "sync-engine edit-count swarm seed 67: a deletion replaced by a create that landed is not withdrawn",
      script: """
        client sync-engine
        resolver edit-count
        device add d3
        send-after-edits
        limit batch-items 10 batch-bytes 400 page-size 10
        d3 create Note/r2 title="d3.4"
        d3 edit Note/r2 rank=34
        d3 delete Note/r2
        d3 create Note/r2 title="d3.75"
        d3 sign-out
        quiesce
        expect invariants
        """
    ),
    ReplayCase(
      // The create made after the deletion never landed before the wipe: the deletion went with it.
      behaviour: "field-merge swarm seed 342: a replacement saved only after the wipe did not land before it",
      script: """
        resolver field-merge
        device add d2
        device add d3
        send-after-edits
        limit batch-bytes 2000 page-size 2
        d2 create Note/r2 title="d2.3"
        d3 create Note/r3 title="d3.4"
        advance 2s
        d3 delete Note/r2
        d3 create Note/r2 title="d3.91"
        d3 sign-out
        d3 sign-in _user
        advance 2s
        d3 edit Note/r2 title="d3.193"
        quiesce
        expect invariants
        """
    ),
    ReplayCase(
      // Same rule on the sync engine, in another account's database.
      behaviour: "sync-engine merging swarm seed 276: a replacement wiped before it was sent does not stand",
      script: """
        client sync-engine
        resolver merging
        device add d2
        send-after-edits
        limit batch-items 3 page-size 5
        d2 sign-in _other
        d2 create Note/r6 title="d2.49"
        d2 delete Note/r6
        fault throttle 3s
        d2 create Note/r6 title="d2.103"
        d2 sign-out
        d2 sign-in _other
        advance 1s
        d2 edit Note/r6 steps=["d2.191", "d2.78", "d2.178"]
        quiesce
        expect invariants
        """
    ),
    ReplayCase(
      // d2's deletion, made signed out on another copy, does not withdraw the edit it made before signing out.
      behaviour: "sync-engine merging hostile seed 347: a deletion after a sign-out withdraws nothing made before it",
      script: """
        client sync-engine
        resolver merging
        schemas major
        device add d1
        device add d2
        device add d3
        send-after-edits
        d2 sign-in _other
        d1 sign-in _other
        d1 create Note/r4 title="d1.54"
        d2 sync
        d2 edit Note/r4 rank=62
        d2 sign-out
        d3 sign-in _other
        d3 edit Note/r4 title="d3.136"
        d2 create Note/r4 title="d2.140"
        d2 delete Note/r4
        d2 sign-in _other
        quiesce
        expect invariants
        """
    ),
    ReplayCase(
      // A list emptied that held nothing is carried by any save: it proves no landing, so the wiped edit is withdrawn.
      behaviour: "merging editWins hostile seed 83: an edit that added nothing proves no landing",
      script: """
        resolver merging
        delete-policy editWins
        device add d3
        send-after-edits
        d3 sign-in _other
        d3 create Note/r3 title="d3.17"
        advance 1s
        d3 edit Note/r3 rank=34 steps=[]
        fault throttle 1s
        d3 sign-in _user
        d3 sign-in _other
        advance 3s
        d3 delete Note/r3
        quiesce
        expect invariants
        """
    ),
  ]

  @Test("account-change runs found at scale hold", arguments: foundAtScale)
  func foundAtScaleHolds(_ example: ReplayCase) throws {
    try example.expectHeld()
  }
}
