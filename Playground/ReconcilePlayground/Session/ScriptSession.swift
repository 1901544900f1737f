import Foundation
import ReconcileSimulator

/// What the REPL and `run` carry lines out with. Every line is read by the one grammar (``ScriptParser``); the
/// playground's own session carries it out, until a line only the simulator's world can (``ScriptCommand/needsSimulator``:
/// `quiesce`, `schemas`, `client`, `expect invariants`, a fault such as `fault lose-request d1` …). The lines before it
/// that changed the world (not `show`, `expect` or `help`) are then carried out again in a ``SimulationSession``, and
/// every later line goes there, so a counterexample `explore` or `simulate` printed can be pasted in line by line — or
/// run as a file — and edited. There the looking lines read the simulation's world through a ``WorldView`` and
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
      return try Self.carryOut(line, in: &session)
    }
    guard let command = try ScriptParser.parse(line) else { return Outcome(text: "", isData: false) }
    if command == .reset { return reset() }
    if command.needsSimulator {
      var session = SimulationSession(resolvers: resolvers, clients: clients)
      for earlier in history {
        do {
          _ = try Self.carryOut(earlier, in: &session)
        } catch {
          throw ScriptError(
            "`\(line.trimmingCharacters(in: .whitespaces))` needs the simulator's world, which cannot carry out the "
              + "earlier line `\(earlier)`; `reset` starts over")
        }
      }
      var outcome = try Self.simulate(line, in: &session)
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

  /// Starts over: an empty playground session, no simulation, no history.
  private mutating func reset() -> Outcome {
    playground = PlaygroundSession()
    simulation = nil
    history = []
    return Outcome(text: PlaygroundSession.resetText, isData: false)
  }

  /// Carries out a line in the simulation's world: a looking line reads it, `sync all` becomes steps, and every other
  /// line goes to the session as a replay script's line.
  private static func carryOut(_ line: String, in session: inout SimulationSession) throws(ScriptError) -> Outcome {
    let command = try ScriptParser.parse(line)
    if let command, let outcome = try look(command, at: session) { return outcome }
    if command == .syncAll { return try syncAll(in: &session) }
    return try simulate(line, in: &session)
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

  /// Answers a line that only looks (`show`, `expect` on records, status or convergence, `help`) from the simulation's
  /// world, as the playground's own session answers it from its own; `nil` for a line the simulation carries out.
  private static func look(_ command: ScriptCommand, at session: SimulationSession) throws(ScriptError) -> Outcome? {
    switch command {
    case .help:
      return Outcome(text: PlaygroundSession.helpText, isData: true)
    case .show(let target, let json):
      guard let world = session.current else { return Outcome(text: Self.notStarted, isData: true) }
      if case .log = target {
        let text = world.trace.isEmpty ? "nothing has happened yet" : world.trace.joined(separator: "\n")
        return Outcome(text: text, isData: true)
      }
      guard let text = try view(of: world).show(target, json: json) else {
        throw ScriptError(
          "show \(target) reads the playground's own request counters, which the simulator's world does not keep; "
            + "try show log for its trace")
      }
      return Outcome(text: text.trimmingCharacters(in: .newlines), isData: true)
    case .expect(let expectation) where expectation != .invariants:
      guard let world = session.current else { throw ScriptError(Self.notStarted) }
      guard let text = try view(of: world).check(expectation) else {
        throw ScriptError(
          "this expectation counts requests, errors or waits, which only the playground's own session keeps")
      }
      return Outcome(text: text, isData: false)
    default:
      return nil
    }
  }

  /// `sync all` in the simulation's world: every device syncs in turn, as `NAME sync` steps followed by an `advance`
  /// while a sync is unfinished (so the run stays a replay script), round after round until a round leaves every
  /// device idle with nothing queued and the server unchanged.
  /// Faults still strike; `quiesce` is the line that turns them off.
  private static func syncAll(in session: inout SimulationSession) throws(ScriptError) -> Outcome {
    let names = session.setup.devices.map(\.name)
    guard !names.isEmpty else { throw ScriptError("sync all: no devices; add one with `device add NAME`") }
    var lines: [String] = []
    for round in 1...Self.syncAllRounds {
      let before = session.current?.server.events.count ?? 0
      for name in names { lines.append(try simulate("\(name) sync", in: &session).text) }
      // A sync takes a few requests; give the round's syncs time to finish before judging it.
      if session.current?.clients.allSatisfy(\.isIdle) == false {
        lines.append(try simulate("advance \(Self.syncAllWait)s", in: &session).text)
      }
      guard let world = session.current else { break }
      let settled = world.clients.allSatisfy { $0.isIdle && $0.pendingChangeCount == 0 }
      if settled, world.server.events.count == before {
        lines.append("sync all: \(round) round\(round == 1 ? "" : "s"); every device idle")
        return Outcome(text: lines.joined(separator: "\n"), isData: false)
      }
    }
    lines.append(
      "sync all: not settled after \(Self.syncAllRounds) rounds (a fault may be waiting; quiesce turns them off)")
    return Outcome(text: lines.joined(separator: "\n"), isData: false)
  }

  private static let syncAllRounds = 20
  private static let syncAllWait = 30

  private static let notStarted = "the simulation's world starts at its first step; nothing to look at yet"

  private static func view(of world: Simulation) -> WorldView {
    WorldView(
      server: world.server, clients: world.clients,
      users: Dictionary(world.setup.devices.map { ($0.name, $0.user) }) { first, _ in first },
      clockOffsets: Dictionary(world.setup.devices.map { ($0.name, $0.clockOffset) }) { first, _ in first })
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
