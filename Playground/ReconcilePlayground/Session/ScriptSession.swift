import Foundation
import ReconcileSimulator

/// What the REPL and `run` carry lines out with: the simulator's one world (`SimulationSession`, whose
/// interpreter lives with the rest of the language in the simulator's Script folder) and `reset`, which starts it over.
/// Every line runs there, at any time: a counterexample `explore` or `simulate` printed can be pasted in line by line —
/// or run as a file — and edited, and the playground's own lines (`schema`, `restart`, `fault error` …) run in the
/// same world.
struct ScriptSession {
  private var simulation: SimulationSession

  /// A session whose world starts with `preamble`'s header lines (`run --resolver`, a demo's resolver and policy),
  /// which `reset` carries out again.
  /// - Parameter helpRows: Rows `help` adds to the command list (the REPL's `quit`).
  /// - Throws: ``ScriptError`` when a preamble line is refused.
  init(
    preamble: [String] = [], clients: [ClientUnderTest] = [], resolvers: [ResolverUnderTest] = [],
    helpRows: [[String]] = []
  ) throws(ScriptError) {
    simulation = try SimulationSession.starting(with: preamble, resolvers: resolvers, clients: clients)
    simulation.helpRows = helpRows
  }

  /// The REPL's prompt.
  var prompt: String { "reconcile> " }

  /// The world so far.
  var world: SimulationSession { simulation }

  /// What a line printed, and whether it is data the user asked to see (shown even with `--quiet`).
  struct Outcome {
    var text: String
    var isData: Bool
  }

  /// Reads a line into its command, once: `run` reads a whole script before carrying out any of it.
  /// - Returns: The command, or `nil` for a comment or a blank.
  /// - Throws: ``ScriptError`` naming the token.
  func parse(_ line: String) throws(ScriptError) -> ScriptCommand? { try simulation.parse(line) }

  /// Carries out one line.
  /// - Throws: ``ScriptError`` naming what is wrong; an `expect` that does not hold is one.
  mutating func execute(line: String) throws(ScriptError) -> Outcome {
    try execute(try parse(line), line: line)
  }

  /// Carries out one line's command, parsed once (``parse(_:)``).
  /// - Throws: ``ScriptError`` naming what is wrong; an `expect` that does not hold is one.
  mutating func execute(_ command: ScriptCommand?, line: String) throws(ScriptError) -> Outcome {
    let interpretation = try simulation.interpret(command, line: line)
    return Outcome(text: interpretation.text, isData: interpretation.isData)
  }
}
