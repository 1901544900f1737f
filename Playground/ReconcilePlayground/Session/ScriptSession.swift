import Foundation
import ReconcileSimulator

/// What the REPL and `run` carry lines out with. Every line is read by the one grammar (``ScriptParser``); the
/// playground's own session carries it out, until a line only the simulator's world can (``ScriptCommand/needsSimulator``:
/// `quiesce`, `schemas`, `client`, `expect invariants`, a fault such as `fault lose-request d1` …). The lines before it
/// that changed the world (not `show`, `expect` or `help`) are then carried out again in a ``SimulationSession``, and every later line goes there, so a counterexample
/// `explore` or `simulate` printed can be pasted in line by line — or run as a file — and edited.
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
    guard let command = try ScriptParser.parse(line) else { return Outcome(text: "", isData: false) }
    if command.needsSimulator {
      var session = SimulationSession()
      for earlier in history {
        do {
          _ = try session.execute(earlier)
        } catch {
          throw ScriptError(
            "`\(line.trimmingCharacters(in: .whitespaces))` runs in the simulator's world, which cannot carry out the "
              + "earlier line `\(earlier)`: \(error.problem)")
        }
      }
      let outcome = try Self.simulate(line, in: &session)
      simulation = session
      return outcome
    }
    let text = try playground.execute(command)
    // Lines that only look (`show`, `expect`, `help`) change nothing a simulation would need to carry out again.
    if !Self.onlyLooks(command) { history.append(line) }
    return Outcome(text: text, isData: Self.isData(command))
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

  private static func onlyLooks(_ command: ScriptCommand) -> Bool {
    switch command {
    case .show, .help, .expect: true
    default: false
    }
  }

  private static func isData(_ command: ScriptCommand) -> Bool {
    switch command {
    case .show, .help: true
    default: false
    }
  }
}
