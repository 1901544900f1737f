import Foundation
import ReconcileSimulator
import Testing

/// Runs no device can tell apart get one verdict: the judge's demands follow from what devices observed. The scripts
/// are the judge's mistakes #50 reported, shrunk from sweeps of a client written outside the project; each client must
/// get the same verdict in both runs of a pair, and pass where no client could do better.
@Suite("Judge: runs no device can tell apart get the same verdict")
struct JudgeTwinTests {
  static let clients = ["reference", "sync-engine", "notes"]

  /// d1 edits a note across two encrypted-data resets while its database token expires (`second` is the second
  /// reset), or across a reset and a client's deletion of the zone: either way d1 lists the zones from the beginning
  /// and learns no reason, and every device receives the same events.
  static func twin(client: String, second: String, expireTokens: Bool) -> String {
    """
    client \(client)
    resolver field-merge
    delete-policy editWins
    device add d1 --clock-offset 0s
    device add d3 --clock-offset 0s
    send-after-edits
    d3 create Note/r2 title="d3.2"
    d1 sync
    fault delay d1 1s
    d1 crash
    fault reset-encrypted-data
    \(second)
    d1 edit Note/r2 title="d1.167"
    \(expireTokens ? "fault expire-database-tokens" : "")
    quiesce
    expect invariants
    """
  }

  static func verdict(_ script: String) throws -> Set<String> {
    Set(try Simulation.replay(script, clients: [.notes]).violations.map { "\($0.invariant)" })
  }

  @Test(
    "a second reset with expired tokens and a zone deletion without: one verdict, for every client", arguments: clients)
  func resetTwinsGetOneVerdict(_ client: String) throws {
    let first = try Self.verdict(
      Self.twin(client: client, second: "fault reset-encrypted-data", expireTokens: true))
    let second = try Self.verdict(Self.twin(client: client, second: "fault delete-zone", expireTokens: false))
    #expect(first == second, "\(client): \(first) against its twin's \(second)")
    #expect(first.isEmpty, "\(client) keeps every invariant in both: \(first)")
  }

  /// d3's later write superseded the value that beat d2's fairly, then d3 deleted the note and an encrypted-data reset
  /// followed: no surviving copy holds d3's value, so no client can be held to it.
  @Test("a value no surviving copy holds is not demanded", arguments: clients)
  func valueNoCopyHoldsIsNotDemanded(_ client: String) throws {
    let script = """
      client \(client)
      resolver field-merge
      delete-policy editWins
      device add d2 --clock-offset 0s
      device add d3 --clock-offset 0s
      send-after-edits
      limit batch-items 5 batch-bytes 2000 page-size 10
      d3 create Note/r6 title="d3.76"
      d2 sync
      d3 edit Note/r6 body="d3.93"
      d2 edit Note/r6 body="d2.102"
      d3 edit Note/r6 body="d3.109"
      d3 delete Note/r6
      fault reset-encrypted-data
      quiesce
      expect invariants
      """
    #expect(try Self.verdict(script).isEmpty)
  }
}
