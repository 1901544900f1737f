import Foundation
import Reconcile
import ReconcileSimulator
import Testing

@Suite("One script language: the playground's lines and replay scripts")
struct ScriptLanguageTests {
  @Test(
    "every command help lists parses, runs in the one world, and is in replay scripts where help says",
    arguments: ScriptParser.commands)
  func helpEntriesRunWhereTheySay(_ entry: ScriptParser.Entry) throws {
    let command = try #require(try ScriptParser.parse(entry.example), "\(entry.example)")
    #expect(command.runsInReplay == (entry.runs == .replay), "\(entry.example)")
    var session = SimulationSession()
    var setup = ["schemas major", "schema 2.0 Note title:string"]
    if case .addDevice = command {} else { setup += ["device add phone", "phone create Note/1 title=a", "phone sync"] }
    // An answer needs a question: an app that asks, and an account change.
    if case .answerAccount = command {
      setup = ["client sync-engine", "account-change ask"] + setup + ["phone sign-in _other"]
    }
    for line in setup { _ = try session.interpret(line) }
    do {
      _ = try session.interpret(entry.example)
    } catch {
      #expect(error.isFailedExpectation, "\(entry.example): \(error)")
    }
  }

  @Test("the parser's words come from the command table: no device takes one, a misspelt verb is suggested")
  func wordsComeFromTheTable() throws {
    for word in ScriptParser.keywords {
      #expect(throws: ScriptError.self, "\(word)") { try ScriptParser.parse("device add \(word)") }
    }
    #expect(ScriptParser.keywords.contains("wait") && ScriptParser.keywords.contains("reset"))
    for (typo, verb) in [("restrat", "restart"), ("upgarde", "upgrade"), ("clokc", "clock"), ("ofline", "offline")] {
      do {
        _ = try ScriptParser.parse("phone \(typo)")
        Issue.record("phone \(typo) parsed")
      } catch {
        #expect(error.message.contains("did you mean '\(verb)'?"), "\(error.message)")
      }
    }
  }

  @Test("a replay script's lines are the language's lines: each replay line parses as one command")
  func replayLinesAreLanguageLines() throws {
    var simulation = Simulation(seed: 7, configuration: SimulationConfiguration(steps: 60, faults: .swarm))
    let result = simulation.run()
    for line in result.script.split(separator: "\n").map(String.init) where !line.hasPrefix("#") {
      let command = try #require(try ScriptParser.parse(line), "\(line)")
      #expect(command.runsInReplay, "\(line)")
    }
  }

  @Test("older replay forms read as their current forms")
  func olderFormsStillRead() throws {
    let old = """
      resolver server-lww
      device add a --clock-offset -37
      device add b
      server-limits batch-items 5 batch-bytes 100000 page-size 7
      a create Note/r1 title="x"
      fault corrupt a r1
      fault a lose-response
      advance 3
      a clock +90
      quiesce
      expect invariants
      """
    let current = """
      resolver server-lww
      device add a --clock-offset -37s
      device add b
      limit batch-items 5 batch-bytes 100000 page-size 7
      a create Note/r1 title="x"
      fault corrupt a Note/r1
      fault lose-response a
      advance 3s
      a clock +90s
      quiesce
      expect invariants
      """
    let parsedOld = try SimulationScript.parse(old)
    #expect(parsedOld == (try SimulationScript.parse(current)))
    // Printing writes only the current forms.
    let printed = SimulationScript.render(setup: parsedOld.setup, steps: parsedOld.steps)
    #expect(printed.contains("limit batch-items 5 batch-bytes 100000 page-size 7\n"), "\(printed)")
    #expect(printed.contains("fault corrupt a Note/r1\n") && printed.contains("fault lose-response a\n"))
    #expect(!printed.contains("server-limits"))
    // Printed scripts are of drawn steps, and say so.
    var reparsed = try SimulationScript.parse(printed)
    #expect(reparsed.stepsMaySkip)
    reparsed.stepsMaySkip = false
    #expect(reparsed == parsedOld)
  }

  @Test("every line that acts on the world is one step, in a replay script as in a session; a secret never prints")
  func everyActingLineIsAStep() throws {
    let parsed = try SimulationScript.parse(
      """
      device add a
      a create Folder/f1 x=1
      a edit Note/r1 encrypted:pin=1
      a restart
      fault error zoneBusy 2 --device a
      fault disconnect-after-save a
      fault clear
      advance 500ms
      a clock +1500ms
      """)
    let folder = try RecordID(recordName: "f1", zoneID: Simulation.zoneID)
    let note = try RecordID(recordName: "r1", zoneID: Simulation.zoneID)
    var created = Record(recordType: "Folder", recordID: folder)
    created["x"] = 1
    #expect(
      parsed.steps == [
        .create(device: "a", record: created),
        .edit(device: "a", type: "Note", record: note, values: [:], encrypted: ["pin": 1]),
        .restart(device: "a"), .fault(.serverError(code: .zoneBusy, count: 2, device: "a", retryAfter: 10)),
        .fault(.disconnectAfterSave(device: "a")), .clearFaults, .advance(seconds: 0.5),
        .clockJump(device: "a", seconds: 1.5),
      ])
    #expect(SimulationScript.line(for: parsed.steps[1]) == "a edit Note/r1 encrypted:pin=<redacted:int64>")
  }

  @Test(
    "an encrypted value is written as a stand-in of its kind and size, which replays the same sizes, never the value")
  func encryptedValuesReplayAsStandIns() throws {
    let script = """
      device add d2
      limit batch-bytes 400
      d2 create Note/r2 encrypted:title="a secret title" encrypted:tags=["ab", "cde"] encrypted:raw=0x0102 n=1
      d2 edit Note/r2 encrypted:title="shorter" encrypted:pin=nil
      """
    let parsed = try SimulationScript.parse(script)
    let rendered = SimulationScript.render(setup: parsed.setup, steps: parsed.steps, invariants: parsed.invariants)
    #expect(!rendered.contains("secret") && !rendered.contains("shorter") && !rendered.contains("cde"), "\(rendered)")
    #expect(rendered.contains("encrypted:title=<redacted:string:14>"), "\(rendered)")
    #expect(rendered.contains("encrypted:pin=nil"), "\(rendered)")
    let again = try SimulationScript.parse(rendered)
    #expect(again.steps == parsed.steps.map(\.withEncryptedStandIns))
    guard case .create(_, let original) = parsed.steps[0], case .create(_, let replayed) = again.steps[0] else {
      Issue.record("not a create")
      return
    }
    #expect(replayed.dataSize == original.dataSize, "the stand-ins weigh what the values did")
    #expect(replayed.encryptedValues["title"] == "xxxxxxxxxxxxxx")
    // Written back once more, the script is the same: the stand-ins stand for themselves.
    #expect(SimulationScript.render(setup: again.setup, steps: again.steps, invariants: again.invariants) == rendered)
  }

  @Test(
    "a replay script refuses a line only the REPL and run carry out, naming the line and why",
    arguments: [
      ("show server", "the REPL and `run` only"), ("sync all", "the REPL and `run` only"),
      ("a upgrade 2.0", "declared by `schema` lines"), ("device add b --user bob", "not --schema or --user"),
      ("a edit Note/r1 n+=1", "`+=` and `-=` read what a device shows"),
      ("resolver field-merge --prefer client", "no options"),
      ("device add b --clock-offset 1500ms", "whole-second"),
    ])
  func replayRefusesPlaygroundLines(line: String, why: String) {
    // Every line that acts on the world is a step of a replay script too: records of any type, encrypted values,
    // restarts, server errors, fractions of a second. What is left needs what only a session knows.
    do {
      _ = try SimulationScript.parse("device add a\n" + line)
      Issue.record("a replay script took \(line)")
    } catch {
      #expect(error.line == 2)
      #expect(error.problem.hasPrefix("a replay script cannot hold this line"), "\(error)")
      #expect(error.problem.contains(why), "\(error)")
    }
  }

  @Test(
    "every fault prints as a line that reads back as the same fault",
    arguments: [
      SimulationFault.disconnectAfterSave(device: "a"), .loseResponse(device: "a"), .loseRequest(device: "a"),
      .duplicate(device: "a"), .delay(device: "a", seconds: 20),
      .transient(device: "a", error: "zoneBusy", retryAfter: 5),
      .itemTransient(device: "a", error: "networkFailure", retryAfter: 0), .corruptStorage(device: "a", record: "r1"),
      .tornCrash(device: "a"), .tornCrash(device: "a", afterWrites: 3), .throttle(seconds: 30),
      .serverError(code: .zoneBusy, count: 3, device: "a", retryAfter: 10),
      .serverError(code: .serviceUnavailable, count: 1, device: nil, retryAfter: 2.5), .expireTokens,
      .expireDatabaseTokens, .quotaFull(seconds: 90), .deleteZone, .purgeZone, .resetEncryptedData,
    ])
  func faultLinesRoundTrip(_ fault: SimulationFault) throws {
    #expect(try ScriptParser.parse(fault.scriptLine) == .fault([fault]), "\(fault)")
  }

  @Test("fault clear reads as the step that ends every fault, and lose-response N as N lost answers")
  func faultClearAndCounts() throws {
    #expect(try ScriptParser.parse(SimulationFault.clearLine) == .clearFaults)
    #expect(
      try ScriptParser.parse("fault lose-response a 3")
        == .fault(Array(repeating: .loseResponse(device: "a"), count: 3)))
  }

  @Test(
    "a fault the simulator cannot run is an error that says why, not a line that is skipped",
    arguments: [
      ("fault throttle 0.5s", "whole seconds"), ("fault delay a 250ms", "whole seconds"),
      ("fault corrupt a Task/1", "store Note records, not Task"), ("fault lose-response a 0", "from 1"),
    ])
  func faultsThatCannotRun(_ line: String, _ why: String) {
    do {
      let command = try ScriptParser.parse(line)
      Issue.record("\(line) parsed as \(command)")
    } catch {
      #expect("\(error)".contains(why), "\(error)")
    }
  }

  @Test("a range of records and a repeated lost answer become one step each")
  func rangesExpandToSteps() throws {
    let parsed = try SimulationScript.parse("device add a\na create Note/{1..3} n=1\nfault lose-response a 2")
    #expect(
      parsed.steps == [
        .createNote(device: "a", name: "1", values: ["n": 1]), .createNote(device: "a", name: "2", values: ["n": 1]),
        .createNote(device: "a", name: "3", values: ["n": 1]), .fault(.loseResponse(device: "a")),
        .fault(.loseResponse(device: "a")),
      ])
  }

  @Test("the article on the language lists every command help lists")
  func articleListsEveryCommand() throws {
    let article = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../../Docs/ReconcileSimulator.docc/Articles/TheScriptLanguage.md"),
      encoding: .utf8)
    for entry in ScriptParser.commands {
      #expect(article.contains("| `\(entry.syntax)` |"), "the article does not list `\(entry.syntax)`")
    }
  }
}
