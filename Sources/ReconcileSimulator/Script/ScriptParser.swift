package import Foundation
package import Reconcile

/// Reads one line of the script language into a ``ScriptCommand``: the one grammar of the playground's REPL and `run`,
/// and of the replay scripts the property runner writes. Pure: it knows nothing of a session, so the same line always
/// parses the same way (and the parser can be fuzzed on its own).
package enum ScriptParser {
  /// Where a command may stand. Every command runs in the one world of the REPL and `run` (`SimulationSession`);
  /// some also belong in a replay script (`.rcp`), the runner's counterexamples.
  package enum Runs: String, Sendable, Hashable {
    /// In the REPL, `run`, and a replay script.
    case replay
    /// In the REPL and `run` only: a replay script does not hold it.
    case session
  }

  /// One command of the language as `help` and the docs list it.
  package struct Entry: Sendable, Hashable {
    /// Its syntax, such as `NAME sync`.
    package var syntax: String
    /// What it does, in a line.
    package var summary: String
    /// Whether a replay script may hold it.
    package var runs: Runs
    /// A line that uses it (a test parses every one and checks where it runs).
    package var example: String
  }

  /// Every command with a one-line description, where it runs and an example, in the order `help` prints them.
  package static let commands: [Entry] = [
    Entry(
      syntax: "device add NAME [--clock-offset 5m] [--upgraded] [--schema 1.0]",
      summary: "add a device (clock skew; the simulator's newer app, or a declared app version)",
      runs: .replay, example: "device add phone --clock-offset -5m"),
    Entry(
      syntax: "NAME create TYPE/NAME key=value…", summary: "create a record on a device (TYPE/{1..100} makes many)",
      runs: .replay, example: "phone create Note/2 title=a"),
    Entry(
      syntax: "NAME edit TYPE/NAME key=value… key+=value key-=value -key",
      summary: "change fields (+= adds to a number, text or list, -= takes away; -key removes; encrypted:key=…)",
      runs: .replay, example: "phone edit Note/1 title=b -body"),
    Entry(
      syntax: "NAME delete TYPE/NAME", summary: "delete a record on a device",
      runs: .replay, example: "phone delete Note/1"),
    Entry(
      syntax: "NAME sync", summary: "a device starts a sync (wait lets it finish)",
      runs: .replay, example: "phone sync"),
    Entry(
      syntax: "sync all", summary: "sync every device, round after round, until nothing changes",
      runs: .session, example: "sync all"),
    Entry(
      syntax: "wait [NAME]", summary: "let virtual time pass until the device (or every device) has finished syncing",
      runs: .session, example: "wait phone"),
    Entry(
      syntax: "quiesce", summary: "faults off, every device online and restarted, syncing until nothing changes",
      runs: .replay, example: "quiesce"),
    Entry(
      syntax: "NAME offline | online | crash",
      summary: "take a device off the network, bring it back, crash and relaunch it",
      runs: .replay, example: "phone crash"),
    Entry(
      syntax: "NAME quit | launch",
      summary: "the app quits and stays quit (account changes meanwhile reach it as one), or launches again",
      runs: .replay, example: "phone quit"),
    Entry(
      syntax: "NAME reset-sync",
      summary: "the user resets sync: tokens and sync state dropped, everything fetched again, unsent changes kept",
      runs: .replay, example: "phone reset-sync"),
    Entry(
      syntax: "NAME sign-in USER | sign-out",
      summary: "the device's iCloud account changes: signed in to USER (a user record name), switched, or signed out",
      runs: .replay, example: "phone sign-in _other"),
    Entry(
      syntax: "NAME answer-account keep | delete",
      summary: "the user answers the question an account change asked (account-change ask): keep the records or not",
      runs: .replay, example: "phone answer-account keep"),
    Entry(
      syntax: "NAME restart", summary: "clear a device's halt",
      runs: .replay, example: "phone restart"),
    Entry(
      syntax: "NAME upgrade VERSION", summary: "install a declared app version's schema",
      runs: .session, example: "phone upgrade 2.0"),
    Entry(
      syntax: "NAME upgrade", summary: "install the simulator's newer app version",
      runs: .replay, example: "phone upgrade"),
    Entry(
      syntax: "NAME clock +90s", summary: "move a device's clock: +90s jumps ahead, -5m back",
      runs: .replay, example: "phone clock -5m"),
    Entry(
      syntax:
        "resolver NAME [--prefer P] [--union k1,k2] [--text|--counter|--set|--ordered-list|--keep-both k1,k2] [--text-granularity G] [--text-overlap O]",
      summary: "choose the resolver: " + ResolverChoice.allCases.map(\.rawValue).joined(separator: ", "),
      runs: .replay, example: "resolver hlc"),
    Entry(
      syntax: "delete-policy deleteWins | editWins", summary: "who wins between a delete and an edit",
      runs: .replay, example: "delete-policy editWins"),
    Entry(
      syntax: "schema VERSION TYPE key:type…", summary: "declare what an app version knows about a record type",
      runs: .session, example: "schema 2.0 Note title:string tags:[string]"),
    Entry(
      syntax: "schemas none | minor | major", summary: "the simulator's two app versions",
      runs: .replay, example: "schemas major"),
    Entry(
      syntax: "client NAME", summary: "the sync client every device runs: reference, sync-engine or yours",
      runs: .replay, example: "client sync-engine"),
    Entry(
      syntax: "limit batch-items | batch-bytes | page-size | conflict-without-record-every N …",
      summary: "change the server's limits (every Nth conflict answer without the server's record)",
      runs: .replay, example: "limit batch-items 100 page-size 50"),
    Entry(
      syntax: "zone-deletion drop | reupload", summary: "what devices do when their zone is deleted elsewhere",
      runs: .replay, example: "zone-deletion reupload"),
    Entry(
      syntax: "account-change delete | keep | ask",
      summary:
        "what apps do with local data when an account changes: delete it, keep it for the same account, or ask the user",
      runs: .replay, example: "account-change keep"),
    Entry(
      syntax: "send-after-edits", summary: "devices send right after each user action",
      runs: .replay, example: "send-after-edits"),
    Entry(
      syntax: "steps-may-skip",
      summary: "steps were drawn at random: one that cannot apply is skipped (counterexamples say it), not an error",
      runs: .replay, example: "steps-may-skip"),
    Entry(
      syntax: "defect NAME", summary: "a deliberate client mistake, to show an invariant catching it",
      runs: .replay, example: "defect ignore-fetched-deletions"),
    Entry(
      syntax: "invariants NAME…", summary: "the invariants expect invariants judges",
      runs: .replay, example: "invariants convergence noLostRecords"),
    Entry(
      syntax: "fault lose-response NAME [N]", summary: "the server handles the next N requests; their answers are lost",
      runs: .replay, example: "fault lose-response phone 2"),
    Entry(
      syntax: "fault corrupt NAME TYPE/NAME", summary: "damage the device's stored copy of a record",
      runs: .replay, example: "fault corrupt phone Note/1"),
    Entry(
      syntax: "fault throttle 30s | expire-tokens", summary: "throttle the container; expire change tokens",
      runs: .replay, example: "fault throttle 30s"),
    Entry(
      syntax: "fault disconnect-after-save NAME", summary: "the next save lands, then the device goes offline",
      runs: .replay, example: "fault disconnect-after-save phone"),
    Entry(
      syntax: "fault error CODE [N] [--device D] [--retry-after 5s] | clear",
      summary: "answer requests with an error; end every fault",
      runs: .replay, example: "fault error zoneBusy 3 --device phone"),
    Entry(
      syntax: "fault lose-request | duplicate | torn-crash NAME [after N]",
      summary: "lose or repeat a request; crash between two writes",
      runs: .replay, example: "fault duplicate phone"),
    Entry(
      syntax: "fault delay NAME 20s | transient NAME ERR 5s | item-transient NAME ERR 5s",
      summary: "a late request; a transient error for a request or one of its saves",
      runs: .replay, example: "fault transient phone zoneBusy 5s"),
    Entry(
      syntax: "fault expire-database-tokens | quota-full 30s | delete-zone",
      summary: "expire database tokens; fill the user's storage; delete the zone",
      runs: .replay, example: "fault quota-full 30s"),
    Entry(
      syntax: "fault purge-zone | reset-encrypted-data",
      summary: "the user deletes the app's data in Settings; the user resets their encrypted data (the zone goes)",
      runs: .replay, example: "fault reset-encrypted-data"),
    Entry(
      syntax: "advance 30s", summary: "move virtual time forward",
      runs: .replay, example: "advance 1h"),
    Entry(
      syntax: "show server | NAME | diff | diagnostics | log [--json]",
      summary: "print records, differences, diagnostics, the request log",
      runs: .session, example: "show server --json"),
    Entry(
      syntax: "expect PLACE TYPE/NAME key = value",
      summary: "assert a field on the server or a device (also !=, exists, absent)",
      runs: .session, example: "expect server Note/1 title = \"b\""),
    Entry(
      syntax: "expect converged | halted NAME | NAME status = S",
      summary: "assert convergence, a halt, a device status",
      runs: .session, example: "expect phone status = idle"),
    Entry(
      syntax: "expect PLACE records|queued|requests|errors[:CODE]|waited OP N",
      summary: "assert a count (=, !=, <, <=, >, >=)",
      runs: .session, example: "expect phone errors:limitExceeded >= 1"),
    Entry(
      syntax: "expect invariants", summary: "judge the run so far against the simulator's invariants",
      runs: .replay, example: "expect invariants"),
    Entry(
      syntax: "help", summary: "list the commands",
      runs: .session, example: "help"),
    Entry(
      syntax: "reset", summary: "start over: an empty world, no devices, nothing carried out yet",
      runs: .session, example: "reset"),
  ]

  /// The command list `help` prints — each command's syntax on a line of its own, its description indented under it
  /// and wrapped, one a replay script does not hold marked — with `extra` rows at the end; no line is wider than
  /// `width`.
  package static func helpText(extra: [[String]] = [], width: Int = 100) -> String {
    let rows = ScriptParser.commands.map { command -> [String] in
      switch command.runs {
      case .replay: [command.syntax, command.summary]
      case .session: [command.syntax, command.summary + " (not in a replay script)"]
      }
    }
    var lines: [String] = []
    for row in rows + extra {
      guard let syntax = row.first else { continue }
      lines += wrapped(syntax, width: width, indent: "")
      if row.count > 1 { lines += wrapped(row[1], width: width, indent: "    ") }
    }
    return lines.joined(separator: "\n")
  }

  /// `text` broken at spaces into lines of at most `width` characters (a longer word stands alone), each led by
  /// `indent`; lines after the first of a syntax are indented by two more.
  private static func wrapped(_ text: String, width: Int, indent: String) -> [String] {
    var lines: [String] = []
    var line = indent
    for word in text.split(separator: " ") {
      if line.count > indent.count, line.count + 1 + word.count > width {
        lines.append(line)
        line = indent + (indent.isEmpty ? "  " : "")
      }
      line += (line.count > indent.count && !line.hasSuffix(" ") ? " " : "") + word
    }
    lines.append(line)
    return lines
  }

  /// The words that start a command, read from the command table (and the older `server-limits`); a device may not
  /// be named after one.
  package static let keywords: [String] = {
    var words: [String] = []
    for entry in commands {
      guard let first = entry.syntax.split(separator: " ").first.map(String.init), first != "NAME",
        !words.contains(first)
      else { continue }
      words.append(first)
    }
    return words + ["server-limits"]
  }()

  /// The words that follow a device's name, read from the command table's `NAME verb | verb …` rows.
  static let deviceVerbs: [String] = {
    var verbs: [String] = []
    for entry in commands where entry.syntax.hasPrefix("NAME ") {
      for alternative in entry.syntax.dropFirst("NAME ".count).components(separatedBy: " | ") {
        guard let verb = alternative.split(separator: " ").first.map(String.init), !verbs.contains(verb) else {
          continue
        }
        verbs.append(verb)
      }
    }
    return verbs
  }()

  /// The most records one `TYPE/{a..b}` may name.
  static let maximumRange = 100_000

  /// The server errors `fault error` can inject, by name.
  static let errorNames = SimulationFault.injectableErrors.map(\.name)

  /// Parses one line.
  /// - Parameters:
  ///   - line: A line of a script, a replay script or REPL input.
  ///   - resolvers: The names of your own resolvers a `resolver` line may name; the built-ins are always known.
  ///   - clients: The names of your own sync clients a `client` line may name; the built-ins are always known.
  /// - Returns: The command, or `nil` for a blank or comment-only line.
  /// - Throws: ``ScriptError`` naming the offending token (``ScriptError/token``), with a suggestion for a misspelt
  ///   word.
  package static func parse(
    _ line: String, resolvers: [String] = [], clients: [String] = []
  ) throws(ScriptError) -> ScriptCommand? {
    var words = Words(try ScriptToken.split(line))
    do {
      return try command(&words, resolvers: resolvers, clients: clients)
    } catch {
      var error = error
      if error.token == nil { error.token = words.previous.isEmpty ? nil : words.previous }
      throw error
    }
  }

  private static func command(
    _ words: inout Words, resolvers: [String], clients: [String]
  ) throws(ScriptError) -> ScriptCommand? {
    guard let first = words.next() else { return nil }
    let command: ScriptCommand
    switch first {
    case "device": command = try device(&words)
    case "sync":
      try words.expect("all", after: "sync")
      command = .syncAll
    case "resolver": command = .resolver(try resolver(&words, known: resolvers))
    case "delete-policy": command = .deletePolicy(try deletePolicy(try words.required("a delete policy")))
    case "schema": command = .schema(try schema(&words))
    case "schemas":
      let name = try words.required("none, minor or major")
      guard let scenario = SchemaScenario(rawValue: name) else {
        throw .unknown("schemas", name, choices: SchemaScenario.allCases.map(\.rawValue))
      }
      command = .schemas(scenario)
    case "client":
      let name = try words.required("a client name")
      let known = ClientUnderTest.builtIns.map(\.name) + clients
      guard known.contains(name) else {
        throw .unknown("client", name, choices: known).adding(Self.registerYourOwn)
      }
      command = .client(name)
    case "invariants":
      var named = Set<Invariant>()
      while let word = words.next() {
        // Scripts saved before the halted-device invariant covered reads name it by its old name.
        let name = word == "haltedDeviceWritesNothing" ? Invariant.haltedDeviceSendsNothing.rawValue : word
        guard let invariant = Invariant(rawValue: name) else {
          throw .unknown("invariant", word, choices: Invariant.allCases.map(\.rawValue))
        }
        named.insert(invariant)
      }
      command = .invariants(named)
    case "zone-deletion":
      let name = try words.required("drop or reupload")
      guard let response = ZoneLossPolicy(rawValue: name) else {
        throw .unknown("zone-deletion response", name, choices: ZoneLossPolicy.allCases.map(\.rawValue))
      }
      command = .zoneDeletion(response)
    case "account-change":
      let name = try words.required("delete, keep or ask")
      guard let response = AccountChangePolicy(rawValue: name) else {
        throw .unknown("account-change response", name, choices: AccountChangePolicy.allCases.map(\.rawValue))
      }
      command = .accountChange(response)
    case "send-after-edits": command = .sendAfterEdits
    case "steps-may-skip": command = .stepsMaySkip
    case "defect":
      let name = try words.required("a defect")
      guard let defect = ClientDefect(rawValue: name) else {
        throw .unknown("defect", name, choices: ClientDefect.allCases.map(\.rawValue))
      }
      command = .defect(defect)
    case "limit", "server-limits": command = .limits(try limits(&words))
    case "quiesce": command = .quiesce
    case "fault": command = try fault(&words).map { .fault($0) } ?? .clearFaults
    case "advance":
      let seconds = try duration(try words.required("a duration"))
      guard seconds >= 0 else { throw ScriptError("advance \(words.previous): time only moves forward") }
      command = .advance(seconds)
    case "show": command = try show(&words)
    case "expect": command = .expect(try expectation(&words))
    case "help": command = .help
    case "reset": command = .reset
    case "wait":
      let name = words.next()
      if let name { try checkDeviceName(name) }
      command = .wait(device: name)
    default: command = try deviceCommand(device: first, &words)
    }
    try words.finish()
    return command
  }

  // MARK: Commands

  private static func device(_ words: inout Words) throws(ScriptError) -> ScriptCommand {
    let verb = try words.required("add")
    guard verb == "add" else { throw .unknown("device command", verb, choices: ["add"]) }
    let name = try words.required("a device name")
    try checkDeviceName(name)
    var setup = DeviceSetup(name: name)
    while let option = words.next() {
      switch option {
      case "--clock-offset": setup.clockOffset = try duration(try words.required("an offset such as -5m"))
      case "--upgraded": setup.upgraded = true
      case "--schema": setup.schema = try version(try words.required("an app version such as 1.0"))
      case "--user":
        setup.user = try words.required("a user record name")
        try checkName(setup.user, what: "user")
      default: throw .unknown("option", option, choices: ["--clock-offset", "--upgraded", "--schema", "--user"])
      }
    }
    return .addDevice(setup)
  }

  package static func checkDeviceName(_ name: String) throws(ScriptError) {
    guard !keywords.contains(name), name != "server", name != "all" else {
      throw ScriptError("'\(name)' is a command word; name the device something else")
    }
    try checkName(name, what: "device name")
  }

  /// A device or user name: 1 to 64 bytes of letters, digits, `-`, `_` and `.`, not starting with `-`.
  package static func checkName(_ name: String, what: String) throws(ScriptError) {
    guard !name.isEmpty, !name.hasPrefix("-"), name.utf8.count <= 64,
      name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) })
    else { throw ScriptError("\(what) '\(name)': use letters, digits, '-', '_' or '.', at most 64 bytes") }
  }

  private static func deviceCommand(device: String, _ words: inout Words) throws(ScriptError) -> ScriptCommand {
    guard let verb = words.next() else {
      var message = "unknown command '\(device)'"
      if let guess = Suggestion.closest(to: device, in: keywords) { message += "; did you mean '\(guess)'?" }
      throw ScriptError(message + " (a device command is NAME VERB, such as `phone sync`)")
    }
    switch verb {
    case "create", "edit":
      let records = try paths(try words.required("a record such as Note/1"))
      var fields: [FieldAssignment] = []
      while let word = words.next() { fields.append(try assignment(word)) }
      if verb == "edit" && fields.isEmpty { throw ScriptError("edit needs at least one key=value") }
      return verb == "create"
        ? .create(device: device, records: records, fields: fields)
        : .edit(device: device, records: records, fields: fields)
    case "delete": return .delete(device: device, records: try paths(try words.required("a record such as Note/1")))
    case "sync": return .sync(device: device)
    case "online": return .setOnline(device: device, true)
    case "offline": return .setOnline(device: device, false)
    case "crash": return .crash(device: device)
    case "quit": return .running(device: device, false)
    case "launch": return .running(device: device, true)
    case "restart": return .restart(device: device)
    case "reset-sync": return .resetSync(device: device)
    case "sign-in": return .account(device: device, user: try words.required("a user record name such as _other"))
    case "sign-out": return .account(device: device, user: nil)
    case "answer-account":
      let answer = try words.required("keep or delete")
      guard answer == "keep" || answer == "delete" else {
        throw .unknown("answer", answer, choices: ["keep", "delete"])
      }
      return .answerAccount(device: device, keepingData: answer == "keep")
    case "upgrade":
      return .upgrade(device: device, try words.next().map { (word) throws(ScriptError) in try version(word) })
    case "clock": return .jumpClock(device: device, by: try duration(try words.required("a jump such as +90s or -5m")))
    default:
      if let guess = Suggestion.closest(to: device, in: keywords), Suggestion.closest(to: verb, in: deviceVerbs) == nil
      {
        throw ScriptError("unknown command '\(device)'; did you mean '\(guess)'?")
      }
      throw .unknown("device command", verb, choices: deviceVerbs)
    }
  }

  /// Where a name the script uses that is not a built-in's comes from.
  static let registerYourOwn =
    " (a script naming your own clients or resolvers replays with your own command line, "
    + "`PlaygroundCommand.main(clients:resolvers:)`, or `Simulation.replay(_:resolvers:clients:)`)"

  private static func resolver(_ words: inout Words, known: [String]) throws(ScriptError) -> ResolverSetting {
    let name = try words.required("a resolver name")
    let names = ResolverChoice.allCases.map(\.rawValue) + known
    guard names.contains(name) else { throw .unknown("resolver", name, choices: names).adding(Self.registerYourOwn) }
    var setting = ResolverSetting(name: name)
    while let option = words.next() {
      guard setting.choice == .fieldMerge else { throw ScriptError("\(option): \(name) takes no options") }
      switch option {
      case "--prefer":
        let policy = try words.required("server, client, local-clock or edit-count")
        guard let prefer = ResolverSetting.SameFieldPolicy(rawValue: policy) else {
          throw .unknown("policy", policy, choices: ResolverSetting.SameFieldPolicy.allCases.map(\.rawValue))
        }
        setting.prefer = prefer
      case "--union":
        setting.unionKeys = try words.required("keys such as tags,labels").split(separator: ",").map(String.init)
      case "--text-granularity": setting.textGranularity = try choice("text granularity", &words)
      case "--text-overlap": setting.textOverlap = try choice("text overlap", &words)
      default:
        guard option.hasPrefix("--"), let merge = ResolverSetting.KeyMerge(rawValue: String(option.dropFirst(2))) else {
          throw .unknown(
            "option", option,
            choices: ["--prefer", "--union", "--text-granularity", "--text-overlap"]
              + ResolverSetting.KeyMerge.allCases.map { "--\($0.rawValue)" })
        }
        for key in try words.required("keys such as body,notes").split(separator: ",") {
          setting.merges[String(key)] = merge
        }
      }
    }
    return setting
  }

  /// The next word as one of `Choice`'s cases, named by their raw values.
  private static func choice<Choice: RawRepresentable & CaseIterable>(_ what: String, _ words: inout Words)
    throws(ScriptError) -> Choice where Choice.RawValue == String
  {
    let names = Choice.allCases.map(\.rawValue)
    let word = try words.required(names.joined(separator: ", "))
    guard let chosen = Choice(rawValue: word) else { throw .unknown(what, word, choices: names) }
    return chosen
  }

  package static func deletePolicy(_ name: String) throws(ScriptError) -> DeletePolicy {
    switch name {
    case "deleteWins", "delete-wins": return .deleteWins
    case "editWins", "edit-wins": return .editWins
    default: throw .unknown("delete policy", name, choices: ["deleteWins", "editWins"])
    }
  }

  private static func schema(_ words: inout Words) throws(ScriptError) -> SchemaDeclaration {
    let version = try version(try words.required("an app version such as 1.0"))
    let recordType = try words.required("a record type")
    var fields: [RecordSchema.Field] = []
    var unknownKeys = Schema.UnknownKeyPolicy.halt
    var futureVersions = Schema.FutureVersionPolicy.halt
    while let word = words.next() {
      switch word {
      case "--unknown-keys":
        let policy = try words.required("halt or preserve")
        switch policy {
        case "halt": unknownKeys = .halt
        case "preserve": unknownKeys = .preserve
        default: throw .unknown("unknown-keys policy", policy, choices: ["halt", "preserve"])
        }
      case "--future-versions":
        let policy = try words.required("halt or allow-minor")
        switch policy {
        case "halt": futureVersions = .halt
        case "allow-minor": futureVersions = .allowNewerMinor
        default: throw .unknown("future-versions policy", policy, choices: ["halt", "allow-minor"])
        }
      default: fields.append(try field(word))
      }
    }
    return SchemaDeclaration(
      version: version, recordSchema: RecordSchema(recordType: recordType, version: version, fields: fields),
      unknownKeys: unknownKeys, futureVersions: futureVersions)
  }

  /// `key:type`, `key:type:required`, `key:type:encrypted`.
  private static func field(_ word: String) throws(ScriptError) -> RecordSchema.Field {
    let parts = word.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard parts.count >= 2, !parts[0].isEmpty else {
      throw ScriptError("\(word): a field is key:type, such as title:string or tags:[string]")
    }
    let type = try fieldType(parts[1], in: word)
    var required = false
    var encrypted = false
    for flag in parts.dropFirst(2) {
      switch flag {
      case "required": required = true
      case "encrypted": encrypted = true
      default: throw .unknown("field flag", flag, choices: ["required", "encrypted"])
      }
    }
    return RecordSchema.Field(parts[0], type, encrypted: encrypted, required: required)
  }

  static let typeNames = ["string", "int64", "double", "timestamp", "bytes", "reference", "asset", "location"]

  private static func fieldType(_ name: String, in word: String) throws(ScriptError) -> FieldType {
    if name.hasPrefix("["), name.hasSuffix("]") {
      return .list(try fieldType(String(name.dropFirst().dropLast()), in: word))
    }
    let canonical = ["int": "int64", "date": "timestamp", "bool": "int64"][name] ?? name
    guard typeNames.contains(canonical), let type = FieldType(wireName: canonical.uppercased()) else {
      throw .unknown("field type", name, choices: typeNames)
    }
    return type
  }

  /// Fault kinds aimed at a device: `fault KIND NAME …`.
  static let deviceFaultKinds = [
    "disconnect-after-save", "lose-response", "lose-request", "duplicate", "delay", "transient", "item-transient",
    "corrupt", "torn-crash",
  ]

  /// Fault kinds aimed at the server.
  static let serverFaultKinds = [
    "throttle", "error", "expire-tokens", "expire-database-tokens", "quota-full", "delete-zone", "purge-zone",
    "reset-encrypted-data", "clear",
  ]

  /// A `fault` line's faults, in order (`lose-response NAME N` is N of them); `nil` for `fault clear`.
  private static func fault(_ words: inout Words) throws(ScriptError) -> [SimulationFault]? {
    let first = try words.required("a fault")
    switch first {
    case "throttle": return [.throttle(seconds: try faultSeconds(try words.required("a duration such as 30s")))]
    case "expire-tokens": return [.expireTokens]
    case "expire-database-tokens": return [.expireDatabaseTokens]
    case "quota-full": return [.quotaFull(seconds: try faultSeconds(try words.required("a duration such as 30s")))]
    case "delete-zone": return [.deleteZone]
    case "purge-zone": return [.purgeZone]
    case "reset-encrypted-data": return [.resetEncryptedData]
    case "clear": return nil
    case "error":
      let name = try words.required("an error name")
      var count = 1
      var device: String?
      var retryAfter = defaultRetryAfter
      while let word = words.next() {
        switch word {
        case "--device": device = try words.required("a device name")
        case "--retry-after": retryAfter = try nonNegativeDuration(try words.required("a duration"))
        default: count = try integer(word, in: 1...1_000_000)
        }
      }
      return [.serverError(code: try serverError(name), count: count, device: device, retryAfter: retryAfter)]
    case _ where deviceFaultKinds.contains(first):
      return try deviceFault(first, device: try words.required("a device name"), &words)
    default:
      // The older order, still read: `fault NAME lose-response [N]`, `fault NAME corrupt TYPE/NAME` ….
      guard let kind = words.next() else {
        throw .unknown("fault", first, choices: deviceFaultKinds + serverFaultKinds)
      }
      return try deviceFault(kind, device: first, &words)
    }
  }

  private static func deviceFault(
    _ kind: String, device: String, _ words: inout Words
  ) throws(ScriptError) -> [SimulationFault] {
    switch kind {
    case "disconnect-after-save": return [.disconnectAfterSave(device: device)]
    case "lose-request": return [.loseRequest(device: device)]
    case "duplicate": return [.duplicate(device: device)]
    case "torn-crash":
      guard words.hasMore else { return [.tornCrash(device: device)] }
      try words.expect("after", after: "torn-crash \(device)")
      let count = try words.required("a number of persistence writes")
      guard let after = Int(count), after >= 1 else {
        throw ScriptError("a torn crash strikes after 1 or more persistence writes, not '\(count)'", token: count)
      }
      return [.tornCrash(device: device, afterWrites: after)]
    case "delay":
      return [.delay(device: device, seconds: try faultSeconds(try words.required("a delay such as 20s")))]
    case "transient", "item-transient":
      let error = try words.required("a transient error")
      guard SimulationFault.transientErrorNames.contains(error) else {
        throw .unknown("transient error", error, choices: SimulationFault.transientErrorNames)
      }
      let wait = try faultSeconds(try words.required("a retry-after such as 5s"))
      return kind == "transient"
        ? [.transient(device: device, error: error, retryAfter: wait)]
        : [.itemTransient(device: device, error: error, retryAfter: wait)]
    case "corrupt":
      let word = try words.required("a record such as Note/1")
      // Older replay scripts named the record without its type, which was always Note.
      let paths = try paths(word.contains("/") ? word : "\(Simulation.recordType)/\(word)")
      guard paths.count == 1, let path = paths.first else {
        throw ScriptError("fault corrupt \(device): name one record, not \(word)")
      }
      guard path.recordType == Simulation.recordType else {
        throw ScriptError(
          "fault corrupt \(device): the simulated devices store \(Simulation.recordType) records, not \(path.recordType)",
          token: word)
      }
      return [.corruptStorage(device: device, record: path.recordName)]
    case "lose-response":
      let count = try words.next().map { (word) throws(ScriptError) in try integer(word, in: 1...1_000_000) } ?? 1
      return Array(repeating: .loseResponse(device: device), count: count)
    default: throw .unknown("device fault", kind, choices: deviceFaultKinds)
    }
  }

  private static func limits(_ words: inout Words) throws(ScriptError) -> [ServerLimit: Int] {
    var limits: [ServerLimit: Int] = [:]
    repeat {
      let name = try words.required("a limit")
      guard let limit = ServerLimit(rawValue: name) else {
        throw .unknown("limit", name, choices: ServerLimit.allCases.map(\.rawValue))
      }
      limits[limit] = try integer(try words.required("a number"), in: 1...10_000_000)
    } while words.hasMore
    return limits
  }

  /// The wait `fault error` asks for when the line gives none.
  package static let defaultRetryAfter: TimeInterval = 10

  /// The injectable CloudKit error named `name`.
  package static func serverError(_ name: String) throws(ScriptError) -> CloudKitError.Code {
    guard let code = SimulationFault.injectableError(named: name) else {
      throw .unknown("server error", name, choices: errorNames)
    }
    return code
  }

  private static func show(_ words: inout Words) throws(ScriptError) -> ScriptCommand {
    var json = false
    var target: ShowTarget?
    while let word = words.next() {
      if word == "--json" {
        json = true
        continue
      }
      guard target == nil else { throw ScriptError("unexpected '\(word)' after show \(words.previous)") }
      switch word {
      case "server": target = .server
      case "diff": target = .diff
      case "diagnostics": target = .diagnostics
      case "log": target = .log
      case _ where word.hasPrefix("-"): throw .unknown("option", word, choices: ["--json"])
      default: target = .device(word)
      }
    }
    guard let target else { throw ScriptError("show what? server, a device name, diff, diagnostics or log") }
    return .show(target, json: json)
  }

  private static func expectation(_ words: inout Words) throws(ScriptError) -> Expectation {
    let first = try words.required("what to expect")
    switch first {
    case "converged": return .converged
    case "invariants": return .invariants
    case "halted": return .halted(try words.required("a device name"))
    default: break
    }
    let place: Place = first == "server" ? .server : .device(first)
    let subject = try words.required("a record such as Note/1, or a count such as records")
    if subject == "status", case .device(let name) = place {
      try words.expect("=", after: "status")
      let word = try words.required("a status")
      guard let status = DeviceStatus(rawValue: word) else {
        throw .unknown("status", word, choices: DeviceStatus.allCases.map(\.rawValue))
      }
      return .status(name, status)
    }
    guard subject.contains("/") else {
      let metric = subject
      let known = ["records", "queued", "requests", "errors", "waited"]
      guard known.contains(metric) || metric.hasPrefix("errors:") else {
        throw .unknown("count", metric, choices: known)
      }
      let comparison = try self.comparison(try words.required("=, !=, <, <=, > or >="))
      let text = try words.required("a number")
      guard let number = Double(text), number.isFinite else { throw ScriptError("\(text): expected a number") }
      return .metric(place, metric, comparison, number)
    }
    let records = try paths(subject)
    guard records.count == 1, let record = records.first else { throw ScriptError("\(subject): expect one record") }
    let word = try words.required("a key, exists or absent")
    switch word {
    case "exists": return .exists(place, record, true)
    case "absent": return .exists(place, record, false)
    default:
      let comparison = try self.comparison(try words.required("= or !="))
      guard comparison == .equal || comparison == .notEqual else {
        throw ScriptError("\(comparison.rawValue): compare field values with = or !=")
      }
      let value = try ValueSyntax.parse(try words.required("a value"))
      return .field(place, record, key: word, comparison, value)
    }
  }

  private static func comparison(_ word: String) throws(ScriptError) -> Expectation.Comparison {
    guard let comparison = Expectation.Comparison(rawValue: word) else {
      throw .unknown("comparison", word, choices: Expectation.Comparison.allCases.map(\.rawValue))
    }
    return comparison
  }

  // MARK: Pieces

  /// `Note/1`, or `Note/{1..1000}` for many.
  package static func paths(_ word: String) throws(ScriptError) -> [RecordPath] {
    guard let slash = word.firstIndex(of: "/"), slash != word.startIndex else {
      throw ScriptError("\(word): name a record as TYPE/NAME, such as Note/1")
    }
    let type = String(word[..<slash])
    let name = String(word[word.index(after: slash)...])
    guard !name.isEmpty else { throw ScriptError("\(word): the record name is missing") }
    guard type.first?.isLetter == true, type.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
      throw ScriptError("\(word): a record type is letters, digits and '_', starting with a letter")
    }
    if name.hasPrefix("{"), name.hasSuffix("}") {
      let bounds = name.dropFirst().dropLast().components(separatedBy: "..")
      guard bounds.count == 2, let low = Int(bounds[0]), let high = Int(bounds[1]), low >= 0, low <= high else {
        throw ScriptError("\(word): a range is {FIRST..LAST}, such as {1..1000}")
      }
      guard high - low < maximumRange else { throw ScriptError("\(word): at most \(maximumRange) records at once") }
      return (low...high).map { RecordPath(recordType: type, recordName: String($0)) }
    }
    do {
      // Playground records are the user's own, so they follow the rule for names a client chooses.
      try RecordID(recordName: name, zoneID: Simulation.zoneID).checkNameForNewRecord()
    } catch {
      throw ScriptError("\(word): \(error)")
    }
    return [RecordPath(recordType: type, recordName: name)]
  }

  /// `key=value`, `encrypted:key=value`, or `-key` (removes the key, as replay scripts write it).
  package static func assignment(_ word: String) throws(ScriptError) -> FieldAssignment {
    if word.hasPrefix("-"), word.count > 1, !word.contains("=") {
      let key = String(word.dropFirst())
      try checkKey(key, in: word)
      return FieldAssignment(key: key, value: nil)
    }
    guard let equals = word.firstIndex(of: "=") else {
      throw ScriptError("\(word): expected key=value, such as title=\"Groceries\"")
    }
    var key = String(word[..<equals])
    var change = FieldAssignment.Change.set
    if key.hasSuffix("+") || key.hasSuffix("-") {
      change = key.hasSuffix("+") ? .add : .remove
      key.removeLast()
    }
    var encrypted = false
    if key.hasPrefix("encrypted:") {
      encrypted = true
      key.removeFirst("encrypted:".count)
    }
    guard !key.isEmpty else { throw ScriptError("\(word): the key is missing") }
    try checkKey(key, in: word)
    let value: FieldValue?
    do {
      value = try ValueSyntax.parse(String(word[word.index(after: equals)...]))
    } catch {
      throw ScriptError("\(key): \(error.message)")
    }
    guard change == .set || value != nil else { throw ScriptError("\(word): add or remove a value, not nil") }
    return FieldAssignment(key: key, value: value, encrypted: encrypted, change: change)
  }

  /// CloudKit's key rule, checked as the line is read: a key such as `title--` would otherwise read as `title-` with
  /// `-=`, and the line written back would not be the line read.
  private static func checkKey(_ key: String, in word: String) throws(ScriptError) {
    do {
      try NameRules.checkIdentifier(key, kind: .key)
    } catch {
      throw ScriptError("\(word): '\(key)' is not a key: \(error)", token: word)
    }
  }

  package static func version(_ text: String) throws(ScriptError) -> SchemaVersion {
    // Scripts may write 1.0 or 2; a version always has three parts.
    let parts = text.split(separator: ".", omittingEmptySubsequences: false).count
    let padded = parts >= 3 ? text : text + String(repeating: ".0", count: 3 - parts)
    do {
      return try SchemaVersion(padded)
    } catch {
      throw ScriptError("\(text): not an app version such as 1.0 or 2.1.0")
    }
  }

  /// A duration (``DurationSyntax``: `30s`, `-2m`, `250ms`), or a bare number of seconds, which older replay scripts
  /// wrote.
  package static func duration(_ text: String) throws(ScriptError) -> TimeInterval {
    if let seconds = Int(text), abs(TimeInterval(seconds)) <= DurationSyntax.longest { return TimeInterval(seconds) }
    return try DurationSyntax.parse(text)
  }

  private static func nonNegativeDuration(_ text: String) throws(ScriptError) -> TimeInterval {
    let seconds = try duration(text)
    guard seconds >= 0 else { throw ScriptError("\(text): expected a duration of zero or more, such as 30s") }
    return seconds
  }

  /// A fault's duration: the simulated network and server count whole seconds.
  private static func faultSeconds(_ text: String) throws(ScriptError) -> Int {
    guard let seconds = DurationSyntax.wholeSeconds(try nonNegativeDuration(text)) else {
      throw ScriptError("\(text): the simulator counts this fault's time in whole seconds", token: text)
    }
    return seconds
  }

  private static func integer(_ text: String, in range: ClosedRange<Int>) throws(ScriptError) -> Int {
    guard let number = Int(text), range.contains(number) else {
      throw ScriptError("\(text): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }
}
