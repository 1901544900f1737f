import Foundation
import Reconcile

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
/// Header lines set up the world: `resolver NAME` (`server-lww`, `local-clock`, `edit-count`, `field-merge`, `hlc`),
/// `delete-policy deleteWins|editWins`, `schemas none|minor|major`, one `device add NAME [--clock-offset Ns]
/// [--upgraded]` per device, and optionally `invariants NAME …` (the ``Invariant``s to check; the resolver's defaults
/// otherwise), `zone-deletion drop|reupload` (``ZoneDeletionResponse``; `drop` unless given), `send-after-edits`
/// (devices send right after each user action, see ``Workload/sendsAfterEdits``), `server-limits batch-items N
/// batch-bytes N page-size N` (lowered limits), `defect NAME` lines (a ``ClientDefect`` every device makes) and
/// `client NAME` (the ``ClientUnderTest`` every device runs; `reference` unless given). Each step line is one
/// ``SimulationStep``; one second of virtual time passes after each
/// (`advance Ns` waits N seconds instead):
///
/// | Line | Step |
/// |---|---|
/// | `NAME create Note/REC key=value …` | ``SimulationStep/create(device:record:values:)`` |
/// | `NAME edit Note/REC key=value … -key` | ``SimulationStep/edit(device:record:values:)`` (`-key` removes it) |
/// | `NAME delete Note/REC` | ``SimulationStep/delete(device:record:)`` |
/// | `NAME sync` · `NAME crash` · `NAME offline` · `NAME online` · `NAME upgrade` | the device step |
/// | `NAME clock +90s` | ``SimulationStep/clockJump(device:seconds:)`` |
/// | `advance 30s` | ``SimulationStep/advance(seconds:)`` |
/// | `fault lose-request NAME` · `fault lose-response NAME` · `fault duplicate NAME` | a network fault |
/// | `fault delay NAME 20s` · `fault transient NAME zoneBusy 5s` | a late request, a transient error |
/// | `fault item-transient NAME zoneBusy 5s` | one save of the next request fails with a transient error |
/// | `fault throttle 30s` · `fault expire-tokens` · `fault delete-zone` | a server fault |
/// | `fault corrupt NAME RECORD` | the device's stored copy of the record is damaged |
/// | `fault torn-crash NAME` | the device crashes between two persistence writes of its next answer |
/// | `fault expire-database-tokens` · `fault quota-full 30s` | database tokens expire; the user's storage is full |
///
/// `quiesce` drives the world to quiescence; `expect invariants` fails the script if an invariant is broken. Words,
/// values and durations are read by the playground's syntax (``ScriptToken``, ``ValueSyntax``): strings in double
/// quotes, integers, decimals, `nil`; durations in `ms`, `s`, `m`, `h` or `d` (a bare number of seconds still reads).
/// ``SimulationSession`` carries a script out one line at a time.
public enum SimulationScript {
  /// A script line that could not be read, naming the line, the token and the problem.
  public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line number, from 1.
    public var line: Int
    /// The offending token (or the whole line).
    public var token: String
    /// What is wrong.
    public var problem: String

    /// `line N: problem (token)`.
    public var description: String { "line \(line): \(problem): \(token)" }
  }

  /// A parsed script: the world, the steps, and whether it ends by quiescing and expecting the invariants.
  public struct Parsed: Sendable, Hashable {
    /// The world.
    public var setup: SimulationSetup
    /// The steps.
    public var steps: [SimulationStep]
    /// Whether the script says `quiesce`.
    public var quiesces: Bool
    /// Whether the script says `expect invariants`.
    public var expectsInvariants: Bool
    /// The invariants an `invariants` line names; `nil` for the resolver's defaults.
    public var invariants: Set<Invariant>?
  }

  // MARK: Writing

  /// A whole script for a setup and steps, ending with `quiesce` and `expect invariants`.
  /// - Parameters:
  ///   - setup: The world.
  ///   - steps: The steps.
  ///   - invariants: The invariants `expect invariants` checks; the resolver's defaults when `nil`.
  ///   - comments: Lines to put first, as `#` comments.
  /// - Returns: The script text.
  public static func render(
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
        "device add \(device.name) --clock-offset \(device.clockOffset)s" + (device.upgraded ? " --upgraded" : ""))
    }
    if setup.zoneDeletion != .dropLocalData { lines.append("zone-deletion \(setup.zoneDeletion)") }
    if setup.sendsAfterEdits { lines.append("send-after-edits") }
    if setup.limits != .cloudKit {
      let l = setup.limits
      lines.append(
        "server-limits batch-items \(l.maximumBatchItems) batch-bytes \(l.maximumBatchBytes) "
          + "page-size \(l.changesPageSize)")
    }
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
  public static func line(for step: SimulationStep) -> String {
    switch step {
    case .create(let device, let record, let values):
      return "\(device) create Note/\(record)" + values.keys.sorted().map { " \($0)=\(literal(values[$0]))" }.joined()
    case .edit(let device, let record, let values):
      return "\(device) edit Note/\(record)"
        + values.keys.sorted().map { key in
          if case .some(.some(let value)) = values[key] { return " \(key)=\(literal(value))" }
          return " -\(key)"
        }.joined()
    case .delete(let device, let record): return "\(device) delete Note/\(record)"
    case .sync(let device): return "\(device) sync"
    case .crash(let device): return "\(device) crash"
    case .offline(let device): return "\(device) offline"
    case .online(let device): return "\(device) online"
    case .upgrade(let device): return "\(device) upgrade"
    case .clockJump(let device, let seconds): return "\(device) clock \(seconds >= 0 ? "+" : "")\(seconds)s"
    case .advance(let seconds): return "advance \(seconds)s"
    case .fault(let fault):
      switch fault {
      case .loseRequest(let device): return "fault lose-request \(device)"
      case .loseResponse(let device): return "fault lose-response \(device)"
      case .duplicate(let device): return "fault duplicate \(device)"
      case .delay(let device, let seconds): return "fault delay \(device) \(seconds)s"
      case .transient(let device, let error, let wait): return "fault transient \(device) \(error) \(wait)s"
      case .itemTransient(let device, let error, let wait): return "fault item-transient \(device) \(error) \(wait)s"
      case .throttle(let seconds): return "fault throttle \(seconds)s"
      case .expireTokens: return "fault expire-tokens"
      case .expireDatabaseTokens: return "fault expire-database-tokens"
      case .quotaFull(let seconds): return "fault quota-full \(seconds)s"
      case .deleteZone: return "fault delete-zone"
      case .corruptStorage(let device, let record): return "fault corrupt \(device) \(record)"
      case .tornCrash(let device): return "fault torn-crash \(device)"
      }
    }
  }

  /// The shared value syntax (``ValueSyntax``): what the REPL and `run` read too.
  private static func literal(_ value: FieldValue?) -> String { ValueSyntax.render(value) }

  // MARK: Reading

  /// Reads a script.
  /// - Parameters:
  ///   - text: The script.
  ///   - resolvers: Your own resolvers, for `resolver NAME` lines that name them; the built-ins are always known.
  ///   - clients: Your own sync clients, for `client NAME` lines that name them; the built-ins are always known.
  /// - Returns: The world, the steps, and the closing commands.
  /// - Throws: ``ParseError`` naming the first bad line and token.
  public static func parse(
    _ text: String, resolvers: [ResolverUnderTest] = [], clients: [ClientUnderTest] = []
  ) throws(ParseError) -> Parsed {
    let known = resolvers + ResolverChoice.allCases.map(ResolverUnderTest.init)
    let knownClients = clients + ClientUnderTest.builtIns
    var client = ClientUnderTest.reference
    var resolver = ResolverUnderTest(.fieldMerge)
    var deletePolicy = DeletePolicy.deleteWins
    var schemas = SchemaScenario.none
    var devices: [DeviceSetup] = []
    var steps: [SimulationStep] = []
    var quiesces = false
    var expects = false
    var invariants: Set<Invariant>?
    var zoneDeletion = ZoneDeletionResponse.dropLocalData
    var defects: Set<ClientDefect> = []
    var limits = SimulatedServer.Limits.cloudKit
    var sendsAfterEdits = false
    for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let number = offset + 1
      let tokens = try tokenize(String(raw), line: number)
      guard let head = tokens.first else { continue }
      func fail(_ problem: String, _ token: String? = nil) -> ParseError {
        ParseError(line: number, token: token ?? raw.trimmingCharacters(in: .whitespaces), problem: problem)
      }
      switch head {
      case "resolver":
        guard tokens.count == 2, let choice = known.first(where: { $0.name == tokens[1] }) else {
          throw fail(
            "unknown resolver; use one of \(known.map(\.name).joined(separator: ", "))", tokens.dropFirst().first)
        }
        resolver = choice
      case "client":
        guard tokens.count == 2, let choice = knownClients.first(where: { $0.name == tokens[1] }) else {
          throw fail(
            "unknown client; use one of \(knownClients.map(\.name).joined(separator: ", ")) or pass yours to the parser",
            tokens.dropFirst().first)
        }
        client = choice
      case "delete-policy":
        guard tokens.count == 2, let policy = DeletePolicy.allCases.first(where: { "\($0)" == tokens[1] }) else {
          throw fail("unknown delete policy; use deleteWins or editWins", tokens.dropFirst().first)
        }
        deletePolicy = policy
      case "schemas":
        guard tokens.count == 2, let scenario = SchemaScenario(rawValue: tokens[1]) else {
          throw fail("unknown schemas; use none, minor or major", tokens.dropFirst().first)
        }
        schemas = scenario
      case "device":
        guard tokens.count >= 3, tokens[1] == "add" else { throw fail("expected `device add NAME`") }
        var device = DeviceSetup(name: tokens[2])
        var rest = tokens.dropFirst(3)
        while let option = rest.popFirst() {
          switch option {
          case "--clock-offset":
            guard let value = rest.popFirst(), let seconds = duration(value) else {
              throw fail("expected a duration like 30s or -2m", option)
            }
            device.clockOffset = seconds
          case "--upgraded": device.upgraded = true
          default: throw fail("unknown option", option)
          }
        }
        guard !devices.contains(where: { $0.name == device.name }) else {
          throw fail("device added twice", device.name)
        }
        devices.append(device)
      case "zone-deletion":
        guard tokens.count == 2, let response = ZoneDeletionResponse(rawValue: tokens[1]) else {
          throw fail("unknown zone-deletion response; use drop or reupload", tokens.dropFirst().first)
        }
        zoneDeletion = response
      case "send-after-edits":
        guard tokens.count == 1 else { throw fail("`send-after-edits` takes nothing after it") }
        sendsAfterEdits = true
      case "server-limits":
        var rest = tokens.dropFirst()
        while let name = rest.popFirst() {
          guard let text = rest.popFirst(), let value = Int(text), value >= 1 else {
            throw fail("expected a whole number of at least 1 after \(name)", name)
          }
          switch name {
          case "batch-items": limits.maximumBatchItems = value
          case "batch-bytes": limits.maximumBatchBytes = value
          case "page-size": limits.changesPageSize = value
          default: throw fail("unknown server limit; use batch-items, batch-bytes or page-size", name)
          }
        }
      case "defect":
        guard tokens.count == 2, let defect = ClientDefect(rawValue: tokens[1]) else {
          throw fail(
            "unknown defect; use \(ClientDefect.allCases.map(\.rawValue).joined(separator: ", "))",
            tokens.dropFirst().first)
        }
        defects.insert(defect)
      case "invariants":
        var named = Set<Invariant>()
        for token in tokens.dropFirst() {
          // Scripts saved before the halted-device invariant covered reads name it by its old name.
          let name = token == "haltedDeviceWritesNothing" ? Invariant.haltedDeviceSendsNothing.rawValue : token
          guard let invariant = Invariant(rawValue: name) else {
            throw fail("unknown invariant; use \(Invariant.allCases.map(\.rawValue).joined(separator: ", "))", token)
          }
          named.insert(invariant)
        }
        invariants = named
      case "quiesce":
        guard tokens.count == 1 else { throw fail("`quiesce` takes nothing", tokens[1]) }
        quiesces = true
      case "expect":
        guard tokens.count == 2, tokens[1] == "invariants" else { throw fail("expected `expect invariants`") }
        expects = true
      case "advance":
        guard tokens.count == 2, let seconds = duration(tokens[1]), seconds >= 0 else {
          throw fail("expected a duration like 30s", tokens.dropFirst().first)
        }
        steps.append(.advance(seconds: seconds))
      case "fault":
        steps.append(.fault(try fault(Array(tokens.dropFirst()), fail: fail)))
      default:
        guard devices.contains(where: { $0.name == head }) else {
          throw fail("unknown command or device (add devices with `device add NAME` first)", head)
        }
        steps.append(try deviceStep(head, Array(tokens.dropFirst()), fail: fail))
      }
    }
    return Parsed(
      setup: SimulationSetup(
        resolver: resolver, deletePolicy: deletePolicy, schemas: schemas, devices: devices, zoneDeletion: zoneDeletion,
        defects: defects, limits: limits, sendsAfterEdits: sendsAfterEdits, client: client),
      steps: steps, quiesces: quiesces, expectsInvariants: expects, invariants: invariants)
  }

  private static func deviceStep(_ device: String, _ tokens: [String], fail: (String, String?) -> ParseError)
    throws(ParseError) -> SimulationStep
  {
    guard let verb = tokens.first else { throw fail("expected a command after the device name", device) }
    func record() throws(ParseError) -> String {
      guard tokens.count >= 2, tokens[1].hasPrefix("Note/"), tokens[1].count > 5 else {
        throw fail("expected a record as Note/NAME", tokens.dropFirst().first)
      }
      return String(tokens[1].dropFirst(5))
    }
    switch verb {
    case "create":
      let name = try record()
      var values: [String: FieldValue] = [:]
      for token in tokens.dropFirst(2) {
        let (key, value) = try assignment(token, fail: fail)
        guard let value else { throw fail("a new record cannot remove a key", token) }
        values[key] = value
      }
      return .create(device: device, record: name, values: values)
    case "edit":
      let name = try record()
      var values: [String: FieldValue?] = [:]
      for token in tokens.dropFirst(2) {
        let (key, value) = try assignment(token, fail: fail)
        values[key] = .some(value)
      }
      guard !values.isEmpty else { throw fail("expected key=value or -key after the record", tokens[1]) }
      return .edit(device: device, record: name, values: values)
    case "delete": return .delete(device: device, record: try record())
    case "sync": return .sync(device: device)
    case "crash": return .crash(device: device)
    case "offline": return .offline(device: device)
    case "online": return .online(device: device)
    case "upgrade": return .upgrade(device: device)
    case "clock":
      guard tokens.count == 2, let seconds = duration(tokens[1]) else {
        throw fail("expected a jump like +90s or -2m", tokens.dropFirst().first)
      }
      return .clockJump(device: device, seconds: seconds)
    default:
      throw fail(
        "unknown device command; use create, edit, delete, sync, crash, offline, online, upgrade or clock", verb)
    }
  }

  private static func fault(_ tokens: [String], fail: (String, String?) -> ParseError) throws(ParseError)
    -> SimulationFault
  {
    switch (tokens.first, tokens.count) {
    case ("lose-request", 2): return .loseRequest(device: tokens[1])
    case ("lose-response", 2): return .loseResponse(device: tokens[1])
    case ("duplicate", 2): return .duplicate(device: tokens[1])
    case ("delay", 3):
      guard let seconds = duration(tokens[2]), seconds >= 0 else {
        throw fail("expected a duration like 20s", tokens[2])
      }
      return .delay(device: tokens[1], seconds: seconds)
    case ("transient", 4), ("item-transient", 4):
      guard SimulationFault.transientErrorNames.contains(tokens[2]) else {
        throw fail(
          "unknown transient error; use \(SimulationFault.transientErrorNames.joined(separator: ", "))", tokens[2])
      }
      guard let seconds = duration(tokens[3]), seconds >= 0 else {
        throw fail("expected a duration like 5s", tokens[3])
      }
      if tokens[0] == "item-transient" {
        return .itemTransient(device: tokens[1], error: tokens[2], retryAfter: seconds)
      }
      return .transient(device: tokens[1], error: tokens[2], retryAfter: seconds)
    case ("throttle", 2):
      guard let seconds = duration(tokens[1]), seconds >= 0 else {
        throw fail("expected a duration like 30s", tokens[1])
      }
      return .throttle(seconds: seconds)
    case ("expire-tokens", 1): return .expireTokens
    case ("expire-database-tokens", 1): return .expireDatabaseTokens
    case ("quota-full", 2):
      guard let seconds = duration(tokens[1]), seconds >= 0 else {
        throw fail("expected a duration like 30s", tokens[1])
      }
      return .quotaFull(seconds: seconds)
    case ("delete-zone", 1): return .deleteZone
    case ("corrupt", 3): return .corruptStorage(device: tokens[1], record: tokens[2])
    case ("torn-crash", 2): return .tornCrash(device: tokens[1])
    default:
      throw fail(
        "unknown fault; use lose-request, lose-response, duplicate, delay, transient, item-transient, throttle, "
          + "expire-tokens, "
          + "expire-database-tokens, quota-full, delete-zone, corrupt or torn-crash", tokens.first)
    }
  }

  /// `key=value` or `-key`.
  private static func assignment(_ token: String, fail: (String, String?) -> ParseError) throws(ParseError)
    -> (String, FieldValue?)
  {
    if token.hasPrefix("-"), token.count > 1 { return (String(token.dropFirst()), nil) }
    guard let equals = token.firstIndex(of: "="), equals != token.startIndex else {
      throw fail("expected key=value or -key", token)
    }
    let key = String(token[..<equals])
    let text = String(token[token.index(after: equals)...])
    do {
      return (key, try ValueSyntax.parse(text))
    } catch {
      throw fail("cannot read the value: \(error.message)", text)
    }
  }

  /// Whole seconds from a duration in the shared syntax (``DurationSyntax``: `30s`, `-2m`, `+1h`, `1d`), or from a
  /// bare number of seconds, which older replay scripts wrote.
  static func duration(_ text: String) -> Int? {
    if let seconds = Int(text), abs(seconds) <= 366 * 86_400 { return seconds }
    guard let seconds = try? DurationSyntax.parse(text), seconds == seconds.rounded() else { return nil }
    return Int(seconds)
  }

  /// The line's words, by the shared tokenizer (``ScriptToken``): spaces split them outside quotes and brackets, and
  /// `#` starts a comment.
  private static func tokenize(_ line: String, line number: Int) throws(ParseError) -> [String] {
    do {
      return try ScriptToken.split(line).map(\.text)
    } catch {
      // The tokenizer names a column: the offending token is the word that starts there, to the end of the line.
      let characters = Array(line)
      var start = error.message.firstMatch(of: /column (\d+)/).flatMap { Int($0.output.1) }.map { $0 - 1 } ?? 0
      start = min(max(0, start), characters.count)
      while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
      let token = String(characters[start...]).trimmingCharacters(in: .whitespaces)
      throw ParseError(line: number, token: token, problem: error.message)
    }
  }
}
