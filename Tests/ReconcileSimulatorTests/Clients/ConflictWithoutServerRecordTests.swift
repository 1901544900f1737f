import Foundation
import ReconcileSimulator
import Testing

/// CloudKit attaches the server's record to `serverRecordChanged` only "if available". Every client must then keep the
/// refused change, fetch, and merge with what the fetch brings — never drop the change or send it blindly again.
@Suite("A conflict answered without the server's record")
struct ConflictWithoutServerRecordTests {
  /// Two devices edit different keys of one note; the mac sends its edit before fetching the phone's, and its save
  /// meets a conflict whose answer lacks the server's record.
  static func script(client: String) -> String {
    """
    client \(client)
    resolver field-merge
    device add phone
    device add mac
    limit conflict-without-record-every 1
    send-after-edits
    phone create Note/n1 title="milk"
    quiesce
    phone edit Note/n1 title="oat milk"
    wait phone
    mac edit Note/n1 body="2 litres"
    wait mac
    """
  }

  @Test(
    "the refused change is kept, merged after a fetch, and both edits reach the server",
    arguments: ["reference", "sync-engine"])
  func bothEditsReachTheServer(_ client: String) throws {
    var session = SimulationSession()
    var trace: [String] = []
    for line in Self.script(client: client).split(separator: "\n") {
      trace.append(try session.interpret(String(line)).text)
    }
    for expectation in [
      "expect mac errors:serverRecordChanged >= 1", "quiesce", "expect server Note/n1 title = \"oat milk\"",
      "expect server Note/n1 body = \"2 litres\"", "expect converged", "expect invariants",
    ] {
      do {
        trace.append(try session.interpret(expectation).text)
      } catch {
        Issue.record("\(client): \(error.message)\n\(trace.joined(separator: "\n"))")
        return
      }
    }
  }
}
