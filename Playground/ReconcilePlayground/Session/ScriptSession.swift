import Foundation
import ReconcileSimulator

/// What the REPL and `run` carry lines out with: the playground's commands, and every line of the simulator's replay
/// scripts, so a counterexample `explore` or `simulate` printed can be pasted in line by line — or run as a file — and
/// edited.
///
/// Lines go to the playground's session until one is a line only the replay language has (`schemas`, `client`,
/// `send-after-edits`, `quiesce`, a fault the playground does not know …). The lines before it, all of them valid
/// replay headers (`resolver`, `delete-policy`, `device add` …), are then carried out again in a ``SimulationSession``,
/// and every later line goes there.
struct ScriptSession {
  private var playground = PlaygroundSession()
  private var simulation: SimulationSession?
  private var history: [String] = []

  init(playground: PlaygroundSession = PlaygroundSession()) { self.playground = playground }

  /// Whether lines now go to the simulator.
  var isSimulating: Bool { simulation != nil }

  /// What a line printed, and whether it is data the user asked to see (shown even with `--quiet`).
  struct Outcome {
    var text: String
    var isData: Bool
  }

  /// Carries out one line.
  /// - Throws: ``ScriptError`` naming what is wrong; an `expect invariants` that finds a broken invariant is one.
  mutating func execute(line: String) throws(ScriptError) -> Outcome {
    if var session = simulation {
      defer { simulation = session }
      return try Self.simulate(line, in: &session)
    }
    let command: ScriptCommand?
    do {
      command = try ScriptParser.parse(line)
    } catch {
      guard var session = Self.replaying(history) else { throw error }
      var probe = session
      if let outcome = try? Self.simulate(line, in: &probe) {
        // A replay script: carry its lines out in the simulator from here on.
        simulation = probe
        return outcome
      }
      // A replay-only line with a mistake: name the mistake in the replay language's terms.
      if Self.isReplayOnly(line) { _ = try Self.simulate(line, in: &session) }
      throw error
    }
    guard let command else { return Outcome(text: "", isData: false) }
    let text = try playground.execute(command)
    history.append(line)
    return Outcome(text: text, isData: Self.isData(command))
  }

  /// A simulation session that has carried out `lines`, or `nil` when one of them is not a replay line.
  private static func replaying(_ lines: [String]) -> SimulationSession? {
    var session = SimulationSession()
    for line in lines {
      guard (try? session.execute(line)) != nil else { return nil }
    }
    return session
  }

  /// Whether a line parses in the replay language (so a mistake in it is reported in that language's terms).
  private static func isReplayOnly(_ line: String) -> Bool {
    let head = line.split(separator: " ").first.map(String.init) ?? ""
    return [
      "client", "schemas", "invariants", "zone-deletion", "send-after-edits", "server-limits", "defect", "quiesce",
    ].contains(head)
  }

  private static func simulate(_ line: String, in session: inout SimulationSession) throws(ScriptError) -> Outcome {
    let output: SimulationSession.Output
    do {
      output = try session.execute(line)
    } catch {
      throw ScriptError("\(error.problem): \(error.token)")
    }
    if !output.violations.isEmpty {
      throw ScriptError("expectation failed: " + output.lines.joined(separator: "\n"))
    }
    return Outcome(text: output.lines.joined(separator: "\n"), isData: false)
  }

  private static func isData(_ command: ScriptCommand) -> Bool {
    switch command {
    case .show, .help: true
    default: false
    }
  }
}
