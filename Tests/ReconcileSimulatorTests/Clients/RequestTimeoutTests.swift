import Foundation
import ReconcileSimulator
import Testing

/// A client hears of time passing only through the host's timer (`HostEvent.timerFired`): a request whose answer
/// never comes must time out on it, or the client waits forever.
@Suite("A request lost on the way times out on the host's timer and is sent again")
struct RequestTimeoutTests {
  @Test(
    "a lost request holds the save back until its timeout, then the save reaches the server",
    arguments: ["reference", "sync-engine"])
  func lostRequestIsSentAgainAfterTheTimeout(_ client: String) throws {
    var session = SimulationSession()
    var trace: [String] = []
    for line in [
      "client \(client)", "device add phone", "fault lose-request phone", "phone create Note/n1 title=\"milk\"",
      "phone sync",
      "advance 55s", "expect server records = 0", "advance 60s", "expect server records = 1",
    ] {
      do {
        trace.append(try session.interpret(line).text)
      } catch {
        Issue.record("\(client), at '\(line)': \(error.message)\n\(trace.joined(separator: "\n"))")
        return
      }
    }
  }
}
