import Foundation
import Reconcile
import ReconcilePlayground
import ReconcileSimulator
import Testing

@Suite("The one world: every line of the language carried out")
struct SessionTests {
  /// Runs `lines` in a fresh world and returns what the last one printed.
  @discardableResult
  static func run(_ lines: [String], resolver: ResolverChoice = .fieldMerge) throws -> String {
    var session = SimulationSession()
    var last = ""
    for line in ["resolver \(resolver.rawValue)"] + lines { last = try session.interpret(line).text }
    return last
  }

  static func failure(_ lines: [String]) -> String {
    do {
      try run(lines)
      return "no error"
    } catch {
      return (error as? ScriptError)?.message ?? "\(error)"
    }
  }

  static let twoDevices = ["device add phone", "device add mac", "phone create Note/1 title=draft", "sync all"]

  @Test("two devices converge after sync all, and expectations about them hold")
  func converge() throws {
    let text = try Self.run(
      Self.twoDevices + [
        "mac edit Note/1 title=b tags=[x, y]", "sync all", "expect converged", "expect server Note/1 title = b",
        "expect phone Note/1 tags = [x, y]", "expect phone records = 1", "expect mac queued = 0",
        "expect phone status = idle", "show server",
      ])
    #expect(text.contains(#"Note/1  t2   tags=["x", "y"] title="b""#), "\(text)")
  }

  @Test("show of a device lists each record's sync state while its sync is not over, and one it no longer shows")
  func showListsSyncStates() throws {
    let settled = try Self.run(Self.twoDevices + ["show phone"])
    #expect(!settled.contains("sync"), "a settled device shows no sync column:\n\(settled)")
    let reset = try Self.run(Self.twoDevices + ["fault reset-encrypted-data", "phone sync", "show phone"])
    #expect(reset.contains("server t1, uploaded again, uploaded after zone loss"), "\(reset)")
    let text = try Self.run(Self.twoDevices + ["phone delete Note/1", "show phone"])
    #expect(text.contains("not shown, sync not over: record 1: server t1, deletion owed (awaits fetch)"), "\(text)")
    let json = try Self.run(
      Self.twoDevices + ["phone delete Note/1", "show phone --json"])
    #expect(json.contains(#""syncStatesOfRecordsNotShown""#), "\(json)")
  }

  @Test("a failed expectation says what was expected and what was found")
  func failedExpectations() {
    #expect(
      Self.failure(Self.twoDevices + ["expect server Note/1 title = b"])
        == #"expectation failed: expected server Note/1 title = "b", but it is "draft""#)
    #expect(
      Self.failure(Self.twoDevices + ["phone edit Note/1 title=x", "expect converged"])
        == "expectation failed: expected converged, but phone has 1 change(s) queued")
    #expect(Self.failure(Self.twoDevices + ["expect halted mac"]).contains("expected mac halted, but it is idle"))
    #expect(Self.failure(Self.twoDevices + ["expect phone requests < 2"]).contains("but it is 5"))
  }

  @Test("an edit of a record the device does not hold is an error naming it; among drawn steps it is skipped")
  func missingRecordIsAnErrorUnlessDrawn() throws {
    #expect(Self.failure(["device add phone", "phone edit Note/9 title=a"]).contains("no record 9"))
    let text = try Self.run(["steps-may-skip", "device add phone", "phone edit Note/9 title=a"])
    #expect(text.contains("skipped: no record 9"), "\(text)")
  }

  @Test("an upgrade to a declared app version that cannot apply is an error, as any step is, and changes nothing")
  func declaredUpgradeThatCannotApply() throws {
    let lines = ["schema 1.1 Note title:string color:string", "device add phone", "phone quit"]
    #expect(Self.failure(lines + ["phone upgrade 1.1"]).contains("the app on phone is not running"))
    var session = SimulationSession()
    for line in lines { _ = try session.interpret(line) }
    _ = try? session.interpret("phone upgrade 1.1")
    // The failed upgrade left no step behind: the world is as the lines before it made it.
    #expect(session.isReplayable)
    _ = try session.interpret("phone launch")
    #expect(try session.interpret("phone upgrade 1.1").text.contains("phone upgrade 1.1"))
  }

  @Test("unknown devices and records are errors with suggestions; the world is unchanged")
  func unknownNames() {
    #expect(Self.failure(["device add phone", "phnoe sync"]) == "unknown device 'phnoe'; did you mean 'phone'?")
    #expect(Self.failure(["phone sync"]).contains("no device 'phone'; add one with `device add phone`"))
    #expect(Self.failure(["device add phone", "device add phone"]).contains("already a device called 'phone'"))
    #expect(
      Self.failure(["device add phone", "phone create Note/1 title=a", "phone edit Folder/1 title=b"])
        .contains("phone holds Note/1, not a Folder"))
    #expect(Self.failure(["device add phone --schema 3.0"]).contains("no schema declared for app version 3.0.0"))
  }

  @Test("an app-1.0 device whose unsent edit meets a record from app 2.0 halts and uploads nothing")
  func schemaHalt() throws {
    let text = try Self.run([
      "schema 1.0 Note title:string", "schema 2.0 Note title:string color:string", "device add old --schema 1.0",
      "device add new --schema 2.0", "old create Note/1 title=a", "old sync", "wait old", "new sync", "wait new",
      "old edit Note/1 title=b", "new edit Note/1 color=red", "new sync", "wait new", "old sync", "wait old",
      "expect halted old", "expect server Note/1 color = red", "expect server Note/1 title = a", "show diagnostics",
    ])
    #expect(text.contains("HALTED: "), "\(text)")
    #expect(text.contains("2.0.0"))
  }

  @Test("faults: a lost answer, a disconnect after a save, injected errors, expired tokens and throttling")
  func faults() throws {
    try Self.run(
      Self.twoDevices + [
        "fault phone lose-response", "phone edit Note/1 title=a", "phone sync", "wait phone",
        "expect server Note/1 title = a",
        "expect phone queued = 0", "mac sync", "wait mac", "fault mac disconnect-after-save", "mac edit Note/1 title=b",
        "mac sync", "wait mac",
        "expect mac status = offline", "expect server Note/1 title = b", "mac online", "sync all", "expect converged",
        "fault error zoneBusy 2 --device phone --retry-after 5s", "phone edit Note/1 title=c", "phone sync",
        "wait phone",
        "expect phone errors:zoneBusy = 2", "expect phone waited >= 10", "fault expire-tokens", "sync all",
        "expect converged", "fault throttle 1m", "mac edit Note/1 title=d", "mac sync", "wait mac",
        "expect mac errors:serviceUnavailable >= 1", "expect server Note/1 title = d", "fault clear",
      ])
  }

  @Test("delete policy and resolver can change between commands and apply to every device")
  func policies() throws {
    try Self.run(
      Self.twoDevices + [
        "delete-policy editWins", "phone delete Note/1", "mac edit Note/1 title=kept", "phone sync", "wait phone",
        "mac sync", "wait mac",
        "sync all", "expect server Note/1 title = kept", "resolver server-lww", "phone edit Note/1 title=p",
        "mac edit Note/1 body=m", "phone sync", "wait phone", "mac sync", "wait mac", "sync all", "expect converged",
        "expect server Note/1 body = nil",
      ])
  }

  @Test("encrypted values are redacted in every listing, JSON included")
  func redaction() throws {
    var session = SimulationSession()
    for line in ["device add phone", "phone create Note/1 title=t encrypted:pin=s3cr3t", "phone sync", "wait phone"] {
      _ = try session.interpret(line).text
    }
    for line in [
      "show server", "show server --json", "show phone", "show phone --json", "show diff", "show log",
      "show diagnostics", "expect server Note/1 pin = s3cr3t", "phone edit Note/1 encrypted:pin=other",
      // A conflict on the encrypted field, resolved and logged.
      "device add mac", "mac sync", "wait mac", "mac edit Note/1 encrypted:pin=s3cr3tB",
      "phone edit Note/1 encrypted:pin=s3cr3tC",
      "mac sync", "wait mac", "phone sync", "wait phone", "sync all", "show log", "show log --json", "show diagnostics",
      "show diff",
    ] {
      let text = try session.interpret(line).text
      #expect(!text.contains("s3cr3t") && !text.contains("other"), "\(line) printed a secret: \(text)")
    }
  }

  @Test("show log --json writes each trace line as fields: steps, server changes, decisions key by key")
  func structuredLog() throws {
    var session = SimulationSession()
    for line in [
      "resolver field-merge --keep-both title", "device add phone", "device add mac",
      "phone create Note/1 title=\"Groceries\"", "sync all", "phone edit Note/1 title=\"Groceries (Sat)\"",
      "mac edit Note/1 title=\"Groceries (Sun)\"", "phone sync", "wait phone", "mac sync", "wait mac",
    ] {
      _ = try session.interpret(line)
    }
    let json = try session.interpret("show log --json").text
    let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    let log = try #require(decoded?["log"] as? [[String: Any]])
    #expect(log.first?["kind"] as? String == "step" && log.first?["step"] as? Int == 1)
    #expect(
      log.contains {
        $0["kind"] as? String == "server" && $0["change"] as? String == "saved"
          && $0["record"] as? String == "Note/1" && $0["tag"] as? String == "t1"
      })
    let merge = try #require(log.first { $0["change"] as? String == "merged" })
    #expect(merge["device"] as? String == "mac" && merge["record"] as? String == "Note/1")
    let keys = try #require(merge["keys"] as? [[String: Any]])
    #expect(keys.count == 1)
    #expect(keys.first?["key"] as? String == "title" && keys.first?["keptAsideIn"] as? String == "titleConflict")
    #expect(keys.first?["lost"] == nil, "a value set aside is not lost")
  }

  @Test("sync all names a device that cannot sync, and why, instead of spinning until its round limit")
  func syncAllNamesADeviceThatCannotSync() throws {
    var session = SimulationSession()
    for line in ["device add a --clock-offset 5m", "device add b", "a offline", "a create Note/1 title=x"] {
      _ = try session.interpret(line)
    }
    let text = try session.interpret("sync all").text
    #expect(
      text.hasSuffix(
        "sync all: 1 round; the rest idle, but a is offline with 2 changes queued (`a online` brings it back)"),
      "\(text)")
    #expect(try session.interpret("device add c --clock-offset 5m").text.hasPrefix("added c (clock 5m ahead)\n"))
  }

  @Test("help wraps at 100 columns, every command's syntax on its own line")
  func helpFitsATerminal() throws {
    var session = SimulationSession()
    let help = try session.interpret("help").text
    #expect(help.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(help)")
    #expect(help.contains("resolver NAME [--prefer P]"))
  }

  @Test("--text-granularity and --text-overlap give the --text keys every text policy")
  func textPolicyOptions() throws {
    var session = SimulationSession()
    for line in [
      "resolver field-merge --text body --text-granularity word --text-overlap markers", "device add phone",
      "device add mac", "phone create Note/1 body=\"the quick fox\"", "sync all",
      "phone edit Note/1 body=\"the slow fox\"", "mac edit Note/1 body=\"the fast fox\"", "phone sync",
      "wait phone", "mac sync", "wait mac",
    ] {
      _ = try session.interpret(line)
    }
    let server = try session.interpret("show server").text
    #expect(server.contains(#"the \n<<<<<<< server\nslow\n=======\nfast\n>>>>>>> client\n fox"#), "\(server)")
  }

  @Test("show diff lists only the fields that differ, and --json prints the same data")
  func diff() throws {
    var session = SimulationSession()
    for line in Self.twoDevices + ["mac edit Note/1 title=b"] { _ = try session.interpret(line).text }
    let text = try session.interpret("show diff").text
    #expect(text.contains(#"Note/1  title  "draft"  "draft"  "b""#), "\(text)")
    let json = try session.interpret("show diff --json").text
    let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    let rows = try #require(decoded?["differences"] as? [[String: Any]])
    #expect(rows.count == 1)
    _ = try session.interpret("sync all").text
    #expect(try session.interpret("show diff").text.hasPrefix("no differences"))
  }

  @Test("a device of another user is refused with the reason: the world signs every device in as one user")
  func separateUsersRefused() {
    #expect(
      Self.failure(["device add a --user alice"]).contains("every device of the world signs in as one user"))
  }

  @Test("a damaged stored copy is thrown away and fetched again; the damage never reaches the server")
  func corruptStorage() throws {
    var session = SimulationSession()
    for line in [
      "device add phone", "phone create Note/1 title=a", "phone sync", "wait phone", "phone edit Note/1 title=b",
      "fault phone corrupt Note/1", "phone sync", "wait phone", "expect server Note/1 title = a",
      "expect phone Note/1 title = a",
      "expect converged",
    ] {
      _ = try session.interpret(line).text
    }
    #expect(try session.interpret("show diagnostics").text.contains("damaged"))
    #expect(throws: ScriptError.self) { try session.interpret("fault phone corrupt Note/{1..2}").text }
  }

  @Test("lines with values the world cannot take are errors, not traps; the world is unchanged")
  func hostileLines() throws {
    var session = SimulationSession()
    _ = try session.interpret("device add phone")
    _ = try session.interpret("phone create Note/1 title=a")
    let before = session.current?.trace
    for line in [
      "limit page-size 0", "limit batch-items -5", "resolver mine", "advance -1s", "advance nan",
      "fault lose-response phone -3", "device add tablet --user \"\"", "phone upgrade 3.0", "tablet sync",
      "wait tablet", "phone delete Folder/1", "device add phone", "fault throttle 0.5s",
    ] {
      #expect(throws: ScriptError.self, "\(line)") { _ = try session.interpret(line) }
    }
    #expect(session.current?.trace == before)
  }

  /// Words the random lines are made of: the language's own, and pieces of values and noise.
  static let vocabulary = [
    "device", "add", "phone", "mac", "create", "edit", "delete", "sync", "all", "show", "server", "diff", "log",
    "expect", "converged", "halted", "fault", "error", "zoneBusy", "throttle", "advance", "limit", "batch-items",
    "page-size", "resolver", "hlc", "field-merge", "schema", "1.0", "Note/1", "Note/{1..3}", "Note/", "title=a",
    "tags=[a,", "b]", "n=", "=", "\"", "\"x y\"", "#", "--json", "--clock-offset", "-5m", "30s", "0x0", "@Note/2",
    "@!", "[[", "]]", "nil", "!=", ">=", "records", "errors:x", "offline", "online", "crash", "restart", "upgrade",
    "clock", "encrypted:pin=1", "é", "\u{0}", "9999999999999999999999", "1e999", "status", "=", "idle",
  ]

  @Test(
    "random lines either parse or fail with a message, and parsed ones run or fail, never trap (seeds 0..<8)",
    arguments: 0..<8)
  func randomLinesNeverTrap(seed: UInt64) {
    var random = SimulationRandom(seed: seed)
    var session = SimulationSession()
    _ = try? session.interpret("device add phone")
    for _ in 0..<400 {
      let count = Int.random(in: 1...7, using: &random)
      let line = (0..<count).map { _ in Self.vocabulary.randomElement(using: &random) ?? "" }.joined(separator: " ")
      do {
        _ = try session.interpret(line)
      } catch {
        #expect(!error.message.isEmpty, "seed \(seed): empty message for \(line); replay with this seed")
      }
    }
  }
}

@Suite("Merges in the one world: += and -=, and field-merge's merging policies")
struct MergeLineTests {
  @Test("+= and -= change a number, text and a list from the device's current value, and run as plain steps")
  func addAndRemove() throws {
    var session = SimulationSession()
    for line in [
      "device add phone", "phone create Note/1 plays=1 body=\"milk\" tags=[a, b]", "phone edit Note/1 plays+=2",
      "phone edit Note/1 body+=\" and eggs\" tags+=c", "phone edit Note/1 tags-=a body-=\"milk and \"",
      "phone edit Note/1 score+=1.5",
    ] {
      _ = try session.interpret(line)
    }
    let record = try #require(
      session.current?.client(named: "phone")?.record(try RecordID(recordName: "1", zoneID: Simulation.zoneID)))
    #expect(record["plays"] == 3)
    #expect(record["body"] == "eggs")
    #expect(record["tags"] == ["b", "c"])
    #expect(record["score"] == 1.5)
    #expect(session.isReplayable, "each += line ran as the step that sets its result")
    #expect(session.current?.trace.contains("2 phone edit Note/1 plays=3") == true, "\(session.current?.trace ?? [])")
    #expect(throws: ScriptError.self) { try session.interpret("phone edit Note/1 body+=3") }
    #expect(throws: ScriptError.self) { try session.interpret("phone edit Note/{1..2} plays+=1") }
    #expect(throws: ScriptError.self) { try session.interpret("phone edit Note/1 plays+=nil") }
  }

  @Test("a line appended on one device and the first line edited on another merge into three lines, none glued")
  func appendAndFirstLineEditMergeIntoLines() throws {
    // A note ends without a line break, as notes usually do: the merge once glued "butter" to "oat milk".
    var session = SimulationSession()
    for line in [
      "resolver field-merge --text body", "device add phone", "device add mac",
      "phone create Note/n1 body=\"milk\\neggs\"", "sync all", "phone edit Note/n1 body=\"milk\\neggs\\nbutter\"",
      "mac edit Note/n1 body=\"oat milk\\neggs\"", "sync all", "sync all", "quiesce",
    ] {
      _ = try session.interpret(line)
    }
    let result = try #require(session.current?.result(quiescent: true))
    #expect(result.passed, "\(result.violations)")
    for place in ["server", "phone", "mac"] {
      let check = try session.interpret("expect \(place) Note/n1 body = \"oat milk\\neggs\\nbutter\"")
      #expect(check.text.hasPrefix("ok:"), "\(place): \(check.text)")
    }
  }

  @Test("field-merge --text and --counter keep both devices' edits, and the oracles judge them on each write's edit")
  func mergingResolver() throws {
    var session = SimulationSession()
    for line in [
      "resolver field-merge --text body --counter plays", "device add phone", "device add mac",
      "phone create Note/1 body=\"Shopping lsit\\nmilk\\neggs\\n\" plays=0", "sync all",
      "phone edit Note/1 body=\"Shopping list\\nmilk\\neggs\\n\" plays+=1",
      "mac edit Note/1 body+=\"bread\\n\" plays+=2",
      "sync all", "expect server Note/1 body = \"Shopping list\\nmilk\\neggs\\nbread\\n\"",
      "expect server Note/1 plays = 3", "quiesce",
    ] {
      _ = try session.interpret(line)
    }
    let result = try #require(session.current?.result(quiescent: true))
    #expect(result.passed, "\(result.violations)")
    #expect(
      result.outcomes[.oneSidedChangesKept].map { if case .held = $0 { true } else { false } } == true,
      "\(result.outcomes)")
    #expect(session.current?.setup.resolver.name == "field-merge --text body --counter plays")
    #expect(!session.isReplayable, "a resolver with options is the REPL's, not a replay script's")
    _ = try session.interpret("resolver field-merge")
    #expect(session.isReplayable, "a plain resolver line replaces the options")
  }
}

@Suite("The merging policies' contracts fire on broken twins")
struct MergeContractTests {
  /// Two devices change `key` of one note concurrently, starting from `start`, and the world quiesces; the result
  /// under a resolver with the policy's contract.
  static func run(
    _ resolver: ResolverUnderTest, start: String, phone: String, mac: String
  ) throws -> SimulationResult {
    var session = SimulationSession(resolvers: [resolver])
    for line in [
      "resolver \(resolver.name)", "device add phone", "device add mac", "phone create Note/1 \(start)", "sync all",
      "phone edit Note/1 \(phone)", "mac edit Note/1 \(mac)", "phone sync", "wait phone", "mac sync", "wait mac",
      "quiesce",
    ] {
      _ = try session.interpret(line)
    }
    return try #require(session.current?.result(quiescent: true))
  }

  static func twin(_ name: String, _ key: String, _ policy: FieldMerge.Policy, _ contract: KeyContract)
    -> ResolverUnderTest
  {
    ResolverUnderTest(
      name: name, resolver: FieldMerge(.server, overrides: [key: policy]), lostWriteContract: .oneSidedChangesKept,
      keyContracts: [key: contract])
  }

  static let cases:
    [(
      policy: FieldMerge.Policy, broken: FieldMerge.Policy, key: String, contract: KeyContract, start: String,
      phone: String, mac: String
    )] = [
      (
        .text(.line, overlap: .both), .server, "body", .textEditsKept(.line, overlapKeepsBoth: true),
        #"body="a\nb\nc\n""#,
        #"body="A\nb\nc\n""#, #"body+="d\n""#
      ),
      (.counter, .client, "plays", .incrementsCounted, "plays=0", "plays+=1", "plays+=2"),
      (.set(.addWins), .server, "tags", .listEditsKept(), "tags=[a, b]", "tags-=a", "tags+=c"),
      (.orderedList, .server, "order", .listEditsKept(ordered: true), "order=[a, b, c]", "order+=x", "order-=b"),
    ]

  @Test("each merging policy keeps its contract, and a twin that picks a side breaks it", arguments: cases.indices)
  func contractsFire(_ index: Int) throws {
    let row = Self.cases[index]
    let good = try Self.run(
      Self.twin("good", row.key, row.policy, row.contract), start: row.start, phone: row.phone, mac: row.mac)
    #expect(good.passed, "\(row.key) under its policy: \(good.violations)")
    let broken = try Self.run(
      Self.twin("broken", row.key, row.broken, row.contract), start: row.start, phone: row.phone, mac: row.mac)
    #expect(
      broken.violations.contains { $0.invariant == .oneSidedChangesKept && $0.message.contains(row.key) },
      "\(row.key)'s broken twin was not caught: \(broken.violations)")
  }

  @Test("a counter merge that counts an increment twice is caught")
  func doubleCountCaught() throws {
    let doubling = Self.twin(
      "doubling", "plays",
      .custom { field in
        guard case .int64(let server) = field.server, case .int64(let client) = field.client else {
          return field.server
        }
        return .int64(server + client)  // forgets to take the ancestor away
      }, .incrementsCounted)
    let result = try Self.run(doubling, start: "plays=5", phone: "plays+=1", mac: "plays+=2")
    #expect(result.violations.contains { $0.message.contains("plays") }, "\(result.violations)")
  }
}
