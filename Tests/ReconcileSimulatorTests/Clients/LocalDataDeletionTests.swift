import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// The hook before deletion: a client that deletes local data wholesale — for a purge, a deletion standing for the
/// user's, an account change — hands the app every copy that goes first, unsent edits included; one that keeps the
/// data (an encrypted-data reset) hands over nothing.
@Suite("The hook before deletion: every copy a wholesale deletion takes is handed to the app first")
struct LocalDataDeletionTests {
  /// d1 holds n1 (synced, then edited offline) and n2 (created offline, never sent); then `event` happens and the run
  /// settles.
  static func script(client: String, _ event: String) -> String {
    """
    client \(client)
    device add d1
    device add d2
    send-after-edits
    d1 create Note/n1 title="synced"
    advance 5s
    d1 offline
    d1 create Note/n2 title="unsent"
    d1 edit Note/n1 body="unsent edit"
    \(event)
    d1 online
    quiesce
    """
  }

  static func handOvers(client: String, _ event: String) throws -> [LocalDataDeletion] {
    let parsed = try SimulationScript.parse(Self.script(client: client, event))
    var simulation = Simulation(script: parsed)
    let result = simulation.run()
    #expect(result.violations.isEmpty, "\(result.violations)")
    // The hand-overs are each client's own record of its hook, not something the world reads.
    return try #require(simulation.client(named: "d1") as? any HandsOverLocalData).localDataDeletions
  }

  @Test(
    "a purge hands over the copies the server had, with their unsent edits; a note never sent stays",
    arguments: ["reference", "sync-engine"])
  func purgeHandsOverWhatGoes(_ client: String) throws {
    let handed = try Self.handOvers(client: client, "fault purge-zone")
    #expect(handed.map(\.cause) == [.zoneDeletion(.purged)])
    let records = handed.flatMap(\.records)
    #expect(records.map(\.recordID.recordName) == ["n1"])
    #expect(records.first?["body"] == .string("unsent edit"))
  }

  @Test("a switch of accounts hands over the previous account's copies", arguments: ["reference", "sync-engine"])
  func switchHandsOverEverything(_ client: String) throws {
    let handed = try Self.handOvers(client: client, "d1 sign-in _other")
    #expect(handed.map(\.cause) == [.accountChange(.switchAccounts(previousUser: "_user", currentUser: "_other"))])
    #expect(handed.flatMap(\.records).map(\.recordID.recordName) == ["n1", "n2"])
  }

  @Test("an encrypted-data reset keeps the data and hands over nothing", arguments: ["reference", "sync-engine"])
  func resetHandsOverNothing(_ client: String) throws {
    #expect(try Self.handOvers(client: client, "fault reset-encrypted-data").isEmpty)
  }
}
