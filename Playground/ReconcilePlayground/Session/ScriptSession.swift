import Foundation
import ReconcileSimulator

/// What the REPL and `run` carry lines out with. Every line is read by the one grammar (``ScriptParser``); the
/// playground's own session carries it out, until a line only the simulator's world can (``ScriptCommand/needsSimulator``:
/// `quiesce`, `schemas`, `client`, `expect invariants`, a fault such as `fault lose-request d1` …). The lines before it
/// that changed the world (not `show`, `expect` or `help`) are then carried out again by the simulator's interpreter
/// (`SimulationSession.interpret(_:)`, in the simulator's Script folder with the rest of the language), and
/// every later line goes there, so a counterexample `explore` or `simulate` printed can be pasted in line by line — or
/// run as a file — and edited. There the looking lines read the simulation's world through a `WorldView` and
/// `sync all` becomes steps, so the commands a user learned keep working on a counterexample.
struct ScriptSession {
  private var playground = PlaygroundSession()
  private var simulation: SimulationSession?
  private var history: [String] = []
  /// The user's own clients and resolvers, which the simulator's world may name.
  private let clients: [ClientUnderTest]
  private let resolvers: [ResolverUnderTest]

  init(
    playground: PlaygroundSession = PlaygroundSession(), clients: [ClientUnderTest] = [],
    resolvers: [ResolverUnderTest] = []
  ) {
    self.playground = playground
    self.clients = clients
    self.resolvers = resolvers
  }

  /// Whether lines now go to the simulator.
  var isSimulating: Bool { simulation != nil }

  /// The REPL's prompt: it names the simulator's world once lines go there.
  var prompt: String { isSimulating ? "reconcile (simulation)> " : "reconcile> " }

  /// What a line printed, and whether it is data the user asked to see (shown even with `--quiet`).
  struct Outcome {
    var text: String
    var isData: Bool
  }

  /// Carries out one line.
  /// - Throws: ``ScriptError`` naming what is wrong; an `expect invariants` that finds a broken invariant is one.
  mutating func execute(line: String) throws(ScriptError) -> Outcome {
    if var session = simulation {
      if (try? ScriptParser.parse(line)) == .reset { return reset() }
      defer { simulation = session }
      return try Self.outcome(session.interpret(line))
    }
    guard let command = try ScriptParser.parse(line) else { return Outcome(text: "", isData: false) }
    if command == .reset { return reset() }
    if command.needsSimulator {
      var session = SimulationSession(resolvers: resolvers, clients: clients)
      for earlier in history {
        do {
          _ = try session.interpret(earlier)
        } catch {
          throw ScriptError(
            "`\(line.trimmingCharacters(in: .whitespaces))` needs the simulator's world, which cannot carry out the "
              + "earlier line `\(earlier)`; `reset` starts over")
        }
      }
      var outcome = try Self.outcome(session.interpret(line))
      simulation = session
      let carried =
        history.isEmpty ? "" : " (the \(history.count) earlier lines that changed the world ran there again)"
      let note = "now in the simulator's world\(carried); `reset` starts over"
      outcome.text = outcome.text.isEmpty ? note : note + "\n" + outcome.text
      return outcome
    }
    let text = try playground.execute(command)
    // Lines that only look (`show`, `expect`, `help`) change nothing a simulation would need to carry out again.
    if !Self.onlyLooks(command) { history.append(line) }
    return Outcome(text: text, isData: Self.isData(command))
  }

  private static func outcome(_ interpretation: SimulationSession.Interpretation) -> Outcome {
    Outcome(text: interpretation.text, isData: interpretation.isData)
  }

  /// Starts over: an empty playground session, no simulation, no history.
  private mutating func reset() -> Outcome {
    playground = PlaygroundSession()
    simulation = nil
    history = []
    return Outcome(text: PlaygroundSession.resetText, isData: false)
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
