import Foundation
package import Reconcile
package import ReconcileSimulator

/// A world to play in: one simulated server, the devices a script adds, the resolver and policies they use, and the
/// faults waiting to happen. Every command of the playground's language is carried out here, for the REPL, `run` and
/// `demo` alike.
///
/// All devices sync one zone, `Notes`, of their user's private database; time is virtual and moves only through
/// `advance` and the waits a sync goes through.
package struct PlaygroundSession: Sendable {
  /// The server.
  package internal(set) var server: SimulatedServer
  /// The devices, in the order they were added.
  package internal(set) var devices: [SimulatedDevice] = []
  /// The resolver new and existing devices use.
  package internal(set) var resolver: ResolverSetting
  /// Who wins between a delete and an edit.
  package internal(set) var deletePolicy: DeletePolicy
  /// Every `schema` declaration so far.
  var declarations: [SchemaDeclaration] = []
  /// Network faults waiting for each device.
  var networkFaults: [String: NetworkFaults] = [:]
  /// What each device's syncs have cost.
  var counters: [String: DeviceCounts] = [:]
  /// Every request and answer, oldest first.
  package internal(set) var log: [LogEntry] = []
  /// What each device changed since the devices last agreed, to tell what was lost.
  var intents: [String: [RecordID: Intent]] = [:]
  /// Whether the devices agreed since the last change: the next change then starts afresh.
  var intentsAreSettled = false
  /// When the session started, in virtual time; the log counts from here.
  let start: Date

  /// Network faults a device will meet.
  struct NetworkFaults: Sendable, Hashable {
    var disconnectAfterSave = false
    var loseResponses = 0
  }

  /// A device's changes to one record since the devices last agreed.
  enum Intent: Sendable, Hashable {
    case fields([String: FieldValue?])
    case delete
  }

  /// Creates an empty world.
  /// - Parameters:
  ///   - resolver: The resolver devices use; `field-merge` unless given.
  ///   - deletePolicy: `.deleteWins` unless given.
  package init(
    resolver: ResolverSetting = ResolverSetting(choice: .fieldMerge),
    deletePolicy: DeletePolicy = .deleteWins
  ) {
    server = SimulatedServer(configuration: SimulatedServer.Configuration(recordsEvents: false))
    start = server.now
    self.resolver = resolver
    self.deletePolicy = deletePolicy
  }

  /// Carries out one command.
  /// - Parameter command: A parsed command.
  /// - Returns: What to print: a confirmation, a table, or JSON for `show … --json`.
  /// - Throws: ``ScriptError`` when the command cannot be carried out (an unknown device, a record that does not
  ///   exist) or an `expect` does not hold; the world is unchanged by a command that throws, except that a failed
  ///   `expect` has nothing to undo.
  package mutating func execute(_ command: ScriptCommand) throws(ScriptError) -> String {
    switch command {
    case .addDevice(let setup): return try addDevice(setup)
    case .create(let name, let paths, let fields): return try create(name, paths, fields)
    case .edit(let name, let paths, let fields): return try edit(name, paths, fields)
    case .delete(let name, let paths): return try delete(name, paths)
    case .sync(let name): return try sync(name)
    case .syncAll: return syncAll()
    case .setOnline(let name, let online):
      try withDevice(name) { device in online ? device.goOnline() : device.goOffline() }
      return "\(name) is \(online ? "online" : "offline")"
    case .crash(let name):
      try withDevice(name) { $0.crash() }
      return "\(name) crashed and relaunched; what it had on disk survives, the request in flight does not"
    case .restart(let name):
      try withDevice(name) { $0.restart() }
      return "\(name) restarted syncing"
    case .upgrade(let name, nil): throw Self.simulatorOnly("\(name) upgrade without a version")
    case .upgrade(let name, let version?):
      let schema = try AppSchemaBuilder.schema(version, from: declarations)
      try withDevice(name) { $0.upgrade(to: schema) }
      return "\(name) now runs app \(version)"
    case .jumpClock(let name, let seconds):
      var offset: TimeInterval = 0
      try withDevice(name) {
        $0.jumpClock(by: seconds)
        offset = $0.configuration.clockOffset
      }
      return "\(name)'s clock is \(Self.offsetText(offset)) true time"
    case .resolver(let setting):
      guard setting.choice != nil else {
        throw .unknown("resolver", setting.name, choices: ResolverChoice.allCases.map(\.rawValue))
      }
      resolver = setting
      for index in devices.indices {
        devices[index].use(setting.resolver, bookkeeping: setting.bookkeeping, deletePolicy: deletePolicy)
      }
      return "resolver \(setting.summary)"
    case .deletePolicy(let policy):
      deletePolicy = policy
      for index in devices.indices {
        devices[index].use(resolver.resolver, bookkeeping: resolver.bookkeeping, deletePolicy: policy)
      }
      return "delete policy \(policy)"
    case .schema(let declaration):
      declarations.removeAll {
        $0.version == declaration.version && $0.recordSchema.recordType == declaration.recordSchema.recordType
      }
      declarations.append(declaration)
      let keys = declaration.recordSchema.fields.keys.sorted().joined(separator: ", ")
      return "app \(declaration.version) knows \(declaration.recordSchema.recordType): \(keys)"
    case .fault(let fault): return try inject(fault)
    case .limits(let limits):
      let ordered = limits.sorted { $0.key.rawValue < $1.key.rawValue }
      for (limit, value) in ordered where value < 1 {
        throw ScriptError("limit \(limit.rawValue) \(value): a limit is at least 1")
      }
      for (limit, value) in ordered { server.configuration.limits[limit] = value }
      return ServerLimit.confirmation(limits).joined(separator: "\n")
    case .schemas, .client, .invariants, .zoneDeletion, .sendAfterEdits, .defect, .quiesce:
      throw Self.simulatorOnly("this line")
    case .advance(let seconds):
      guard seconds >= 0, seconds.isFinite else { throw ScriptError("advance: time only moves forward") }
      server.advanceClock(by: seconds)
      return "time is now +\(DurationSyntax.render(elapsed))"
    case .show(let target, let json):
      var text = try show(target, json: json)
      while text.hasSuffix("\n") { text.removeLast() }
      return text
    case .expect(let expectation): return try check(expectation)
    case .help: return Self.helpText
    case .reset:
      self = PlaygroundSession()
      return Self.resetText
    }
  }

  /// What `reset` prints.
  static let resetText = "started over: an empty world, no devices, nothing carried out yet"

  /// Parses and carries out one line.
  /// - Parameter line: A line of a script or REPL input.
  /// - Returns: What to print; empty for a blank or comment line.
  /// - Throws: ``ScriptError`` from parsing or carrying out.
  package mutating func execute(line: String) throws(ScriptError) -> String {
    guard let command = try ScriptParser.parse(line) else { return "" }
    return try execute(command)
  }

  /// Every command with its description, aligned; commands of only one side are marked.
  package static var helpText: String { helpTable(extra: []) }

  /// The command table `help` prints, with `extra` rows at the end.
  static func helpTable(extra: [[String]]) -> String { ScriptParser.helpText(extra: extra) }

  /// The error for a line only the simulator's world carries out, when it reaches the playground's session itself
  /// (``ScriptSession`` hands such lines to a ``SimulationSession`` first).
  static func simulatorOnly(_ what: String) -> ScriptError {
    ScriptError("\(what) runs in the simulator's world (a replay script), not in the playground's session")
  }

  /// Virtual seconds since the session started.
  var elapsed: TimeInterval { server.now.timeIntervalSince(start) }

  // MARK: Devices

  /// The index of the device called `name`.
  /// - Throws: ``ScriptError`` naming the device, with the nearest known name.
  func index(of name: String) throws(ScriptError) -> Int {
    if let index = devices.firstIndex(where: { $0.name == name }) { return index }
    if devices.isEmpty { throw ScriptError("no device '\(name)'; add one with `device add \(name)`") }
    throw .unknown("device", name, choices: devices.map(\.name))
  }

  private mutating func withDevice(_ name: String, _ change: (inout SimulatedDevice) -> Void) throws(ScriptError) {
    let index = try index(of: name)
    change(&devices[index])
  }

  private mutating func addDevice(_ setup: DeviceSetup) throws(ScriptError) -> String {
    guard !setup.upgraded else { throw Self.simulatorOnly("device add --upgraded") }
    try ScriptParser.checkName(setup.name, what: "device name")
    try ScriptParser.checkName(setup.user, what: "user")
    guard !devices.contains(where: { $0.name == setup.name }) else {
      throw ScriptError("there is already a device called '\(setup.name)'")
    }
    let schema = try setup.schema.map { (version) throws(ScriptError) in
      try AppSchemaBuilder.schema(version, from: declarations)
    }
    let configuration = SimulatedDevice.Configuration(
      name: setup.name, userRecordName: setup.user, zoneID: Simulation.zoneID, resolver: resolver.resolver,
      deletePolicy: deletePolicy, schema: schema, bookkeeping: resolver.bookkeeping, clockOffset: setup.clockOffset)
    do {
      devices.append(try SimulatedDevice(configuration: configuration))
    } catch {
      throw ScriptError("device '\(setup.name)': \(error)")
    }
    var text = "added \(setup.name)"
    var details: [String] = []
    if setup.clockOffset != 0 { details.append("clock \(Self.offsetText(setup.clockOffset))") }
    if let version = setup.schema { details.append("app \(version)") }
    if setup.user != "_user" { details.append("user \(setup.user)") }
    if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
    return text
  }

  static func offsetText(_ offset: TimeInterval) -> String { DurationSyntax.offsetText(offset) }

  // MARK: Records

  static func recordID(_ path: RecordPath) throws(ScriptError) -> RecordID { try path.recordID() }

  private mutating func create(_ name: String, _ paths: [RecordPath], _ fields: [FieldAssignment])
    throws(ScriptError) -> String
  {
    guard let first = paths.first, let last = paths.last else { throw ScriptError("\(name) create: name a record") }
    let index = try index(of: name)
    var device = devices[index]
    for path in paths {
      var record = Record(recordType: path.recordType, recordID: try Self.recordID(path))
      for field in fields { Self.assign(field, to: &record) }
      do {
        try device.create(record, at: server.now)
      } catch {
        throw ScriptError("\(name) create \(path): \(error)")
      }
      noteIntent(name, record.recordID, fields)
    }
    devices[index] = device
    let what = paths.count == 1 ? "\(first)" : "\(paths.count) records (\(first) … \(last))"
    return "\(name) created \(what); \(device.storage.pending.count) queued"
  }

  private mutating func edit(_ name: String, _ paths: [RecordPath], _ fields: [FieldAssignment])
    throws(ScriptError) -> String
  {
    try change(name, paths, "edit") { device, id, now in
      try device.edit(id, at: now) { record in
        for field in fields { Self.assign(field, to: &record) }
      }
    }
    for path in paths { noteIntent(name, try Self.recordID(path), fields) }
    let changes = fields.map { RecordText.assignment($0) }.joined(separator: " ")
    return "\(name) edited \(Self.describe(paths)): \(changes)"
  }

  private mutating func delete(_ name: String, _ paths: [RecordPath]) throws(ScriptError) -> String {
    try change(name, paths, "delete") { device, id, now in try device.delete(id, at: now) }
    startIntent()
    for path in paths { intents[name, default: [:]][try Self.recordID(path)] = .delete }
    return "\(name) deleted \(Self.describe(paths))"
  }

  /// Applies `body` to each named record on device `name`, all or nothing: the device is replaced only when every
  /// record was changed.
  private mutating func change(
    _ name: String, _ paths: [RecordPath], _ verb: String,
    _ body: (inout SimulatedDevice, RecordID, Date) throws -> Void
  ) throws(ScriptError) {
    let index = try index(of: name)
    var device = devices[index]
    for path in paths {
      let id = try Self.recordID(path)
      try Self.checkType(path, on: device)
      do {
        try body(&device, id, server.now)
      } catch {
        throw ScriptError("\(name) \(verb) \(path): \(error)")
      }
    }
    devices[index] = device
  }

  /// `Note/1`, or `3 records`.
  private static func describe(_ paths: [RecordPath]) -> String {
    paths.count == 1 ? paths.map(\.description).joined() : "\(paths.count) records"
  }

  /// The record's type must be the one the script names: records are identified by name alone.
  private static func checkType(_ path: RecordPath, on device: SimulatedDevice) throws(ScriptError) {
    guard let id = try? recordID(path), let record = device.record(id) else { return }
    guard record.recordType == path.recordType else {
      throw ScriptError(
        "\(path): \(device.name) holds \(record.recordType)/\(path.recordName), not a \(path.recordType)")
    }
  }

  private static func assign(_ field: FieldAssignment, to record: inout Record) {
    if field.encrypted {
      record.encryptedValues[field.key] = field.value
    } else {
      record[field.key] = field.value
    }
  }

  private mutating func startIntent() {
    if intentsAreSettled {
      intents.removeAll()
      intentsAreSettled = false
    }
  }

  private mutating func noteIntent(_ name: String, _ id: RecordID, _ fields: [FieldAssignment]) {
    startIntent()
    var changes: [String: FieldValue?] = [:]
    if case .fields(let earlier) = intents[name]?[id] { changes = earlier }
    for field in fields { changes[field.key] = .some(field.value) }
    intents[name, default: [:]][id] = .fields(changes)
  }
}
