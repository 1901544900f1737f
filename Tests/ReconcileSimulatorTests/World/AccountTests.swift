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
      // The edit made while the app is not running cannot apply: it is data here, as in a drawn run.
      "client \(client)", "steps-may-skip", "device add d1", "device add d2", "send-after-edits",
      "d1 create Note/r1 title=\"a1\"",
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

}
