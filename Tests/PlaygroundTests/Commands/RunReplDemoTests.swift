import Foundation
import ReconcilePlayground
import ReconcileSimulator
import Testing

/// Collects lines for a fake standard input; a class so the `@Sendable` reader can consume them.
final class ScriptedInput: @unchecked Sendable {
  // @unchecked: used from one test at a time, behind a lock all the same.
  private var lines: [String]
  private let lock = NSLock()

  init(_ lines: [String]) { self.lines = lines }

  func next() -> String? {
    lock.withLock { lines.isEmpty ? nil : lines.removeFirst() }
  }
}

@Suite("Playground run, repl and demo")
struct RunReplDemoTests {
  static func environment(
    files: [String: String] = [:], input: [String] = [], interactive: Bool = false, colour: Bool = false
  )
    -> PlaygroundEnvironment
  {
    let scripted = ScriptedInput(input)
    return PlaygroundEnvironment(
      readFile: { path in
        guard let text = files[path] else { throw CocoaError(.fileNoSuchFile) }
        return Data(text.utf8)
      }, readLine: { scripted.next() }, isInteractive: interactive, usesColour: colour)
  }

  static func run(_ arguments: [String], _ environment: PlaygroundEnvironment) -> (status: Int32, text: String) {
    let out = BufferedOutput()
    let status = PlaygroundCommand.run(arguments: arguments, output: out, environment: environment)
    return (status, out.text)
  }

  static let script = """
    device add phone
    phone create Note/1 title=a
    phone sync
    wait phone
    expect server Note/1 title = a
    show server
    """

  @Test("run prints each command and its result, and exits 0 when every expect holds")
  func runPasses() {
    let result = Self.run(["run", "ok.rcp"], Self.environment(files: ["ok.rcp": Self.script]))
    #expect(result.status == 0, "\(result.text)")
    #expect(result.text.contains("> phone sync\n2 phone sync\n"), "\(result.text)")
    #expect(result.text.contains("> wait phone\n"), "\(result.text)")
    #expect(result.text.contains("wait: phone settled after "), "\(result.text)")
    #expect(result.text.contains("ok: server Note/1 title = \"a\""))
    let quiet = Self.run(["run", "ok.rcp", "--quiet"], Self.environment(files: ["ok.rcp": Self.script]))
    #expect(quiet.status == 0)
    #expect(quiet.text.hasPrefix("server: 1 record"), "--quiet prints only data: \(quiet.text)")
  }

  /// A script in the form the earlier docs taught: `sync` then only started a sync, so B's edit found no note.
  static let editBeforeFetch = """
    device add A
    device add B
    A create Note/n1 title="first"
    A sync
    B sync
    B edit Note/n1 title="second"
    B sync
    A sync
    expect server Note/n1 title = "second"
    """

  @Test("a line that cannot apply stops run at that line, naming why and what to add; the REPL says so and goes on")
  func lineThatCannotApplyIsAnError() throws {
    let result = Self.run(["run", "old.rcp"], Self.environment(files: ["old.rcp": Self.editBeforeFetch]))
    #expect(result.status == 1)
    #expect(
      result.text.contains(
        "old.rcp:6: error: B has no Note/n1 yet: it has not fetched it — add \"B sync\" and \"wait B\", or use \"sync all\""
      ), "\(result.text)")
    #expect(!result.text.contains("expectation failed"), "nothing after the line runs: \(result.text)")

    // With `sync all`, which waits for every device, the same steps hold.
    let fixed = Self.editBeforeFetch.replacingOccurrences(of: "A sync\nB sync\n", with: "sync all\n")
      .replacingOccurrences(of: "B sync\nA sync\n", with: "sync all\n")
    let held = Self.run(["run", "new.rcp"], Self.environment(files: ["new.rcp": fixed]))
    #expect(held.status == 0, "\(held.text)")

    // A counterexample's drawn steps keep their meaning: one that cannot apply is skipped, as when it was drawn.
    let drawn =
      "steps-may-skip\n" + Self.editBeforeFetch.replacingOccurrences(of: "expect server", with: "# expect server")
    let skipped = Self.run(["run", "drawn.rcp"], Self.environment(files: ["drawn.rcp": drawn]))
    #expect(skipped.status == 0, "\(skipped.text)")
    #expect(skipped.text.contains("skipped:"), "\(skipped.text)")

    // In the REPL the line is an error and changes nothing; the session goes on.
    var session = SimulationSession()
    for line in ["device add A", "device add B", "A create Note/n1 title=\"first\"", "A sync"] {
      _ = try session.interpret(line)
    }
    let steps = session.current?.steps.count
    #expect(throws: ScriptError.self) { try session.interpret("B edit Note/n1 title=\"second\"") }
    #expect(session.current?.steps.count == steps, "the refused line left no step behind")
    _ = try session.interpret("sync all")
    _ = try session.interpret("B edit Note/n1 title=\"second\"")
  }

  @Test("run stops at the first failed expect or error with exit 1, naming the file and line")
  func runFails() {
    let failing = Self.script.replacingOccurrences(of: "title = a", with: "title = z")
    let expectation = Self.run(["run", "f.rcp"], Self.environment(files: ["f.rcp": failing]))
    #expect(expectation.status == 1)
    #expect(
      expectation.text.contains("f.rcp:5: expectation failed: expected server Note/1 title = \"z\", but it is \"a\""))
    #expect(!expectation.text.contains("show server"), "nothing after the failure runs")

    let unknown = Self.script.replacingOccurrences(of: "phone sync", with: "phoen sync")
    let error = Self.run(["run", "e.rcp"], Self.environment(files: ["e.rcp": unknown]))
    #expect(error.status == 1)
    #expect(error.text.contains("e.rcp:3: error: unknown device 'phoen'; did you mean 'phone'?"), "\(error.text)")

    let typo = Self.script.replacingOccurrences(of: "show server", with: "shwo server")
    let parse = Self.run(["run", "p.rcp"], Self.environment(files: ["p.rcp": typo]))
    #expect(parse.status == 1)
    #expect(parse.text == "p.rcp:6: error: unknown command 'shwo'; did you mean 'show'?\n", "parsed before running")

    #expect(Self.run(["run", "missing.rcp"], Self.environment()).text.contains("cannot read missing.rcp"))
    let replayScript = "schemas none\ndevice add d1\nd1 create Note/r1 title=\"a\"\nquiesce\nexpect invariants\n"
    let replay = Self.run(["run", "r.rcp"], Self.environment(files: ["r.rcp": replayScript]))
    #expect(replay.status == 0, "a replay script runs in `run`: \(replay.text)")
    #expect(replay.text.contains("> d1 create Note/r1 title=\"a\"\n1 d1 create Note/r1 title=\"a\""), "\(replay.text)")
    #expect(replay.text.contains("invariants held"))
    let broken = replayScript.replacingOccurrences(of: "quiesce", with: "quiesce now")
    let bad = Self.run(["run", "b.rcp"], Self.environment(files: ["b.rcp": broken]))
    #expect(bad.status == 1)
    #expect(bad.text == "b.rcp:4: error: unexpected 'now' at column 9\n", "one grammar reads both kinds of line")
    #expect(Self.run(["run"], Self.environment()).status == 2)
    #expect(Self.run(["run", "ok.rcp", "--resolver", "lww"], Self.environment()).status == 2)
  }

  @Test("the repl carries on after an error, exits 1 on piped input that failed, and quits on quit")
  func repl() {
    let piped = Self.run(
      ["repl"], Self.environment(input: ["device add phone", "phone snyc", "phone sync", "wait", "quit", "help"]))
    #expect(piped.status == 1)
    #expect(piped.text.contains("error: unknown device command 'snyc'; did you mean 'sync'?"))
    #expect(piped.text.contains("wait: every device settled"), "\(piped.text)")
    #expect(!piped.text.contains("list the commands"), "nothing is read after quit")
    #expect(!piped.text.contains("reconcile>"), "no prompt without a terminal")

    let interactive = Self.run([], Self.environment(input: ["help", "device add phone"], interactive: true))
    #expect(interactive.status == 0, "the repl is the default on a terminal")
    #expect(interactive.text.contains("reconcile> "))
    #expect(interactive.text.contains("sync every device, round after round"))
    #expect(interactive.text.contains("(not in a replay script)"), "help marks the session's own lines")
    #expect(interactive.text.contains("leave the playground"))

    #expect(Self.run([], Self.environment()).text.hasPrefix("usage:"), "without a terminal, no arguments print usage")
  }

  @Test("colour only when the environment asks for it")
  func colour() {
    let environment = { (colour: Bool) in
      Self.environment(files: ["ok.rcp": Self.script], colour: colour)
    }
    #expect(Self.run(["run", "ok.rcp"], environment(true)).text.contains("\u{1B}["))
    #expect(!Self.run(["run", "ok.rcp"], environment(false)).text.contains("\u{1B}"))
    #expect(!Self.run(["demo", "--scenario", "7"], environment(false)).text.contains("\u{1B}"))
  }

  @Test("demo --script prints each seed scenario exactly as committed in Playground/Scenarios")
  func scenarioFilesMatch() throws {
    let folder = GoldenTests.repository.appendingPathComponent("Playground/Scenarios")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".rcp") }
      .sorted()
    #expect(files.count == 8)
    for (index, file) in files.enumerated() {
      let committed = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      let printed = Self.run(["demo", "--script", "\(index + 1)"], Self.environment())
      #expect(
        printed.text == committed,
        "\(file) differs from the demo's copy; update one from the other (reconcile-playground demo --script \(index + 1))"
      )
    }
  }

  @Test(
    "every seed scenario script passes its expectations under every resolver",
    arguments: ResolverChoice.allCases)
  func scenarioScriptsPass(_ resolver: ResolverChoice) throws {
    let folder = GoldenTests.repository.appendingPathComponent("Playground/Scenarios")
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".rcp") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for policy in ["deleteWins", "editWins"] {
        let result = Self.run(
          ["run", file, "--quiet", "--resolver", resolver.rawValue, "--delete-policy", policy],
          Self.environment(files: [file: text]))
        #expect(result.status == 0, "\(file) under \(resolver), \(policy): \(result.text)")
      }
    }
  }

  @Test("demo --json prints every scenario's rows; a bad option is a usage error")
  func demoJSON() throws {
    let result = Self.run(["demo", "--json"], Self.environment())
    #expect(result.status == 0)
    let tables = try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [[String: Any]])
    #expect(tables.count == 8)
    let first = try #require(tables.first?["rows"] as? [[String: Any]])
    #expect(first.count == ResolverChoice.allCases.count)
    let delete = try #require(tables[3]["rows"] as? [[String: Any]])
    #expect(delete.count == 2 * ResolverChoice.allCases.count, "scenario 4 runs under both delete policies")
    let text = try #require(tables[7]["rows"] as? [[String: Any]])
    #expect(text.count == ResolverChoice.allCases.count + 1, "scenario 8 runs under the text merge too")
    #expect(Self.run(["demo", "--scenario", "9"], Self.environment()).status == 2)
    #expect(Self.run(["demo", "--sceanrio", "1"], Self.environment()).text.contains("did you mean --scenario?"))
  }

  @Test("the demo's why lines are the decisions each run's trace reports, not text written per scenario")
  func demoWhyComesFromTheTrace() throws {
    let result = Self.run(["demo", "--json", "--scenario", "1"], Self.environment())
    let tables = try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [[String: Any]])
    let why = try #require(tables.first?["why"] as? [String])
    // server-lww keeps the server's "a": the phone's later "b" is what its merge gave away.
    #expect(
      why.contains("server-lww — phone: merged Note/1 over the last version it knew: title: kept server, lost \"b\""))
    #expect(why.contains("field-merge — phone: merged Note/1 over the last version it knew: title: kept client"))
    let rows = try #require(tables.first?["rows"] as? [[String: Any]])
    #expect(rows.allSatisfy { ($0["decisions"] as? [String])?.isEmpty == false }, "every run merged once")
  }
}

@Suite("REPL worlds: the prompt says which, and reset starts over")
struct ReplWorldTests {
  static func repl(_ lines: [String], interactive: Bool = false) -> (status: Int32, text: String, prompts: [String]) {
    let input = ScriptedInput(lines)
    let prompts = PromptLog()
    var environment = PlaygroundEnvironment(readLine: { input.next() }, isInteractive: interactive)
    if interactive {
      environment.editLine = { prompt in
        prompts.append(prompt)
        return input.next()
      }
    }
    let out = BufferedOutput()
    let status = PlaygroundCommand.run(arguments: ["repl"], output: out, environment: environment)
    return (status, out.text, prompts.all)
  }

  @Test("header lines of a pasted counterexample say what they set, in the one world, under one prompt")
  func pastedHeadersAndPrompt() {
    let result = Self.repl(
      ["resolver server-lww", "schemas none", "device add d1", "invariants convergence", "d1 sync"],
      interactive: true)
    #expect(result.text.contains("resolver server-lww\n"), "\(result.text)")
    #expect(result.text.contains("schemas none\n"), "\(result.text)")
    #expect(result.text.contains("added d1\n"), "\(result.text)")
    #expect(result.text.contains("invariants convergence\n"), "\(result.text)")
    #expect(result.text.contains("1 d1 sync\n"), "\(result.text)")
    #expect(result.prompts.allSatisfy { $0 == "reconcile> " }, "\(result.prompts)")
  }

  @Test("any mix of lines runs in one world: the playground's own lines beside a counterexample's, then reset")
  func anyMixOfLines() {
    let result = Self.repl([
      "schema 1.0 Note title:string", "schemas none", "device add phone --schema 1.0", "device add d1",
      "fault disconnect-after-save phone", "phone create Note/1 title=a", "d1 create Task/2 encrypted:pin=1",
      "fault lose-request d1", "phone sync", "d1 sync", "wait", "phone online", "phone restart", "fault error zoneBusy",
      "fault clear", "advance 0.5s", "sync all", "quiesce", "expect invariants", "expect converged", "reset",
      "show server",
    ])
    #expect(result.status == 0, "\(result.text)")
    #expect(result.text.contains("phone lost its network after sending a save"), "\(result.text)")
    #expect(result.text.contains("network lost d1's"), "\(result.text)")
    #expect(result.text.contains("4 d1 create Task/2 encrypted:pin=<redacted:int64>"), "\(result.text)")
    #expect(!result.text.contains("pin=1"), "\(result.text)")
    #expect(result.text.contains("invariants held"), "\(result.text)")
    #expect(result.text.contains("ok: converged"), "\(result.text)")
    #expect(
      result.text.hasSuffix(
        "started over: an empty world, no devices, nothing carried out yet\nthe simulation's world starts at its "
          + "first step; nothing to look at yet\n"),
      "\(result.text)")
  }

  @Test("a header line after the first step builds the world again and runs every step since again")
  func headerAfterSteps() {
    let result = Self.repl([
      "device add phone", "device add mac", "phone create Note/1 title=draft", "sync all",
      "phone edit Note/1 title=a", "mac edit Note/1 body=b", "sync all", "expect server Note/1 body = b",
      "resolver server-lww", "expect server Note/1 body = nil", "expect server Note/1 title = a",
    ])
    #expect(result.status == 0, "\(result.text)")
    #expect(result.text.contains("the world was built again with this setting, and the "), "\(result.text)")
  }
}

/// The prompts the REPL asked its line editor for.
final class PromptLog: @unchecked Sendable {
  // @unchecked: appended from one REPL at a time, behind a lock all the same.
  private var prompts: [String] = []
  private let lock = NSLock()

  func append(_ prompt: String) { lock.withLock { prompts.append(prompt) } }
  var all: [String] { lock.withLock { prompts } }
}
