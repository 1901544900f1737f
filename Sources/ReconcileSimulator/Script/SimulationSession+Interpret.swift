import Foundation

// The simulator's interpreter, whole: a line that only looks reads the world through ``WorldView``, `sync all` becomes
// steps, and every other line goes to the world as a replay script's line. The REPL and `run` hand it every line once
// they are in the simulator's world.
extension SimulationSession {
  /// What a line printed, and whether it is data the user asked to see (`show`, `help`: printed even with `--quiet`).
  package struct Interpretation: Sendable, Hashable {
    package var text: String
    package var isData: Bool
  }

  /// Carries out a line in the simulation's world: a looking line reads it, `sync all` becomes steps, and every other
  /// line goes to the session as a replay script's line.
  package mutating func interpret(_ line: String) throws(ScriptError) -> Interpretation {
    let command = try ScriptParser.parse(line)
    if let command, let answer = try Self.look(command, at: self) { return answer }
    if command == .syncAll { return try Self.syncAll(in: &self) }
    return try Self.simulate(line, in: &self)
  }

  private static func simulate(_ line: String, in session: inout SimulationSession) throws(ScriptError)
    -> Interpretation
  {
    let output: SimulationSession.Output
    do {
      output = try session.execute(line)
    } catch {
      throw ScriptError("\(error.problem): \(error.token)")
    }
    if !output.violations.isEmpty {
      throw ScriptError("expectation failed: " + output.lines.joined(separator: "\n"))
    }
    return Interpretation(text: output.lines.joined(separator: "\n"), isData: false)
  }

  /// Answers a line that only looks (`show`, `expect` on records, status or convergence, `help`) from the simulation's
  /// world, as the playground's own session answers it from its own; `nil` for a line the simulation carries out.
  private static func look(_ command: ScriptCommand, at session: SimulationSession) throws(ScriptError)
    -> Interpretation?
  {
    switch command {
    case .help:
      return Interpretation(text: ScriptParser.helpText(), isData: true)
    case .show(let target, let json):
      guard let world = session.current else { return Interpretation(text: Self.notStarted, isData: true) }
      if case .log = target {
        let text = world.trace.isEmpty ? "nothing has happened yet" : world.trace.joined(separator: "\n")
        return Interpretation(text: text, isData: true)
      }
      guard let text = try view(of: world).show(target, json: json) else {
        throw ScriptError(
          "show \(target) reads counts this world does not keep; try show log for its trace")
      }
      return Interpretation(text: text.trimmingCharacters(in: .newlines), isData: true)
    case .expect(let expectation) where expectation != .invariants:
      guard let world = session.current else { throw ScriptError(Self.notStarted) }
      guard let text = try view(of: world).check(expectation) else {
        throw ScriptError(
          "this expectation counts what this world does not keep")
      }
      return Interpretation(text: text, isData: false)
    default:
      return nil
    }
  }

  /// `sync all` in the simulation's world: every device syncs in turn, as `NAME sync` steps followed by an `advance`
  /// while a sync is unfinished (so the run stays a replay script), round after round until a round leaves every
  /// device idle with nothing queued and the server unchanged.
  /// Faults still strike; `quiesce` is the line that turns them off.
  private static func syncAll(in session: inout SimulationSession) throws(ScriptError) -> Interpretation {
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
        return Interpretation(text: lines.joined(separator: "\n"), isData: false)
      }
    }
    lines.append(
      "sync all: not settled after \(Self.syncAllRounds) rounds (a fault may be waiting; quiesce turns them off)")
    return Interpretation(text: lines.joined(separator: "\n"), isData: false)
  }

  private static let syncAllRounds = 20
  private static let syncAllWait = 30

  private static let notStarted = "the simulation's world starts at its first step; nothing to look at yet"

  private static func view(of world: Simulation) -> WorldView {
    WorldView(
      server: world.server, clients: world.clients,
      users: Dictionary(world.setup.devices.map { ($0.name, $0.user) }) { first, _ in first },
      clockOffsets: Dictionary(world.setup.devices.map { ($0.name, $0.clockOffset) }) { first, _ in first },
      counts: Dictionary(zip(world.clients.map(\.name), world.deviceCounts)) { first, _ in first })
  }

}
