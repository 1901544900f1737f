import Foundation
public import Reconcile

/// The replay script format: plain text, one command per line, `#` comments — the playground's script language
/// (`reconcile-playground replay FILE` runs it; the extension is `.rcp`).
///
/// ```
/// # seed 42
/// # broke oneSidedChangesKept: d2 set body of r1 to "d2.7" …
/// resolver server-lww
/// delete-policy deleteWins
/// schemas none
/// device add d1 --clock-offset 0s
/// device add d2 --clock-offset -37s
/// d1 create Note/r1 rank=0 title="d1.0"
/// d1 sync
/// d2 sync
/// d2 edit Note/r1 body="d2.7"
/// d1 edit Note/r1 title="d1.8"
/// d1 sync
/// d2 sync
/// quiesce
/// expect invariants
/// ```
///
/// Every line is a line of the one script language (`ScriptParser`, `ScriptCommand`; the article
/// <doc:TheScriptLanguage> lists them): header lines (`resolver`, `delete-policy`, `schemas`, `device add`, `client`,
/// `limit` …) set up the world, each step line (`d1 create Note/r1 …`, `d1 sync`, `fault lose-response d1`,
/// `advance 30s` …) is one ``SimulationStep`` followed by one second of virtual time, `quiesce` drives the world to
/// quiescence, and `expect invariants` fails the script if an invariant is broken. Lines only the REPL and `run` carry
/// out (`show`, `sync all`, `wait`, `expect` on a value, a record of another type …) are refused, naming the line.
/// Older scripts' forms still read: bare seconds, `server-limits`, `fault corrupt d1 r1`. `SimulationSession` carries
/// any line out one at a time.
public enum SimulationScript {
  /// A script line that could not be read, naming the line, the token and the problem.
  public struct ParseError: Error, Sendable, Hashable, DescribedError {
    /// The line number, from 1.
    public var line: Int
    /// The offending token (or the whole line).
    public var token: String
    /// What is wrong.
    public var problem: String

    /// `line N: problem: token`, or `line N: problem` when the problem already quotes the token (or names none).
    public var description: String { "line \(line): \(sentence)" }

    /// The problem, followed by the token unless the problem already quotes it.
    package var sentence: String {
      token.isEmpty || problem.contains("'\(token)'") ? problem : "\(problem): \(token)"
    }
  }

  /// A parsed script: the world, the steps, and whether it ends by quiescing and expecting the invariants.
  package struct Parsed: Sendable, Hashable {
    /// The world.
    package var setup: SimulationSetup
    /// The steps.
    package var steps: [SimulationStep]
    /// Whether the script says `quiesce`.
    package var quiesces: Bool
    /// Whether the script says `expect invariants`.
    package var expectsInvariants: Bool
    /// The invariants an `invariants` line names; `nil` for the resolver's defaults.
    package var invariants: Set<Invariant>?
    /// Whether the script says `steps-may-skip`: its steps were drawn at random, and one that cannot apply is skipped.
    package var stepsMaySkip = false
  }

  // MARK: Writing

  /// A whole script for a setup and steps, ending with `quiesce` and `expect invariants`.
  /// - Parameters:
  ///   - setup: The world.
  ///   - steps: The steps.
  ///   - invariants: The invariants `expect invariants` checks; the resolver's defaults when `nil`.
  ///   - comments: Lines to put first, as `#` comments.
  /// - Returns: The script text.
  package static func render(
    setup: SimulationSetup,
    steps: [SimulationStep],
    invariants: Set<Invariant>? = nil,
    comments: [String] = []
  ) -> String {
    var lines = comments.map { "# " + $0.replacingOccurrences(of: "\n", with: " ") }
    if setup.client != .reference { lines.append("client \(setup.client.name)") }
    lines.append("resolver \(setup.resolver.name)")
    lines.append("delete-policy \(setup.deletePolicy)")
    lines.append("schemas \(setup.schemas.rawValue)")
    for device in setup.devices {
      lines.append(
        "device add \(device.name) --clock-offset \(seconds(device.clockOffset))"
          + (device.upgraded ? " --upgraded" : ""))
    }
    if setup.zoneDeletion != .dropLocalData { lines.append("zone-deletion \(setup.zoneDeletion)") }
    if setup.accountChange != .deleteLocalData { lines.append("account-change \(setup.accountChange)") }
    if setup.sendsAfterEdits { lines.append("send-after-edits") }
    // Drawn steps: one that could not apply was skipped when the runner drew it, and is skipped again.
    lines.append("steps-may-skip")
    let lowered = ServerLimit.allCases.filter { setup.limits[$0] != SimulatedServer.Limits.cloudKit[$0] }
    if !lowered.isEmpty { lines.append("limit" + lowered.map { " \($0.rawValue) \(setup.limits[$0])" }.joined()) }
    for defect in setup.defects.map(\.rawValue).sorted() { lines.append("defect \(defect)") }
    if let invariants {
      lines.append("invariants " + invariants.map(\.rawValue).sorted().joined(separator: " "))
    }
    lines += steps.map(line(for:))
    lines.append("quiesce")
    lines.append("expect invariants")
    return lines.joined(separator: "\n") + "\n"
  }

  /// One step as a line.
  /// - Parameter step: The step.
  /// - Returns: The line.
  package static func line(for step: SimulationStep) -> String {
    switch step {
    case .create(let device, let record):
      return "\(device) create \(RecordText.path(record))"
        + record.values.keys.sorted().map { " \($0)=\(literal(record.values[$0]))" }.joined()
        + record.encryptedValuesByKey.keys.sorted().map { key in
          " encrypted:\(key)=" + (record.encryptedValues[key].map(EncryptedStandIn.render) ?? RecordText.redacted)
        }.joined()
    case .edit(let device, let type, let record, let values, let encrypted):
      return "\(device) edit \(type)/\(record.recordName)"
        + values.keys.sorted().map { key in
          if case .some(.some(let value)) = values[key] { return " \(key)=\(literal(value))" }
          return " -\(key)"
        }.joined()
        + encrypted.keys.sorted().map { key in
          if case .some(.some(let value)) = encrypted[key] {
            return " encrypted:\(key)=\(EncryptedStandIn.render(value))"
          }
          return " encrypted:\(key)=nil"
        }.joined()
    case .delete(let device, let type, let record): return "\(device) delete \(type)/\(record.recordName)"
    case .sync(let device): return "\(device) sync"
    case .crash(let device): return "\(device) crash"
    case .quit(let device): return "\(device) quit"
    case .launch(let device): return "\(device) launch"
    case .offline(let device): return "\(device) offline"
    case .online(let device): return "\(device) online"
    case .upgrade(let device, let version): return "\(device) upgrade" + (version.map { " \($0)" } ?? "")
    case .restart(let device): return "\(device) restart"
    case .resetSync(let device): return "\(device) reset-sync"
    case .account(let device, let user): return user.map { "\(device) sign-in \($0)" } ?? "\(device) sign-out"
    case .answerAccount(let device, let keep): return "\(device) answer-account \(keep ? "keep" : "delete")"
    case .clockJump(let device, let jump): return "\(device) clock \(jump >= 0 ? "+" : "")\(seconds(jump))"
    case .advance(let wait): return "advance \(seconds(wait))"
    case .fault(let fault): return fault.scriptLine
    case .clearFaults: return SimulationFault.clearLine
    }
  }

  /// A time as the language writes it: `30s`, `-37s`, `0.5s`.
  private static func seconds(_ value: Double) -> String {
    DurationSyntax.wholeSeconds(value).map { "\($0)s" } ?? DurationSyntax.render(value)
  }

  /// The shared value syntax (`ValueSyntax`): what the REPL and `run` read too.
  private static func literal(_ value: FieldValue?) -> String { ValueSyntax.render(value) }

  // MARK: Reading

  /// Reads a script.
  /// - Parameters:
  ///   - text: The script.
  ///   - resolvers: Your own resolvers, for `resolver NAME` lines that name them; the built-ins are always known.
  ///   - clients: Your own sync clients, for `client NAME` lines that name them; the built-ins are always known.
  /// - Returns: The world, the steps, and the closing commands.
  /// - Throws: ``ParseError`` naming the first bad line and token.
  package static func parse(
    _ text: String, resolvers: [ResolverUnderTest] = [], clients: [ClientUnderTest] = []
  ) throws(ParseError) -> Parsed {
    var reader = Reader(resolvers: resolvers, clients: clients)
    for (offset, raw) in ScriptLines.split(text).enumerated() {
      try reader.read(String(raw), number: offset + 1)
    }
    return reader.parsed
  }

  /// Builds a world and its steps from lines of the language, one at a time.
  struct Reader {
    private let resolvers: [ResolverUnderTest]
    private let clients: [ClientUnderTest]
    private(set) var parsed: Parsed

    init(resolvers: [ResolverUnderTest], clients: [ClientUnderTest]) {
      self.resolvers = resolvers + ResolverChoice.allCases.map(ResolverUnderTest.init)
      self.clients = clients + ClientUnderTest.builtIns
      parsed = Parsed(
        setup: SimulationSetup(
          resolver: ResolverUnderTest(.fieldMerge), deletePolicy: .deleteWins, schemas: .none, devices: []),
        steps: [], quiesces: false, expectsInvariants: false, invariants: nil)
    }

    /// The resolvers a `resolver` line may name.
    var resolverNames: [String] { resolvers.map(\.name) }
    /// The clients a `client` line may name.
    var clientNames: [String] { clients.map(\.name) }

    /// Changes the world's setup directly, for a setting a replay script cannot write (a resolver's options, a
    /// device on a declared app version).
    mutating func change(_ body: (inout SimulationSetup) -> Void) { body(&parsed.setup) }

    /// Reads one line into the world or its steps.
    /// - Returns: The command the line holds, or `nil` for a blank or comment line.
    @discardableResult
    mutating func read(_ line: String, number: Int) throws(ParseError) -> ScriptCommand? {
      let command: ScriptCommand
      do {
        guard let read = try ScriptParser.parse(line, resolvers: resolverNames, clients: clientNames) else {
          return nil
        }
        command = read
      } catch {
        throw ParseError(
          line: number, token: error.token ?? line.trimmingCharacters(in: .whitespaces), problem: error.message)
      }
      try apply(command, line: line, number: number)
      return command
    }

    /// Takes a line's command, parsed once, into the world or its steps.
    /// - Parameters:
    ///   - command: The command.
    ///   - line: The line it was read from, for the errors.
    ///   - number: The line's number, for the errors.
    mutating func apply(_ command: ScriptCommand, line: String, number: Int) throws(ParseError) {
      func fail(_ problem: String, _ token: String? = nil) -> ParseError {
        ParseError(line: number, token: token ?? line.trimmingCharacters(in: .whitespaces), problem: problem)
      }
      guard command.runsInReplay else {
        throw fail("a replay script cannot hold this line: \(Self.why(command))")
      }
      var setup = parsed.setup
      switch command {
      case .resolver(let setting):
        guard let resolver = resolvers.first(where: { $0.name == setting.name }) else {
          throw fail("unknown resolver", setting.name)
        }
        setup.resolver = resolver
      case .client(let name):
        guard let client = clients.first(where: { $0.name == name }) else { throw fail("unknown client", name) }
        setup.client = client
      case .deletePolicy(let policy): setup.deletePolicy = policy
      case .schemas(let scenario): setup.schemas = scenario
      case .addDevice(let device):
        guard !setup.devices.contains(where: { $0.name == device.name }) else {
          throw fail("there is already a device called '\(device.name)'", device.name)
        }
        setup.devices.append(device)
      case .zoneDeletion(let response): setup.zoneDeletion = response
      case .accountChange(let response): setup.accountChange = response
      case .sendAfterEdits: setup.sendsAfterEdits = true
      case .stepsMaySkip: parsed.stepsMaySkip = true
      case .limits(let limits):
        for (limit, value) in limits { setup.limits[limit] = value }
      case .defect(let defect): setup.defects.insert(defect)
      case .invariants(let invariants): parsed.invariants = invariants
      case .quiesce: parsed.quiesces = true
      case .expect: parsed.expectsInvariants = true
      default:
        if let device = command.device, !setup.devices.contains(where: { $0.name == device }) {
          guard !setup.devices.isEmpty else {
            throw fail("no device '\(device)'; add one with `device add \(device)`", device)
          }
          throw fail(ScriptError.unknown("device", device, choices: setup.devices.map(\.name)).message, device)
        }
        let steps: [SimulationStep]?
        do {
          steps = try Self.steps(command)
        } catch {
          throw fail(error.message, error.token)
        }
        guard let steps else { throw fail("a replay script cannot hold this line: \(Self.why(command))") }
        parsed.steps += steps
      }
      // Checked once the resolver is named, or at the first line that runs the world (scripts name the client first).
      switch command {
      case .client, .deletePolicy, .schemas, .addDevice, .zoneDeletion, .accountChange, .sendAfterEdits, .limits,
        .defect, .invariants, .stepsMaySkip:
        break
      default:
        if let refusal = setup.client.refusal(ofResolver: setup.resolver.name) { throw fail(refusal) }
        if let refusal = setup.client.refusal(ofAccountChange: setup.accountChange) { throw fail(refusal) }
      }
      parsed.setup = setup
    }

    /// The steps a step line stands for — the one lowering every way of driving a world shares; `nil` for a line that
    /// is not a step (a header, a look at the world) or a fault the simulator cannot cause.
    /// - Throws: ``ScriptError`` for a record name the record-name rules refuse.
    static func steps(_ command: ScriptCommand) throws(ScriptError) -> [SimulationStep]? {
      switch command {
      case .create(let device, let records, let fields):
        return try records.map { (path) throws(ScriptError) in
          var record = Record(recordType: path.recordType, recordID: try path.recordID())
          for field in fields {
            if field.encrypted {
              record.encryptedValues[field.key] = field.value
            } else {
              record[field.key] = field.value
            }
          }
          return .create(device: device, record: record)
        }
      case .edit(let device, let records, let fields):
        var plain: [String: FieldValue?] = [:]
        var encrypted: [String: FieldValue?] = [:]
        for field in fields {
          if field.encrypted {
            encrypted[field.key] = .some(field.value)
          } else {
            plain[field.key] = .some(field.value)
          }
        }
        return try records.map { (path) throws(ScriptError) in
          .edit(device: device, type: path.recordType, record: try path.recordID(), values: plain, encrypted: encrypted)
        }
      case .delete(let device, let records):
        return try records.map { (path) throws(ScriptError) in
          .delete(device: device, type: path.recordType, record: try path.recordID())
        }
      case .sync(let device): return [.sync(device: device)]
      case .crash(let device): return [.crash(device: device)]
      case .running(let device, let running): return [running ? .launch(device: device) : .quit(device: device)]
      case .resetSync(let device): return [.resetSync(device: device)]
      case .account(let device, let user): return [.account(device: device, user: user)]
      case .answerAccount(let device, let keep): return [.answerAccount(device: device, keepingData: keep)]
      case .setOnline(let device, let online): return [online ? .online(device: device) : .offline(device: device)]
      case .upgrade(let device, let version): return [.upgrade(device: device, version: version)]
      case .restart(let device): return [.restart(device: device)]
      case .jumpClock(let device, let jump): return [.clockJump(device: device, seconds: jump)]
      case .advance(let wait): return [.advance(seconds: wait)]
      case .fault(let faults): return faults.map { .fault($0) }
      case .clearFaults: return [.clearFaults]
      default: return nil
      }
    }

    /// Why a line that parses has no place in a replay script.
    private static func why(_ command: ScriptCommand) -> String {
      switch command {
      case .addDevice: "a simulated device takes a whole-second --clock-offset and --upgraded, not --schema or --user"
      case .resolver: "the simulator's resolvers take no options"
      case .edit: "`+=` and `-=` read what a device shows, which only the REPL and `run` know: write the value"
      case .upgrade: "an app version is declared by `schema` lines, which only the REPL and `run` read"
      default: "it is a line of the REPL and `run` only"
      }
    }
  }
}
