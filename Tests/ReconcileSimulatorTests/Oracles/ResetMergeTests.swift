import Foundation
import ReconcileSimulator
import Testing

/// Encrypted-data resets drawn in seeded runs: the counterexamples each fix answered, shrunk, replayed with every
/// invariant held. Each failed before its fix (of a client, or of the judge's model, as its behaviour says).
@Suite("Encrypted-data resets: an unsent edit outlives a reset")
struct ResetMergeTests {
  /// The judge sets such a key aside (copies of unknown age), so the value is checked on the server: d2's edit, made
  /// offline on its copy from before the reset, must merge into the record d1 uploaded again.
  @Test("an unsent edit to a copy from before a reset merges into the zone another device created again")
  func unsentEditMergesAcrossAReset() throws {
    var session = SimulationSession()
    for line in [
      "device add d1", "device add d2", "send-after-edits", "d1 create Note/r1 title=\"a\"", "advance 3s", "d2 sync",
      "advance 2s", "d2 offline", "fault reset-encrypted-data", "d2 edit Note/r1 body=\"b\"", "d1 sync", "advance 5s",
      "d2 online", "advance 5s", "quiesce",
    ] {
      _ = try session.interpret(line)
    }
    #expect(try session.interpret("expect server Note/r1 body = \"b\"").text.hasPrefix("ok:"))
    #expect(try session.execute("expect invariants").violations.isEmpty)
  }

}
