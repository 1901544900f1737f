/// A replay script carried out one line at a time, as the playground's REPL and `run` do: header lines set up the
/// world, each step line is performed at once and answers with the trace it caused, `quiesce` drives the world to
/// quiescence, and `expect invariants` judges the run so far.
///
/// A counterexample the property runner prints can be pasted into it line by line, and edited on the way: drop a
/// step, change a value, add a fault.
///
/// ```swift
/// var session = SimulationSession()
/// for line in counterexample.script.split(separator: "\n") {
///   let output = try session.execute(String(line))
///   print(output.joined(separator: "\n"))
/// }
/// ```
package struct SimulationSession: Sendable {
  /// What a line did.
  package struct Output: Sendable, Hashable {
    /// Lines to show: the trace the line caused, or what an `expect` found.
    package var lines: [String]
    /// The invariants an `expect invariants` line found broken; empty otherwise.
    package var violations: [InvariantViolation]
  }

  private var reader: SimulationScript.Reader
  private var lineCount = 0
  private var simulation: Simulation?
  private var quiescent: Bool?

  /// A session with no world yet.
  /// - Parameters:
  ///   - resolvers: Your own resolvers, for `resolver NAME` lines; the built-ins are always known.
  ///   - clients: Your own sync clients, for `client NAME` lines; the built-ins are always known.
  package init(resolvers: [ResolverUnderTest] = [], clients: [ClientUnderTest] = []) {
    reader = SimulationScript.Reader(
      resolvers: resolvers, clients: clients,
      refusal: "the simulator's world cannot carry out this line (`reset` starts over)")
  }

  /// Whether a step has run: the world is set up, and header lines are refused from now on.
  package var hasStarted: Bool { simulation != nil }

  /// The world so far, once a step has run.
  package var current: Simulation? { simulation }

  /// The world the header lines so far set up: its devices, resolver, faults and limits.
  package var setup: SimulationSetup { simulation?.setup ?? reader.parsed.setup }

  /// Carries out one line.
  /// - Parameter line: A header, step, `quiesce` or `expect invariants` line, a comment or a blank.
  /// - Returns: The trace lines the line caused, and what `expect invariants` found.
  /// - Throws: ``SimulationScript/ParseError`` naming the line (counted from the session's first) and the token; a
  ///   header line after the first step is refused too.
  package mutating func execute(_ line: String) throws(SimulationScript.ParseError) -> Output {
    lineCount += 1
    var next = reader
    let stepsBefore = reader.parsed.steps.count
    guard let command = try next.read(line, number: lineCount) else { return Output(lines: [], violations: []) }
    switch command {
    case .quiesce:
      reader = next
      var world = start()
      let before = world.trace.count
      quiescent = world.quiesce()
      simulation = world
      return Output(lines: Array(world.trace.dropFirst(before)), violations: [])
    case .expect:
      reader = next
      let result = start().result(quiescent: quiescent)
      let lines =
        result.violations.isEmpty
        ? ["invariants held" + (quiescent == nil ? " (no quiesce yet: end-state invariants not judged)" : "")]
        : result.violations.map { "invariant broken: \($0)" }
      return Output(lines: lines, violations: result.violations)
    default:
      let steps = next.parsed.steps.dropFirst(stepsBefore)
      guard !steps.isEmpty else {
        guard simulation == nil else {
          throw SimulationScript.ParseError(
            line: lineCount, token: line.trimmingCharacters(in: .whitespaces),
            problem: "header lines (device add, resolver, client, …) come before the first step")
        }
        reader = next
        return Output(lines: Self.confirmation(of: command), violations: [])
      }
      reader = next
      var world = start()
      let before = world.trace.count
      for step in steps { world.perform(step) }
      simulation = world
      quiescent = nil
      return Output(lines: Array(world.trace.dropFirst(before)), violations: [])
    }
  }

  /// What a header line set, in a line, so a pasted counterexample shows its world as it is built.
  static func confirmation(of command: ScriptCommand) -> [String] {
    switch command {
    case .addDevice(let setup): ["added \(setup.name)"]
    case .resolver(let setting): ["resolver \(setting.name)"]
    case .deletePolicy(let policy): ["delete policy \(policy)"]
    case .schemas(let scenario): ["schemas \(scenario)"]
    case .client(let name): ["client \(name)"]
    case .invariants(let set): ["invariants " + set.map(\.rawValue).sorted().joined(separator: " ")]
    case .zoneDeletion(let response): ["zone deletion \(response)"]
    case .sendAfterEdits: ["devices send after every edit"]
    case .defect(let defect): ["every device makes the defect \(defect)"]
    case .limits(let limits): ServerLimit.confirmation(limits)
    default: []
    }
  }

  /// The world of the headers so far, made at the first step.
  private mutating func start() -> Simulation {
    if let simulation { return simulation }
    let parsed = reader.parsed
    let world = Simulation(setup: parsed.setup, steps: [], invariants: parsed.invariants)
    simulation = world
    return world
  }
}
