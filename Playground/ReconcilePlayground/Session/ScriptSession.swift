import Foundation
import ReconcileSimulator

/// What the REPL and `run` carry lines out with: the simulator's one world (`SimulationSession`, whose
/// interpreter lives with the rest of the language in the simulator's Script folder) and `reset`, which starts it over.
/// Every line runs there, at any time: a counterexample `explore` or `simulate` printed can be pasted in line by line —
/// or run as a file — and edited, and the playground's own lines (`schema`, `restart`, `fault error` …) run in the
/// same world.
struct ScriptSession {
  private var simulation: SimulationSession
  /// The lines that set the world up before the user's first (`run --resolver`, a demo's resolver and policy), carried
  /// out again by `reset`.
  private let preamble: [String]
  /// The user's own clients and resolvers, which the world may name.
  private let clients: [ClientUnderTest]
  private let resolvers: [ResolverUnderTest]

  /// A session whose world starts with `preamble`'s header lines.
  /// - Throws: ``ScriptError`` when a preamble line is refused.
  init(
    preamble: [String] = [], clients: [ClientUnderTest] = [], resolvers: [ResolverUnderTest] = []
  ) throws(ScriptError) {
    self.preamble = preamble
    self.clients = clients
    self.resolvers = resolvers
    simulation = try Self.world(preamble, clients: clients, resolvers: resolvers)
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

  /// Carries out one line.
  /// - Throws: ``ScriptError`` naming what is wrong; an `expect` that does not hold is one.
  mutating func execute(line: String) throws(ScriptError) -> Outcome {
    if (try? ScriptParser.parse(line)) == .reset {
      simulation = try Self.world(preamble, clients: clients, resolvers: resolvers)
      return Outcome(text: SimulationSession.resetText, isData: false)
    }
    let interpretation = try simulation.interpret(line)
    return Outcome(text: interpretation.text, isData: interpretation.isData)
  }

  private static func world(
    _ preamble: [String], clients: [ClientUnderTest], resolvers: [ResolverUnderTest]
  ) throws(ScriptError) -> SimulationSession {
    var session = SimulationSession(resolvers: resolvers, clients: clients)
    for line in preamble { _ = try session.interpret(line) }
    return session
  }
}
