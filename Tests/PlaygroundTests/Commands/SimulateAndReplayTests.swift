import Foundation
import Reconcile
import ReconcilePlayground
import Testing

@Suite("Playground simulate and replay")
struct SimulateAndReplayTests {
  /// The committed script the property runner shrank: server last-writer-wins loses a one-sided edit.
  static let failingScript: String =
    (try? String(
      contentsOf: GoldenTests.repository.appendingPathComponent(
        "Playground/Scripts/server-lww-loses-one-sided-edit.rcp"),
      encoding: .utf8)) ?? ""

  static func run(_ arguments: [String], files: [String: String] = [:]) -> (status: Int32, text: String) {
    let out = BufferedOutput()
    let environment = PlaygroundEnvironment(readFile: { path in
      guard let text = files[path] else { throw CocoaError(.fileNoSuchFile) }
      return Data(text.utf8)
    })
    let status = PlaygroundCommand.run(arguments: arguments, output: out, environment: environment)
    return (status, out.text)
  }

  @Test("simulate prints the same report for the same seed, and every invariant it checked")
  func simulateIsDeterministic() {
    let arguments = ["simulate", "--seed", "7", "--steps", "80", "--resolver", "hlc", "--faults", "flaky", "--trace"]
    let first = Self.run(arguments)
    let second = Self.run(arguments)
    #expect(first.status == 0)
    #expect(first.text == second.text)
    #expect(first.text.contains("seed 7, 3 devices, 80 steps, resolver hlc"))
    #expect(first.text.contains("latestStampKept"))
    #expect(first.text.contains("no invariant violated"))
    #expect(Self.run(["simulate", "--seed", "8", "--steps", "80", "--trace"]).text != first.text)
  }

  @Test("simulate runs another client and a zoo defect, and names an unknown client")
  func simulateClientsAndDefects() {
    let engine = Self.run([
      "simulate", "--seed", "3", "--steps", "60", "--client", "sync-engine", "--clock-skew", "0", "--faults", "none",
      "--resolver", "server-lww", "--delete-policy", "editWins",
    ])
    #expect(engine.status == 0, "\(engine.text)")
    #expect(engine.text.contains("no invariant violated"))
    let broken = Self.run([
      "simulate", "--seed", "3", "--steps", "60", "--faults", "swarm", "--defect", "ignore-retry-after",
    ])
    #expect(broken.status == 1)
    #expect(broken.text.contains("retryAfterHonoured") && broken.text.contains("defect ignore-retry-after"))
    let unknown = Self.run(["simulate", "--client", "nope"])
    #expect(unknown.status == 2)
    #expect(unknown.text.contains("unknown client 'nope'"))
  }

  @Test("simulate --json prints one JSON object with the invariants, devices and statistics")
  func simulateJSON() throws {
    let result = Self.run(["simulate", "--seed", "3", "--steps", "50", "--devices", "4", "--json"])
    #expect(result.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
    #expect(object["seed"] as? Int == 3)
    #expect((object["devices"] as? [Any])?.count == 4)
    #expect((object["statistics"] as? [String: Any])?["steps"] as? Double == 50)
    #expect(object["passed"] as? Bool == true)
  }

  @Test(
    "simulate names a bad option or value and suggests the nearest",
    arguments: [
      (["simulate", "--resolvr", "hlc"], "unknown option --resolvr; did you mean --resolver?"),
      (["simulate", "--resolver", "hcl"], "did you mean 'hlc'?"),
      (["simulate", "--faults", "flakey"], "did you mean 'flaky'?"),
      (["simulate", "--devices", "40"], "--devices 40: expected an integer from 1 to 26"),
      (["simulate", "--seed", "-1"], "--seed -1: expected a non-negative integer"),
      (["simulate", "--steps"], "--steps needs a value"),
    ])
  func simulateUsageErrors(arguments: [String], message: String) {
    let result = Self.run(arguments)
    #expect(result.status == 2)
    #expect(result.text.contains(message), "\(result.text)")
  }

  @Test("replay runs a property runner's script, prints the broken invariant and the trace, and exits 1")
  func replayFailingScript() {
    #expect(Self.failingScript.contains("resolver server-lww"))
    let result = Self.run(["replay", "failure.rcp"], files: ["failure.rcp": Self.failingScript])
    #expect(result.status == 1)
    #expect(result.text.contains("oneSidedChangesKept  VIOLATED: d2 set rank of r16 to 153"))
    #expect(result.text.contains("7 d1 edit Note/r16 title=\"d1.159\""))
  }

  @Test("replay exits 0 when the same steps keep every invariant")
  func replayPassingScript() {
    let script = Self.failingScript.replacingOccurrences(of: "server-lww", with: "field-merge")
    let result = Self.run(["replay", "ok.rcp"], files: ["ok.rcp": script])
    #expect(result.status == 0, "\(result.text)")
    #expect(result.text.contains("no invariant violated"))
  }

  @Test("replay names the file, line and token of a bad script, and a missing file")
  func replayErrors() {
    let bad = Self.failingScript.replacingOccurrences(of: "d1 sync", with: "d1 snyc")
    let result = Self.run(["replay", "bad.rcp"], files: ["bad.rcp": bad])
    #expect(result.status == 1)
    #expect(result.text.contains("error: bad.rcp: line 13:"), "\(result.text)")
    #expect(result.text.contains("snyc"))
    let missing = Self.run(["replay", "nowhere.rcp"])
    #expect(missing.status == 1)
    #expect(missing.text.contains("error: cannot read nowhere.rcp"))
  }
}
