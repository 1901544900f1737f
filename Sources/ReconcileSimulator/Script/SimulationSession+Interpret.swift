import Foundation

// The interpreter, whole: a line that only looks reads the world through ``WorldView``, `sync all` and `wait` become
// steps, `reset` starts over, and every other line goes to the world (`execute`). The REPL, `run` and `demo` hand it
// every line.
extension SimulationSession {
  /// What a line printed, and whether it is data the user asked to see (`show`, `help`: printed even with `--quiet`).
  package struct Interpretation: Sendable, Hashable {
    package var text: String
    package var isData: Bool
  }

  /// Carries out a line in the simulation's world: a looking line reads it, `sync all` becomes steps, and every other
  /// line goes to the session as a replay script's line.
  package mutating func interpret(_ line: String) throws(ScriptError) -> Interpretation {
    try interpret(try parse(line), line: line)
  }

  /// ``interpret(_:)`` for a line parsed once (``parse(_:)``): the REPL, `run` and `demo` parse each line there and
  /// hand the command here.
  /// - Parameters:
  ///   - command: The line's command, or `nil` for a comment or a blank.
  ///   - line: The line, for the errors and the trace.
  package mutating func interpret(_ command: ScriptCommand?, line: String) throws(ScriptError) -> Interpretation {
    if let command, let answer = try Self.look(command, at: self) { return answer }
    if command == .reset {
      var fresh = try Self.starting(with: preamble, resolvers: resolvers, clients: clients)
      fresh.helpRows = helpRows
      self = fresh
      return Interpretation(text: Self.resetText, isData: false)
    }
    if command == .syncAll { return try Self.syncAll(in: &self) }
    if case .wait(let device) = command { return try Self.wait(for: device, in: &self) }
    return try Self.simulate(command, line: line, in: &self)
  }

  private static func simulate(_ command: ScriptCommand?, line: String, in session: inout SimulationSession)
    throws(ScriptError) -> Interpretation
  {
    let output: SimulationSession.Output
    do {
      output = try session.execute(command, line: line)
    } catch {
      throw ScriptError(error.sentence, token: error.token)
    }
    if !output.violations.isEmpty {
      throw ScriptError("expectation failed: " + output.lines.joined(separator: "\n"))
    }
    return Interpretation(text: output.lines.joined(separator: "\n"), isData: false)
  }

  /// Answers a line that only looks (`show`, `expect` on records, status, counts or convergence, `help`) from the
  /// world; `nil` for a line the world carries out.
  private static func look(_ command: ScriptCommand, at session: SimulationSession) throws(ScriptError)
    -> Interpretation?
  {
    switch command {
    case .help:
      return Interpretation(text: ScriptParser.helpText(extra: session.helpRows), isData: true)
    case .show(let target, let json):
      guard let world = session.current else { return Interpretation(text: Self.notStarted, isData: true) }
      let text = try WorldView(world).show(target, json: json)
      return Interpretation(text: text.trimmingCharacters(in: .newlines), isData: true)
    case .expect(let expectation) where expectation != .invariants:
      guard let world = session.current else { throw ScriptError(Self.notStarted) }
      return Interpretation(text: try WorldView(world).check(expectation), isData: false)
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
      // A device that cannot sync (offline, quit, halted) is left waiting, and said so, not synced round after round.
      let waiting = session.current.map(Self.unableToSync) ?? [:]
      for name in names where waiting[name] == nil {
        lines.append(try simulate(.sync(device: name), line: "\(name) sync", in: &session).text)
      }
      // A sync takes a few requests; give the round's syncs time to finish before judging it.
      if session.current?.clients.allSatisfy(\.isIdle) == false {
        let wait = TimeInterval(Self.syncAllWait)
        lines.append(try simulate(.advance(wait), line: "advance \(Self.syncAllWait)s", in: &session).text)
      }
      guard let world = session.current else { break }
      let unable = Self.unableToSync(world)
      let settled = world.clientNames.indices.allSatisfy { index in
        unable[world.clientNames[index]] != nil
          || (world.clients[index].isIdle && world.clients[index].pendingChangeCount == 0)
      }
      if settled, world.server.events.count == before {
        let rounds = "sync all: \(round) round\(round == 1 ? "" : "s")"
        guard !unable.isEmpty else {
          lines.append("\(rounds); every device idle")
          return Interpretation(text: lines.joined(separator: "\n"), isData: false)
        }
        let reasons = unable.keys.sorted().map { "\($0) \(unable[$0] ?? "")" }
        lines.append("\(rounds); the rest idle, but \(reasons.joined(separator: "; "))")
        return Interpretation(text: lines.joined(separator: "\n"), isData: false)
      }
    }
    lines.append(
      "sync all: not settled after \(Self.syncAllRounds) rounds: a fault may be waiting (`fault clear` ends them; "
        + "quiesce turns every fault off), or a device is still busy (`show diagnostics` tells)")
    return Interpretation(text: lines.joined(separator: "\n"), isData: false)
  }

  /// The devices that cannot sync now, each with why and what brings it back: offline, its app quit, halted.
  private static func unableToSync(_ world: Simulation) -> [String: String] {
    var unable: [String: String] = [:]
    for (index, name) in world.clientNames.enumerated() {
      let queued = world.clients[index].pendingChangeCount
      let changes = queued == 0 ? "" : " with \(queued) change\(queued == 1 ? "" : "s") queued"
      if !world.devices.isRunning(index) {
        unable[name] = "has quit\(changes) (`\(name) launch` brings it back)"
      } else if !world.isOnline(name) {
        unable[name] = "is offline\(changes) (`\(name) online` brings it back)"
      } else if let halt = world.clients[index].haltReason {
        unable[name] = "is halted\(changes): \(halt) (`\(name) restart` clears it)"
      }
    }
    return unable
  }

  /// `wait [NAME]`: virtual time passes, as `advance` steps to the next moment something happens by itself (an
  /// answer arrives, a device wakes), until the device (or every device) has nothing under way — so the run stays a
  /// replay script. At most ``waitLimit`` seconds: a device that never settles must not hang the REPL.
  private static func wait(for device: String?, in session: inout SimulationSession) throws(ScriptError)
    -> Interpretation
  {
    if let device, !session.setup.devices.contains(where: { $0.name == device }) {
      throw .unknown("device", device, choices: session.setup.devices.map(\.name))
    }
    var lines: [String] = []
    var waited = 0
    while let world = session.current, !world.isSettled(device), waited < Self.waitLimit {
      let gap = world.nextActivity.map { $0.timeIntervalSince(world.now).rounded(.up) } ?? 1
      let seconds = min(max(1, Int(gap)), Self.waitLimit - waited)
      lines.append(try simulate(.advance(TimeInterval(seconds)), line: "advance \(seconds)s", in: &session).text)
      waited += seconds
    }
    let who = device ?? "every device"
    lines.append(
      waited >= Self.waitLimit
        ? "wait: \(who) still busy after \(DurationSyntax.render(TimeInterval(waited))) (a fault may be waiting; "
          + "quiesce turns them off)"
        : "wait: \(who) settled" + (waited == 0 ? "" : " after \(DurationSyntax.render(TimeInterval(waited)))"))
    return Interpretation(text: lines.filter { !$0.isEmpty }.joined(separator: "\n"), isData: false)
  }

  private static let waitLimit = 3_600
  private static let syncAllRounds = 20
  private static let syncAllWait = 30

  /// What `reset` prints.
  package static let resetText = "started over: an empty world, no devices, nothing carried out yet"

  private static let notStarted = "the simulation's world starts at its first step; nothing to look at yet"

  /// What the looking lines read in the world so far; `nil` before its first step.
  package var view: WorldView? { current.map(WorldView.init) }

}
