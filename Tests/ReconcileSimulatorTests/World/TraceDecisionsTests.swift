import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// The trace explains what each client decided — a fetch's changes, a conflict's merge key by key and what it gave
/// away — not only what the server saved.
@Suite("The trace explains the clients' decisions")
struct TraceDecisionsTests {
  static func script(client: String) -> String {
    """
    client \(client)
    resolver field-merge
    device add phone
    device add mac
    phone create Note/1 title="milk" body="eggs"
    phone sync
    advance 5s
    mac sync
    advance 5s
    phone edit Note/1 title="oat milk"
    mac edit Note/1 title="soy milk" body="eggs, bread"
    advance 5s
    phone sync
    advance 5s
    mac sync
    advance 5s
    quiesce
    """
  }

  @Test(
    "a conflict's merge names each key's outcome and the value it gave away", arguments: ["reference", "sync-engine"])
  func mergeIsExplained(_ client: String) throws {
    let result = try Simulation.replay(Self.script(client: client))
    let merge =
      "mac: merged Note/1 over the last version it knew: body: kept client; title: kept server, lost \"soy milk\""
    #expect(result.trace.contains { $0.contains(merge) }, "\(result.trace.joined(separator: "\n"))")
  }

  @Test("a fetch names what it brought (the CKSyncEngine client)")
  func fetchIsExplained() throws {
    let result = try Simulation.replay(Self.script(client: "sync-engine"))
    #expect(
      result.trace.contains { $0.contains("phone: fetched saved record 1") }, "\(result.trace.joined(separator: "\n"))")
  }
}
