import Foundation

extension Simulation {
  /// Runs a replay script (see ``SimulationScript``): the world it sets up, its steps, then quiescence and the invariants
  /// when it says `quiesce`.
  /// - Parameters:
  ///   - script: The script text.
  ///   - resolvers: Your own resolvers, for scripts that name them; the built-ins are always known.
  ///   - clients: Your own sync clients, for scripts that name them (`client NAME`); the built-ins are always known.
  /// - Returns: The run's result.
  /// - Throws: ``SimulationScript/ParseError`` naming the first bad line.
  public static func replay(
    _ script: String, resolvers: [ResolverUnderTest] = [], clients: [ClientUnderTest] = []
  ) throws(SimulationScript.ParseError) -> SimulationResult {
    let parsed = try SimulationScript.parse(script, resolvers: resolvers, clients: clients)
    var simulation = Simulation(script: parsed)
    return simulation.run(quiescing: parsed.quiesces)
  }

  /// The world a parsed replay script sets up, with its steps planned: ``run(quiescing:)`` performs them.
  /// - Parameter script: A parsed script.
  package init(script: SimulationScript.Parsed) {
    self.init(setup: script.setup, steps: script.steps, invariants: script.invariants)
  }
}

extension SimulationScript {
  /// How to replay the script: from Swift, or from a command line that knows the run's clients and resolvers.
  static let replayHint =
    "replay it with `Simulation.replay(script, resolvers:clients:)`, or save it as failure.rcp and run "
    + "`reconcile-playground replay failure.rcp` (your own command line for your own clients and resolvers: "
    + "`PlaygroundCommand.main(clients:resolvers:)`)"
}

extension SimulationStep: CustomStringConvertible {
  /// The step as a script line.
  public var description: String { SimulationScript.line(for: self) }
}

extension SimulationResult: CustomStringConvertible {
  /// The run as a replay script (see ``SimulationScript``).
  public var script: String {
    SimulationScript.render(
      setup: setup, steps: steps, invariants: invariants,
      comments: [seed.map { "seed \($0)" }].compactMap { $0 } + violations.map { "broke \($0)" })
  }

  /// A few lines: the verdicts, the records judged and set aside, and for a failed run each broken invariant and the
  /// replay script.
  public var description: String {
    let name = seed.map { "seed \($0)" } ?? "the run"
    let judged = "\(recordsJudged) records judged, \(setAside.values.reduce(0, +)) set aside as unknowable"
    guard !passed else {
      let held = outcomes.values.filter { if case .held = $0 { true } else { false } }.count
      return "\(name) passed: \(held) invariants held, \(outcomes.count - held) not applicable; \(judged)"
    }
    var lines = ["\(name) FAILED: \(violations.count) \(violations.count == 1 ? "violation" : "violations"); \(judged)"]
    lines += violations.map { "  \($0)" }
    lines.append("  " + SimulationScript.replayHint + ":")
    lines += script.split(separator: "\n").map { "    " + $0 }
    return lines.joined(separator: "\n")
  }
}
