import Foundation
import Reconcile

/// The one world of the playground's REPL and `run`: every line of the script language is carried out here, one at a
/// time. Header lines set up the world, each step line is performed at once and answers with the trace it caused,
/// `quiesce` drives the world to quiescence, and `expect invariants` judges the run so far.
///
/// A counterexample the property runner prints can be pasted into it line by line, and edited on the way: drop a
/// step, change a value, add a fault. Every line that acts on the world lowers to ``SimulationStep``s by the same
/// lowering a replay script's lines take; a few lines need what only a session knows (`schema` declarations, the
/// value a device shows for `+=`), and lower here.
///
/// A header line after the first step builds the world again with the new setting and carries out again everything
/// done since the start — deterministic, so the same steps under, say, another resolver.
///
/// ```swift
/// var session = SimulationSession()
/// for line in counterexample.script.split(separator: "\n") {
///   let output = try session.execute(String(line))
///   print(output.lines.joined(separator: "\n"))
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

  /// Something done to the world since its start, to do again when a header line builds it anew.
  private enum Action: Sendable {
    case step(SimulationStep)
    case quiesce
  }

  private(set) var reader: SimulationScript.Reader
  /// Your own resolvers and clients, which the world may name; kept for `reset`.
  let resolvers: [ResolverUnderTest]
  let clients: [ClientUnderTest]
  private var lineCount = 0
  private var simulation: Simulation?
  private var quiescent: Bool?
  private var actions: [Action] = []
  /// Every `schema` declaration so far.
  private var declarations: [SchemaDeclaration] = []
  /// The declared app version each device added with `--schema` runs at the start.
  private var appVersions: [String: SchemaVersion] = [:]
  /// The lines that set the world up before the user's first (`run --resolver`, a demo's resolver and policy),
  /// carried out again by `reset`.
  private(set) var preamble: [String] = []
  /// Rows `help` adds to the command list (the REPL's `quit`).
  package var helpRows: [[String]] = []

  /// A session with no world yet.
  /// - Parameters:
  ///   - resolvers: Your own resolvers, for `resolver NAME` lines; the built-ins are always known.
  ///   - clients: Your own sync clients, for `client NAME` lines; the built-ins are always known.
  package init(resolvers: [ResolverUnderTest] = [], clients: [ClientUnderTest] = []) {
    self.resolvers = resolvers
    self.clients = clients
    reader = SimulationScript.Reader(resolvers: resolvers, clients: clients)
  }

  /// A session whose world starts with `preamble`'s lines, which `reset` carries out again.
  /// - Throws: ``ScriptError`` when a preamble line is refused.
  package static func starting(
    with preamble: [String], resolvers: [ResolverUnderTest] = [], clients: [ClientUnderTest] = []
  ) throws(ScriptError) -> SimulationSession {
    var session = SimulationSession(resolvers: resolvers, clients: clients)
    for line in preamble { _ = try session.interpret(line) }
    session.preamble = preamble
    return session
  }

  /// Whether a step has run: the world is set up.
  package var hasStarted: Bool { simulation != nil }

  /// The world so far, once a step has run.
  package var current: Simulation? { simulation }

  /// The world the header lines so far set up: its devices, resolver, faults and limits.
  package var setup: SimulationSetup { reader.parsed.setup }

  /// Whether everything done so far can be written as a replay script: no declared app version (its `schema` lines
  /// are the session's), no resolver with options, no encrypted value (a script never shows one).
  package var isReplayable: Bool {
    // A resolver with options is named by its line (`field-merge --text body`), which no replay script can name.
    appVersions.isEmpty && reader.resolverNames.contains(setup.resolver.name)
      && !actions.contains {
        switch $0 {
        case .step(.upgrade(_, _?)): true
        case .step(.create(_, let record)): !record.encryptedValuesByKey.isEmpty
        case .step(.edit(_, _, _, _, let encrypted)): !encrypted.isEmpty
        default: false
        }
      }
  }

  /// Reads a line of the language into its command, with the names this session's world may use: every way in parses
  /// a line here once and hands the command on.
  /// - Returns: The command, or `nil` for a comment or a blank.
  /// - Throws: ``ScriptError`` naming the token.
  package func parse(_ line: String) throws(ScriptError) -> ScriptCommand? {
    try ScriptParser.parse(line, resolvers: reader.resolverNames, clients: reader.clientNames)
  }

  /// Carries out one line.
  /// - Parameter line: Any line of the language but the looking ones (`SimulationSession.interpret(_:)` answers
  ///   those), a comment or a blank.
  /// - Returns: The trace lines the line caused, and what `expect invariants` found.
  /// - Throws: ``SimulationScript/ParseError`` naming the line (counted from the session's first) and the token.
  package mutating func execute(_ line: String) throws(SimulationScript.ParseError) -> Output {
    let command: ScriptCommand?
    do {
      command = try parse(line)
    } catch {
      lineCount += 1
      throw SimulationScript.ParseError(
        line: lineCount, token: error.token ?? line.trimmingCharacters(in: .whitespaces), problem: error.message)
    }
    return try execute(command, line: line)
  }

  /// Carries out one line's command, parsed once (``parse(_:)``).
  /// - Parameters:
  ///   - command: The command, or `nil` for a comment or a blank.
  ///   - line: The line it was read from, for the errors.
  /// - Returns: The trace lines the line caused, and what `expect invariants` found.
  /// - Throws: ``SimulationScript/ParseError`` naming the line (counted from the session's first) and the token.
  package mutating func execute(_ command: ScriptCommand?, line: String) throws(SimulationScript.ParseError)
    -> Output
  {
    lineCount += 1
    let number = lineCount
    func fail(_ problem: String, _ token: String? = nil) -> SimulationScript.ParseError {
      SimulationScript.ParseError(
        line: number, token: token ?? line.trimmingCharacters(in: .whitespaces), problem: problem)
    }
    guard var command else { return Output(lines: [], violations: []) }
    if case .edit(let device, let paths, let fields) = command, fields.contains(where: { $0.change != .set }) {
      // `+=` and `-=` read the device's current value: the edit becomes one that sets the results, a plain step
      // when it can be one.
      do {
        command = try resolved(device, paths, fields)
      } catch {
        throw fail(error.message, error.token ?? "")
      }
    }
    guard command.runsInReplay else {
      do {
        return try beyondReplay(command, line: line.trimmingCharacters(in: .whitespaces))
      } catch {
        throw fail(error.message, error.token ?? "")
      }
    }
    var next = reader
    let stepsBefore = reader.parsed.steps.count
    try next.apply(command, line: line, number: number)
    switch command {
    case .quiesce:
      reader = next
      return record(.quiesce)
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
      let before = self
      reader = next
      guard !steps.isEmpty else { return Output(lines: rebuild(Self.confirmation(of: command)), violations: []) }
      do {
        return try carryOut(steps, undoing: before)
      } catch {
        throw fail(error.message)
      }
    }
  }

  /// Carries out the steps one line stands for. A line the user typed that cannot apply is an error, and the session
  /// goes back to `before`, as it was before the line; a counterexample's steps were drawn at random, and one skipped
  /// is data (`steps-may-skip`).
  private mutating func carryOut(_ steps: some Sequence<SimulationStep>, undoing before: SimulationSession)
    throws(ScriptError) -> Output
  {
    var lines: [String] = []
    for step in steps {
      let skippedBefore = simulation?.statistics.skippedSteps ?? 0
      let output = record(.step(step))
      if !reader.parsed.stepsMaySkip, (simulation?.statistics.skippedSteps ?? 0) > skippedBefore {
        let problem = Self.explain(Self.skipped(in: output.lines), of: step, in: simulation)
        self = before
        throw ScriptError(problem)
      }
      lines += output.lines
    }
    return Output(lines: lines, violations: [])
  }

  /// Why a step was skipped, from the note it left in the trace lines it printed.
  static func skipped(in lines: [String]) -> String {
    for line in lines {
      let text = line.trimmingCharacters(in: .whitespaces)
      if text.hasPrefix(Simulation.skippedPrefix) { return String(text.dropFirst(Simulation.skippedPrefix.count)) }
    }
    return "the step could not apply"
  }

  /// Why `step` could not apply, and what the user can do about it: a device whose sync has started but not finished
  /// has not fetched what another device saved yet (`sync` only starts one).
  static func explain(_ problem: String, of step: SimulationStep, in world: Simulation?) -> String {
    guard let device = step.device, let world else { return "cannot apply: \(problem)" }
    let target: (type: String, id: RecordID)? =
      switch step {
      case .edit(_, let type, let id, _, _), .delete(_, let type, let id): (type, id)
      default: nil
      }
    guard let target else { return "cannot apply: \(problem)" }
    let path = "\(target.type)/\(target.id.recordName)"
    let onServer = world.server.records(in: Simulation.zoneID, ownedBy: Simulation.user).contains {
      $0.recordID.recordName == target.id.recordName
    }
    let holders = world.clientNames.filter { name in
      name != device && world.client(named: name)?.record(target.id) != nil
    }
    // Each hint fires on its own condition, the first that holds: a halted device, a record nowhere, a record only
    // another device holds, a sync of this device under way, a record on the server this device has not fetched.
    if let halt = world.client(named: device)?.haltReason {
      return "\(device) is halted (\(halt)): it changes nothing until the halt is cleared — "
        + "\"\(device) upgrade\" for a newer app's records, \"\(device) restart\" otherwise (\(problem))"
    }
    guard onServer || !holders.isEmpty else {
      return "there is no \(path) on any device or on the server: create it first (\(problem))"
    }
    guard onServer else {
      let holder = holders[0]
      return "\(path) is only on \(holder): its save has not reached the server yet — add \"wait \(holder)\" "
        + "and \"\(device) sync\", or use \"sync all\" (\(problem))"
    }
    if !world.isSettled(device) {
      return "\(device) has no \(path) yet: its sync has started but not finished — add \"wait \(device)\" "
        + "or use \"sync all\" (\(problem))"
    }
    return "\(device) has no \(path) yet: it has not fetched it — add \"\(device) sync\" and \"wait \(device)\", "
      + "or use \"sync all\" (\(problem))"
  }

  /// What a header line set, in a line, so a pasted counterexample shows its world as it is built.
  static func confirmation(of command: ScriptCommand) -> [String] {
    switch command {
    case .addDevice(let setup): [added(setup, appVersion: nil)]
    case .resolver(let setting): ["resolver \(setting.name)"]
    case .deletePolicy(let policy): ["delete policy \(policy)"]
    case .schemas(let scenario): ["schemas \(scenario)"]
    case .client(let name): ["client \(name)"]
    case .invariants(let set): ["invariants " + set.map(\.rawValue).sorted().joined(separator: " ")]
    case .zoneDeletion(let response): ["zone deletion \(response)"]
    case .accountChange(let response): ["account change: \(response) local data"]
    case .sendAfterEdits: ["devices send after every edit"]
    case .stepsMaySkip: ["a step that cannot apply is skipped"]
    case .defect(let defect): ["every device makes the defect \(defect)"]
    case .limits(let limits): ServerLimit.confirmation(limits)
    default: []
    }
  }

  /// `added mac (clock 2m behind, app 1.0.0)`.
  static func added(_ device: DeviceSetup, appVersion: SchemaVersion?) -> String {
    var details: [String] = []
    if device.clockOffset != 0 { details.append("clock \(DurationSyntax.offsetText(device.clockOffset))") }
    if device.upgraded { details.append("the newer app") }
    if let appVersion { details.append("app \(appVersion)") }
    return "added \(device.name)" + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
  }

  // MARK: The world

  /// Does `action` to the world and keeps it, to do again if the world is built anew.
  private mutating func record(_ action: Action) -> Output {
    var world = start()
    // Counts entries, not lines: rendering the whole trace after every action made a long script quadratic.
    let before = world.traceEntries.count
    switch action {
    case .step(let step):
      world.perform(step)
      quiescent = nil
    case .quiesce:
      quiescent = world.quiesce()
    }
    simulation = world
    actions.append(action)
    return Output(lines: world.traceEntries.dropFirst(before).map { $0.line(steps: world.steps) }, violations: [])
  }

  /// The world of the headers so far, made at the first step, with each device on its declared app version.
  private mutating func start() -> Simulation {
    if let simulation { return simulation }
    let parsed = reader.parsed
    var world = Simulation(setup: parsed.setup, steps: [], invariants: parsed.invariants)
    world.declaredApps = declaredApps
    for device in parsed.setup.devices {
      guard let version = appVersions[device.name] else { continue }
      world.perform(.upgrade(device: device.name, version: version))
    }
    simulation = world
    return world
  }

  /// Every declared app version with the schema its `schema` lines build.
  private var declaredApps: [SchemaVersion: Schema] {
    var apps: [SchemaVersion: Schema] = [:]
    for version in Set(declarations.map(\.version)) {
      apps[version] = try? AppSchemaBuilder.schema(version, from: declarations)
    }
    return apps
  }

  /// After a header line: builds the world again when it has started, and does again what was done since.
  private mutating func rebuild(_ confirmation: [String]) -> [String] {
    guard simulation != nil else { return confirmation }
    simulation = nil
    quiescent = nil
    let earlier = actions
    actions = []
    var world = start()
    for action in earlier {
      switch action {
      case .step(let step): world.perform(step)
      case .quiesce: quiescent = world.quiesce()
      }
    }
    simulation = world
    actions = earlier
    return confirmation + [
      "the world was built again with this setting, and the \(earlier.count) step\(earlier.count == 1 ? "" : "s") "
        + "since its start ran again"
    ]
  }

  // MARK: Beyond a replay script

  /// Carries out a line a replay script does not hold: a setting it cannot write, or an operation on the world.
  private mutating func beyondReplay(_ command: ScriptCommand, line: String) throws(ScriptError) -> Output {
    switch command {
    case .schema(let declaration):
      declarations.removeAll {
        $0.version == declaration.version && $0.recordSchema.recordType == declaration.recordSchema.recordType
      }
      declarations.append(declaration)
      // A declaration can change every later version's migrations: the world's schemas are all built again.
      let apps = declaredApps
      simulation?.declaredApps = apps
      let keys = declaration.recordSchema.fields.keys.sorted().joined(separator: ", ")
      return Output(
        lines: ["app \(declaration.version) knows \(declaration.recordSchema.recordType): \(keys)"], violations: [])
    case .addDevice(var device):
      guard device.user == Simulation.user else {
        throw ScriptError(
          "device add \(device.name) --user \(device.user): every device of the world signs in as one user; "
            + "several accounts are not modelled yet")
      }
      guard !setup.devices.contains(where: { $0.name == device.name }) else {
        throw ScriptError("there is already a device called '\(device.name)'")
      }
      if let version = device.schema {
        _ = try AppSchemaBuilder.schema(version, from: declarations)
        appVersions[device.name] = version
        device.schema = nil
      }
      reader.change { $0.devices.append(device) }
      return Output(lines: rebuild([Self.added(device, appVersion: appVersions[device.name])]), violations: [])
    case .resolver(let setting):
      guard setting.choice != nil else {
        throw ScriptError("resolver \(setting.name): options belong to the built-in field-merge")
      }
      let resolver = setting.resolverUnderTest
      if let refusal = setup.client.refusal(ofResolver: resolver.name) { throw ScriptError(refusal) }
      reader.change { $0.resolver = resolver }
      return Output(lines: rebuild(["resolver \(setting.summary)"]), violations: [])
    default:
      return try operate(command, line: line)
    }
  }

  /// A step line only a session can lower: an upgrade to an app version its `schema` lines declared.
  private mutating func operate(_ command: ScriptCommand, line: String) throws(ScriptError) -> Output {
    if let device = command.device, !setup.devices.contains(where: { $0.name == device }) {
      if setup.devices.isEmpty { throw ScriptError("no device '\(device)'; add one with `device add \(device)`") }
      throw .unknown("device", device, choices: setup.devices.map(\.name))
    }
    switch command {
    case .upgrade(let device, let version?):
      _ = try AppSchemaBuilder.schema(version, from: declarations)
      return try carryOut([.upgrade(device: device, version: version)], undoing: self)
    default:
      throw ScriptError("this line only looks at the world; the interpreter answers it (`SimulationSession.interpret`)")
    }
  }

  /// An edit with `+=` or `-=` as one that sets each field's result on `device`'s current record (one record only),
  /// the line's changes applied in order.
  private func resolved(_ device: String, _ paths: [RecordPath], _ fields: [FieldAssignment]) throws(ScriptError)
    -> ScriptCommand
  {
    guard paths.count == 1, let path = paths.first else {
      throw ScriptError("+= and -= change one record at a time, not \(paths.count)")
    }
    let record = simulation?.client(named: device)?.record(try path.recordID())
    // Each change applies to the value the line's earlier changes left: `plays+=1 plays+=1` adds 2.
    var values: [FieldAssignment] = []
    for field in fields {
      let earlier = values.last { $0.key == field.key && $0.encrypted == field.encrypted }
      let current = earlier.map(\.value) ?? (field.encrypted ? record?.encryptedValues[field.key] : record?[field.key])
      values.removeAll { $0.key == field.key && $0.encrypted == field.encrypted }
      values.append(FieldAssignment(key: field.key, value: try field.applied(to: current), encrypted: field.encrypted))
    }
    return .edit(device: device, records: paths, fields: values)
  }

}
