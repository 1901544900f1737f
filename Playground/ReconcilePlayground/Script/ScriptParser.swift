import Foundation
import Reconcile
public import ReconcileSimulator

/// Reads one line of the playground's command language into a ``ScriptCommand``. Pure: it knows nothing of the
/// session, so the same line always parses the same way (and the parser can be fuzzed on its own).
public enum ScriptParser {
  /// Every command with a one-line description, in the order `help` prints them.
  public static let commands: [(syntax: String, summary: String)] = [
    ("device add NAME [--clock-offset 5m] [--schema 1.0] [--user U]", "add a device (clock skew, app schema, user)"),
    ("NAME create TYPE/NAME key=value…", "create a record on a device (TYPE/{1..100} makes many)"),
    ("NAME edit TYPE/NAME key=value…", "change fields on a device (key=nil removes; encrypted:key=… encrypts)"),
    ("NAME delete TYPE/NAME", "delete a record on a device"),
    ("NAME sync", "sync one device with the server until it is idle, halted or gives up"),
    ("sync all", "sync every device, round after round, until nothing changes"),
    ("NAME offline | online | crash | restart", "take a device off the network, back, crash it, clear a halt"),
    ("NAME upgrade VERSION", "install another app version's schema on a device"),
    ("NAME clock +90s", "move a device's clock: +90s jumps ahead, -5m back (as replay scripts write it)"),
    (
      "resolver NAME [--prefer P] [--union k1,k2]",
      "choose the resolver: " + ResolverChoice.allCases.map(\.rawValue).joined(separator: ", ")
    ),
    ("delete-policy deleteWins | editWins", "who wins between a delete and an edit"),
    ("schema VERSION TYPE key:type…", "declare what an app version knows about a record type"),
    ("fault disconnect-after-save NAME | lose-response NAME [N]", "lose the network after a save, or lose answers"),
    ("fault corrupt NAME TYPE/NAME", "damage the device's stored copy of a record"),
    (
      "fault throttle 30s | error CODE [N] | expire-tokens | clear",
      "throttle, inject server errors, expire change tokens"
    ),
    ("limit batch-items | batch-bytes | page-size N", "change the server's limits"),
    ("advance 30s", "move virtual time forward"),
    (
      "show server | NAME | diff | diagnostics | log [--json]",
      "print records, differences, diagnostics, the request log"
    ),
    ("expect PLACE TYPE/NAME key = value", "assert a field on the server or a device (also !=, exists, absent)"),
    ("expect converged | halted NAME | NAME status = S", "assert convergence, a halt, a device status"),
    ("expect PLACE records|queued|requests|errors[:CODE]|waited OP N", "assert a count (=, !=, <, <=, >, >=)"),
    ("help", "list the commands"),
  ]

  /// The words that start a command; a device may not be named after one.
  public static let keywords: [String] = [
    "device", "sync", "resolver", "delete-policy", "schema", "fault", "limit", "advance", "show", "expect", "help",
  ]

  /// The words that follow a device's name.
  static let deviceVerbs = [
    "create", "edit", "delete", "sync", "online", "offline", "crash", "restart", "upgrade", "clock",
  ]

  /// The most records one `TYPE/{a..b}` may name.
  static let maximumRange = 100_000

  /// The server errors `fault error` can inject, by name.
  static let errorNames = [
    "serviceUnavailable", "requestRateLimited", "zoneBusy", "networkFailure", "networkUnavailable", "internalError",
    "serverResponseLost", "notAuthenticated", "quotaExceeded", "badDatabase", "accountTemporarilyUnavailable",
  ]

  /// Parses one line.
  /// - Parameter line: A line of a script or of REPL input.
  /// - Returns: The command, or `nil` for a blank or comment-only line.
  /// - Throws: ``ScriptError`` naming the offending token, with a suggestion for a misspelt word.
  public static func parse(_ line: String) throws(ScriptError) -> ScriptCommand? {
    var words = Words(try ScriptToken.split(line))
    guard let first = words.next() else { return nil }
    let command: ScriptCommand
    switch first {
    case "device": command = try device(&words)
    case "sync":
      try words.expect("all", after: "sync")
      command = .syncAll
    case "resolver": command = .resolver(try resolver(&words))
    case "delete-policy": command = .deletePolicy(try deletePolicy(try words.required("a delete policy")))
    case "schema": command = .schema(try schema(&words))
    case "fault": command = .fault(try fault(&words))
    case "limit":
      let name = try words.required("a limit")
      guard let limit = ServerLimit(rawValue: name) else {
        throw .unknown("limit", name, choices: ServerLimit.allCases.map(\.rawValue))
      }
      command = .limit(limit, try integer(try words.required("a number"), in: 1...10_000_000))
    case "advance":
      let seconds = try DurationSyntax.parse(try words.required("a duration"))
      guard seconds >= 0 else { throw ScriptError("advance \(seconds): time only moves forward") }
      command = .advance(seconds)
    case "show": command = try show(&words)
    case "expect": command = .expect(try expectation(&words))
    case "help": command = .help
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
    var setup = DeviceSetup(name: name, clockOffset: 0, schema: nil, user: "_user")
    while let option = words.next() {
      switch option {
      case "--clock-offset": setup.clockOffset = try DurationSyntax.parse(try words.required("an offset such as -5m"))
      case "--schema": setup.schema = try version(try words.required("an app version such as 1.0"))
      case "--user":
        setup.user = try words.required("a user record name")
        try checkName(setup.user, what: "user")
      default: throw .unknown("option", option, choices: ["--clock-offset", "--schema", "--user"])
      }
    }
    return .addDevice(setup)
  }

  static func checkDeviceName(_ name: String) throws(ScriptError) {
    guard !keywords.contains(name), name != "server", name != "all" else {
      throw ScriptError("'\(name)' is a command word; name the device something else")
    }
    try checkName(name, what: "device name")
  }

  /// A device or user name: 1 to 64 bytes of letters, digits, `-`, `_` and `.`, not starting with `-`.
  static func checkName(_ name: String, what: String) throws(ScriptError) {
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
    case "restart": return .restart(device: device)
    case "upgrade": return .upgrade(device: device, try version(try words.required("an app version such as 2.0")))
    case "clock":
      return .jumpClock(device: device, by: try DurationSyntax.parse(try words.required("a jump such as +90s or -5m")))
    default:
      if let guess = Suggestion.closest(to: device, in: keywords), Suggestion.closest(to: verb, in: deviceVerbs) == nil
      {
        throw ScriptError("unknown command '\(device)'; did you mean '\(guess)'?")
      }
      throw .unknown("device command", verb, choices: deviceVerbs)
    }
  }

  private static func resolver(_ words: inout Words) throws(ScriptError) -> ResolverSetting {
    let name = try words.required("a resolver name")
    guard let choice = ResolverChoice(rawValue: name) else {
      throw .unknown("resolver", name, choices: ResolverChoice.allCases.map(\.rawValue))
    }
    var setting = ResolverSetting(choice: choice, prefer: .server, unionKeys: [])
    while let option = words.next() {
      guard choice == .fieldMerge else { throw ScriptError("\(option): \(name) takes no options") }
      switch option {
      case "--prefer":
        let policy = try words.required("server, client, local-clock or edit-count")
        guard let prefer = ResolverSetting.SameFieldPolicy(rawValue: policy) else {
          throw .unknown("policy", policy, choices: ResolverSetting.SameFieldPolicy.allCases.map(\.rawValue))
        }
        setting.prefer = prefer
      case "--union":
        setting.unionKeys = try words.required("keys such as tags,labels").split(separator: ",").map(String.init)
      default: throw .unknown("option", option, choices: ["--prefer", "--union"])
      }
    }
    return setting
  }

  static func deletePolicy(_ name: String) throws(ScriptError) -> DeletePolicy {
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

  private static func fault(_ words: inout Words) throws(ScriptError) -> Fault {
    let first = try words.required("a fault")
    switch first {
    case "throttle": return .throttle(try DurationSyntax.parse(try words.required("a duration such as 30s")))
    case "expire-tokens": return .expireTokens
    case "clear": return .clear
    case "error":
      let name = try words.required("an error name")
      var count = 1
      var device: String?
      var retryAfter: TimeInterval = 10
      while let word = words.next() {
        switch word {
        case "--device": device = try words.required("a device name")
        case "--retry-after": retryAfter = try DurationSyntax.parse(try words.required("a duration"))
        default: count = try integer(word, in: 1...1_000_000)
        }
      }
      return .error(try serverError(name, retryAfter: retryAfter), count: count, device: device)
    case "disconnect-after-save", "lose-response", "corrupt":
      // The kind first, as replay scripts write faults: `fault lose-response NAME [N]`.
      return try deviceFault(first, device: try words.required("a device name"), &words)
    default:
      // The older order, still read: `fault NAME disconnect-after-save | lose-response [N] | corrupt TYPE/NAME`.
      guard let kind = words.next() else {
        throw .unknown(
          "fault", first,
          choices: ["throttle", "error", "expire-tokens", "clear", "disconnect-after-save", "lose-response", "corrupt"])
      }
      return try deviceFault(kind, device: first, &words)
    }
  }

  private static func deviceFault(_ kind: String, device: String, _ words: inout Words) throws(ScriptError) -> Fault {
    switch kind {
    case "disconnect-after-save": return .disconnectAfterSave(device: device)
    case "corrupt":
      let word = try words.required("a record such as Note/1")
      let paths = try paths(word)
      guard paths.count == 1, let path = paths.first else {
        throw ScriptError("fault corrupt \(device): name one record, not \(word)")
      }
      return .corruptStorage(device: device, record: path)
    case "lose-response":
      let count = try words.next().map { (word) throws(ScriptError) in try integer(word, in: 1...1_000_000) } ?? 1
      return .loseResponses(device: device, count: count)
    default: throw .unknown("device fault", kind, choices: ["disconnect-after-save", "lose-response", "corrupt"])
    }
  }

  static func serverError(_ name: String, retryAfter: TimeInterval) throws(ScriptError) -> ServerError {
    switch name {
    case "serviceUnavailable": return .serviceUnavailable(retryAfter: retryAfter)
    case "requestRateLimited": return .requestRateLimited(retryAfter: retryAfter)
    case "zoneBusy": return .zoneBusy(retryAfter: retryAfter)
    case "networkFailure": return .networkFailure(retryAfter: nil)
    case "networkUnavailable": return .networkUnavailable
    case "internalError": return .internalError("injected by the playground")
    case "serverResponseLost": return .serverResponseLost
    case "notAuthenticated": return .notAuthenticated
    case "quotaExceeded": return .quotaExceeded
    case "badDatabase": return .badDatabase(reason: "injected by the playground")
    case "accountTemporarilyUnavailable": return .accountTemporarilyUnavailable(retryAfter: retryAfter)
    default: throw .unknown("server error", name, choices: errorNames)
    }
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
  static func paths(_ word: String) throws(ScriptError) -> [RecordPath] {
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

  /// `key=value` or `encrypted:key=value`.
  static func assignment(_ word: String) throws(ScriptError) -> FieldAssignment {
    guard let equals = word.firstIndex(of: "=") else {
      throw ScriptError("\(word): expected key=value, such as title=\"Groceries\"")
    }
    var key = String(word[..<equals])
    var encrypted = false
    if key.hasPrefix("encrypted:") {
      encrypted = true
      key.removeFirst("encrypted:".count)
    }
    guard !key.isEmpty else { throw ScriptError("\(word): the key is missing") }
    let value: FieldValue?
    do {
      value = try ValueSyntax.parse(String(word[word.index(after: equals)...]))
    } catch {
      throw ScriptError("\(key): \(error.message)")
    }
    return FieldAssignment(key: key, value: value, encrypted: encrypted)
  }

  static func version(_ text: String) throws(ScriptError) -> SchemaVersion {
    // Scripts may write 1.0 or 2; a version always has three parts.
    let parts = text.split(separator: ".", omittingEmptySubsequences: false).count
    let padded = parts >= 3 ? text : text + String(repeating: ".0", count: 3 - parts)
    do {
      return try SchemaVersion(padded)
    } catch {
      throw ScriptError("\(text): not an app version such as 1.0 or 2.1.0")
    }
  }

  private static func integer(_ text: String, in range: ClosedRange<Int>) throws(ScriptError) -> Int {
    guard let number = Int(text), range.contains(number) else {
      throw ScriptError("\(text): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }
}

/// A cursor over a line's tokens.
struct Words {
  private var tokens: [ScriptToken]
  private var index = 0

  init(_ tokens: [ScriptToken]) { self.tokens = tokens }

  /// The last word read, for messages.
  var previous: String { index > 0 ? tokens[index - 1].text : "" }

  mutating func next() -> String? {
    guard index < tokens.count else { return nil }
    index += 1
    return tokens[index - 1].text
  }

  /// The next word. Throws: ``ScriptError`` saying what was expected after the last word.
  mutating func required(_ what: String) throws(ScriptError) -> String {
    guard let word = next() else { throw ScriptError("expected \(what) after '\(previous)'") }
    return word
  }

  mutating func expect(_ word: String, after: String) throws(ScriptError) {
    let found = try required("'\(word)'")
    guard found == word else { throw ScriptError("expected '\(word)' after '\(after)', found '\(found)'") }
  }

  /// Throws: ``ScriptError`` naming the first word left over.
  func finish() throws(ScriptError) {
    guard index < tokens.count else { return }
    throw ScriptError("unexpected '\(tokens[index].text)' at column \(tokens[index].column)")
  }
}
