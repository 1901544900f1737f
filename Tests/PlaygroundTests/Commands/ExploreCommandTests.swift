import Foundation
import ReconcilePlayground
import ReconcileSimulator
import Testing

/// Files in memory, for commands that read and write them.
final class MemoryFiles: @unchecked Sendable {
  // The lock guards `files`.
  private let lock = NSLock()
  private var files: [String: Data] = [:]

  subscript(path: String) -> Data? {
    lock.lock()
    defer { lock.unlock() }
    return files[path]
  }

  var paths: [String] {
    lock.lock()
    defer { lock.unlock() }
    return files.keys.sorted()
  }

  func write(_ path: String, _ data: Data) {
    lock.lock()
    files[path] = data
    lock.unlock()
  }

  struct Missing: Error { var path: String }

  var environment: PlaygroundEnvironment {
    PlaygroundEnvironment(
      readFile: { [self] path in
        guard let data = self[path] else { throw Missing(path: path) }
        return data
      },
      writeFile: { [self] path, data in write(path, data) })
  }
}

/// A clock that moves one second each time it is read.
final class TickingClock: @unchecked Sendable {
  private let lock = NSLock()
  private var seconds = 0.0
  func now() -> Date {
    lock.lock()
    defer { lock.unlock() }
    seconds += 1
    return Date(timeIntervalSince1970: seconds)
  }
}

@Suite("Playground explore: many seeds from the command line")
struct ExploreCommandTests {
  static func explore(_ arguments: [String], files: MemoryFiles, environment: PlaygroundEnvironment? = nil)
    -> (status: Int32, output: BufferedOutput)
  {
    let output = BufferedOutput()
    let status = PlaygroundCommand.run(
      arguments: arguments, output: output, environment: environment ?? files.environment)
    return (status, output)
  }

  static func report(_ path: String, in files: MemoryFiles) throws -> ExplorationReport {
    try JSONDecoder().decode(ExplorationReport.self, from: try #require(files[path]))
  }

  @Test("field-merge under swarm faults: progress lines on standard error, totals and coverage on standard output")
  func exploresWithProgressAndCoverage() throws {
    let files = MemoryFiles()
    let (status, output) = Self.explore(
      [
        "explore", "--seeds", "0..40", "--steps", "60", "--resolver", "field-merge", "--faults", "swarm",
        "--until-failures", "0", "--json", "r.json",
      ], files: files)
    let report = try Self.report("r.json", in: files)
    #expect(status == (report.passed ? 0 : 1))
    #expect(report.seedsRun == 40)
    #expect(output.standardError.contains("explore: 40/40 seeds (100%)"))
    #expect(output.standardError.split(separator: "\n").count == 10, "a line per tenth:\n\(output.standardError)")
    #expect(output.standardOutput.contains("explored seeds 0..40: 40 seeds, "))
    #expect(output.standardOutput.contains("runs reaching each path: accountChange "))
    #expect(output.standardOutput.contains("never exercised: unknownKeysKept"))
  }

  @Test("a planted bug from the zoo gives a counterexample file that replay accepts and fails on")
  func plantedBugGivesAReplayableFile() throws {
    let files = MemoryFiles()
    let (status, output) = Self.explore(
      [
        "explore", "--seeds", "0..200", "--steps", "60", "--faults", "swarm", "--defect", "resave-deleted",
        "--out", "found",
      ], files: files)
    #expect(status == 1)
    let file = try #require(files.paths.first { $0.hasPrefix("found/explore-seed-") }, "\(files.paths)")
    #expect(file.hasSuffix("-noResurrection.rcp"))
    #expect(output.standardOutput.contains("replay it: reconcile-playground replay \(file)"))
    let script = String(decoding: try #require(files[file]), as: UTF8.self)
    #expect(script.contains("defect resave-deleted"))
    let replayed = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["replay", file], output: replayed, environment: files.environment) == 1)
    #expect(replayed.standardOutput.contains("invariants violated"))
    // Without the defect line the same steps keep every invariant: the planted bug is the cause.
    files.write(
      "fixed.rcp",
      Data(script.split(separator: "\n").filter { $0 != "defect resave-deleted" }.joined(separator: "\n").utf8))
    #expect(
      PlaygroundCommand.run(
        arguments: ["replay", "fixed.rcp"], output: BufferedOutput(), environment: files.environment) == 0)
  }

  @Test("--account-change picks the app's answer to an account change; a client that never asks refuses ask")
  func accountChangeOption() {
    let files = MemoryFiles()
    let world = ["--seeds", "0..6", "--steps", "40", "--faults", "hostile", "--clock-skew", "0"]
    let asked = Self.explore(
      ["explore"] + world + ["--client", "sync-engine", "--account-change", "ask"], files: files)
    #expect(asked.status == 0, "\(asked.output.standardError)")
    #expect(asked.output.standardOutput.contains("--client sync-engine --clock-skew 0 --account-change ask"))
    let refused = Self.explore(["explore"] + world + ["--account-change", "ask"], files: files)
    #expect(refused.status == 2)
    #expect(refused.output.standardError.contains("client reference never asks"))
    let unknown = Self.explore(["explore"] + world + ["--account-change", "maybe"], files: files)
    #expect(unknown.status == 2)
    #expect(unknown.output.standardError.contains("--account-change maybe: expected delete, keep or ask"))
  }

  @Test("two shards' JSON reports merge into the report of the whole range, whatever the number of jobs")
  func shardsMergeIntoTheWhole() throws {
    let files = MemoryFiles()
    let common = ["--seeds", "0..30", "--steps", "40", "--faults", "flaky", "--until-failures", "0", "--quiet"]
    _ = Self.explore(["explore"] + common + ["--jobs", "1", "--json", "whole.json"], files: files)
    _ = Self.explore(["explore"] + common + ["--shard", "0/2", "--jobs", "3", "--json", "a.json"], files: files)
    _ = Self.explore(["explore"] + common + ["--shard", "1/2", "--jobs", "2", "--json", "b.json"], files: files)
    let (status, output) = Self.explore(
      ["explore", "merge", "b.json", "a.json", "--json", "merged.json"], files: files)
    var whole = try Self.report("whole.json", in: files)
    var merged = try Self.report("merged.json", in: files)
    #expect(status == (whole.passed ? 0 : 1))
    #expect(merged.shards == [0, 1] && merged.isComplete)
    #expect(whole.seedsRun == 30 && merged.seedsRun == 30)
    (whole.seconds, merged.seconds) = (0, 0)
    (whole.shardCount, whole.shards) = (2, [0, 1])
    #expect(merged == whole)
    #expect(output.standardOutput.contains("explored seeds 0..30 (shards 0, 1 of 2): 30 seeds"))
  }

  @Test("merging reports of different worlds, or one shard twice, fails naming the report")
  func mergeRefusesStrangers() throws {
    let files = MemoryFiles()
    _ = Self.explore(
      ["explore", "--seeds", "0..4", "--steps", "10", "--shard", "0/2", "--json", "a.json"], files: files)
    _ = Self.explore(
      ["explore", "--seeds", "0..4", "--steps", "10", "--shard", "1/2", "--resolver", "hlc", "--json", "b.json"],
      files: files)
    let strangers = Self.explore(["explore", "merge", "a.json", "b.json"], files: files)
    #expect(strangers.status == 1)
    #expect(strangers.output.standardError.contains("b.json is of another exploration: its configuration"))
    let twice = Self.explore(["explore", "merge", "a.json", "a.json"], files: files)
    #expect(twice.output.standardError.contains("a.json covers shard 0, which an earlier report already covers"))
    files.write("junk.json", Data("{}".utf8))
    #expect(Self.explore(["explore", "merge", "junk.json"], files: files).status == 1)
    var newer = try Self.report("a.json", in: files)
    newer.format = 2
    files.write("newer.json", try JSONEncoder().encode(newer))
    let future = Self.explore(["explore", "merge", "newer.json"], files: files)
    #expect(future.output.standardError.contains("newer.json has format 2, newer than this version reads (1)"))
    #expect(ExplorationReportError.newerFormat(report: 0, format: 2).description.hasPrefix("report 1 has format 2"))
    #expect(throws: ExplorationReportError.nothingToMerge) { try ExplorationReport.merged([]) }
  }

  @Test("a merge missing a shard's report exits 1 naming the shards, unless --partial accepts it")
  func missingShardFailsTheMerge() throws {
    let files = MemoryFiles()
    let common = ["--seeds", "0..9", "--steps", "10", "--faults", "none", "--until-failures", "0", "--quiet"]
    _ = Self.explore(["explore"] + common + ["--shard", "0/3", "--json", "a.json"], files: files)
    _ = Self.explore(["explore"] + common + ["--shard", "2/3", "--json", "c.json"], files: files)
    #expect(try Self.report("a.json", in: files).passed && Self.report("c.json", in: files).passed)
    let missing = Self.explore(["explore", "merge", "a.json", "c.json", "--json", "m.json"], files: files)
    #expect(missing.status == 1)
    #expect(missing.output.standardError.contains("error: shards 1 of 3 are missing"))
    #expect(try Self.report("m.json", in: files).isComplete == false)
    let partial = Self.explore(["explore", "merge", "a.json", "c.json", "--partial"], files: files)
    #expect(partial.status == 0)
    #expect(partial.output.standardOutput.contains("partial: shards 1 of 3 are missing"))
    _ = Self.explore(["explore"] + common + ["--shard", "1/3", "--json", "b.json"], files: files)
    #expect(Self.explore(["explore", "merge", "a.json", "b.json", "c.json"], files: files).status == 0)
  }

  @Test("a time limit stops starting seeds, and the report says how far it got")
  func timeLimitStops() throws {
    let files = MemoryFiles()
    let clock = TickingClock()
    var environment = files.environment
    environment.now = { clock.now() }
    let (status, output) = Self.explore(
      [
        "explore", "--seeds", "0..500", "--steps", "20", "--faults", "none", "--time-limit", "10s", "--jobs", "1",
        "--quiet", "--json", "r.json",
      ], files: files, environment: environment)
    let report = try Self.report("r.json", in: files)
    #expect(status == 0)
    #expect(report.stoppedEarly)
    #expect(report.seedsRun > 0 && report.seedsRun < 20, "\(report.seedsRun)")
    #expect(output.standardOutput.contains("stopped early"))
  }

  @Test(
    "bad seeds, shards, limits and durations are usage errors naming the value",
    arguments: [
      (["--seeds", "9..2"], "--seeds 9..2"), (["--seeds", "x"], "--seeds x"), (["--shard", "3/2"], "invalid shard"),
      (["--time-limit", "soon"], "--time-limit soon"), (["--until-failures", "-1"], "--until-failures -1"),
      (["--resolver", "lww"], "unknown resolver 'lww'"), (["--jobs", "0"], "--jobs 0"),
    ])
  func usageErrors(_ arguments: [String], _ named: String) {
    let (status, output) = Self.explore(["explore"] + arguments, files: MemoryFiles())
    #expect(status == 2)
    #expect(output.standardError.contains(named), "\(output.standardError)")
    #expect(output.standardOutput.isEmpty)
  }
}

@Suite("The ready CI configuration for exploring at scale")
struct ExploreWorkflowTests {
  /// The `--options` in `text` that `explore --help` does not list (`--product` belongs to `swift build`).
  static func unknownOptions(in text: String) -> Set<String> {
    let help = BufferedOutput()
    _ = PlaygroundCommand.run(arguments: ["explore", "--help"], output: help)
    let used = Set(text.matches(of: /(--[a-z-]+)/).map { String($0.output.1) })
    return used.filter { $0 != "--product" && !help.standardOutput.contains($0 + " ") }
  }

  @Test("every option the workflow passes to explore is one explore knows, and the matrix has 16 shards")
  func workflowUsesKnownOptions() throws {
    let path = GoldenTests.repository.appendingPathComponent(".github/workflows/explore.yml")
    let text = try String(contentsOf: path, encoding: .utf8)
    #expect(Self.unknownOptions(in: text).isEmpty, "unknown options: \(Self.unknownOptions(in: text))")
    #expect(Self.unknownOptions(in: text + "\n  --sede 3 --shards 2/16") == ["--sede", "--shards"])
    #expect(text.contains("shard: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]"))
    #expect(text.contains("--shard \"${{ matrix.shard }}/16\""))
    #expect(text.contains("bash Scripts/deep-sweep.sh full"), "the nightly deep sweep")
  }
}

@Suite("One language: counterexamples run as files and paste into the REPL")
struct CounterexampleLanguageTests {
  /// A counterexample of a planted bug, as explore writes it.
  static func counterexample() throws -> (files: MemoryFiles, path: String, script: String) {
    let files = MemoryFiles()
    _ = ExploreCommandTests.explore(
      ["explore", "--seeds", "0..200", "--steps", "60", "--faults", "swarm", "--defect", "resave-deleted", "--quiet"],
      files: files)
    let path = try #require(files.paths.first { $0.hasSuffix(".rcp") })
    return (files, path, String(decoding: try #require(files[path]), as: UTF8.self))
  }

  @Test("run accepts explore's counterexample file and fails on it; without the defect line it passes")
  func runAcceptsCounterexamples() throws {
    let (files, path, script) = try Self.counterexample()
    let failing = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["run", path], output: failing, environment: files.environment) == 1)
    #expect(failing.standardError.contains("expectation failed: invariant broken: noResurrection"))
    files.write("fixed.rcp", Data(script.replacingOccurrences(of: "defect resave-deleted\n", with: "").utf8))
    let fixed = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["run", "fixed.rcp"], output: fixed, environment: files.environment) == 0)
    #expect(fixed.standardOutput.contains("invariants held"))
  }

  @Test("the REPL takes a counterexample pasted line by line, and an edited paste")
  func replTakesPastedCounterexamples() throws {
    let (_, _, script) = try Self.counterexample()
    func paste(_ text: String) -> (status: Int32, output: BufferedOutput) {
      let lines = text.split(separator: "\n").map(String.init)
      let queue = LineQueue(lines)
      let output = BufferedOutput()
      let status = PlaygroundCommand.run(
        arguments: ["repl"], output: output, environment: PlaygroundEnvironment(readLine: { queue.next() }))
      return (status, output)
    }
    let pasted = paste(script)
    #expect(pasted.status == 1)
    #expect(pasted.output.text.contains("invariant broken: noResurrection"))
    let edited = paste(script.replacingOccurrences(of: "defect resave-deleted\n", with: ""))
    #expect(edited.status == 0, "\(edited.output.text)")
    #expect(edited.output.text.contains("invariants held"))

    // Looking at the world changes nothing, `sync all` is carried out as steps, and a line a replay script does not
    // hold runs in the same world.
    let looked = paste("device add d1\nd1 create Note/r1 title=a\nshow server\nexpect server records = 0\nquiesce")
    #expect(looked.status == 0, "\(looked.output.text)")
    #expect(looked.output.text.contains("saved Note/r1"), "\(looked.output.text)")
    let synced = paste("device add d1\nd1 create Note/r1 title=a\nsync all\nquiesce\nexpect server Note/r1 title = a")
    #expect(synced.status == 0, "\(synced.output.text)")
    let changed = paste(
      "device add d1\nfault disconnect-after-save d1\nd1 create Note/r1 title=a\nd1 sync\nwait\nquiesce\nexpect invariants"
    )
    #expect(changed.status == 0, "\(changed.output.text)")
    #expect(changed.output.text.contains("d1 lost its network after sending a save"), "\(changed.output.text)")
  }

  @Test("show, expect and sync all read and drive the one world")
  func lookingLinesReadTheSimulatorsWorld() throws {
    func repl(_ lines: [String]) -> (status: Int32, output: BufferedOutput) {
      let queue = LineQueue(lines)
      let output = BufferedOutput()
      let status = PlaygroundCommand.run(
        arguments: ["repl"], output: output, environment: PlaygroundEnvironment(readLine: { queue.next() }))
      return (status, output)
    }
    let start = ["device add d1", "device add d2", "send-after-edits", "d1 create Note/r1 title=a", "sync all"]
    let agreed = repl(
      start + [
        "show server", "show d2", "show diff", "show log", "expect d2 Note/r1 title = a", "expect server records = 1",
        "expect converged", "expect d2 status = idle",
      ])
    let text = agreed.output.text
    #expect(agreed.status == 0, "\(text)")
    #expect(text.contains("d1 sync") && text.contains("d2 sync"), "sync all runs as steps: \(text)")
    #expect(text.contains("every device idle"), "\(text)")
    #expect(text.contains("Note/r1  t1   title=\"a\""), "show server lists the simulator's record: \(text)")
    #expect(text.contains("d2: idle, 0 queued"), "\(text)")
    #expect(text.contains("no differences"), "\(text)")
    #expect(text.contains("1 d1 create Note/r1 title=\"a\""), "show log prints the trace: \(text)")
    #expect(text.contains("ok: converged"), "\(text)")

    // The same lines fail when the world is not as they say, naming what they found.
    let apart = repl(start + ["d2 offline", "d2 edit Note/r1 title=b", "show diff", "expect converged"])
    #expect(apart.status == 1)
    #expect(apart.output.text.contains("Note/r1  title  \"a\"     \"a\"  \"b\""), "\(apart.output.text)")
    #expect(apart.output.text.contains("expected converged, but d2 has 1 change(s) queued"), "\(apart.output.text)")
    let wrong = repl(start + ["expect d2 Note/r1 title = b"])
    #expect(wrong.status == 1)
    #expect(wrong.output.text.contains("expected d2 Note/r1 title = \"b\", but it is \"a\""), "\(wrong.output.text)")
    let missing = repl(start + ["expect server Note/r2 exists"])
    #expect(missing.status == 1)
    #expect(missing.output.text.contains("but it is absent"), "\(missing.output.text)")

    // `sync all` goes round again while a device waits out a retry or the server changed: here d1 waits 50 s in the
    // first round and saves in the second, and d2 fetches the save in the third.
    let waited = repl([
      "device add d1", "device add d2", "invariants convergence", "d1 sync", "d2 sync", "advance 5s", "d1 offline",
      "d1 create Note/r1 title=a", "fault transient d1 zoneBusy 50s", "d1 online", "sync all", "expect converged",
    ])
    #expect(waited.status == 0, "\(waited.output.text)")
    #expect(waited.output.text.contains("sync all: 3 rounds"), "\(waited.output.text)")

    // The simulator's world counts each device's traffic too: requests, errors and waits are answered from it.
    let counted = repl(start + ["expect d1 requests > 0", "show diagnostics"])
    #expect(counted.status == 0, "\(counted.output.text)")
    #expect(counted.output.text.contains("ok: d1 requests = "), "\(counted.output.text)")
    #expect(counted.output.text.contains("requests  errors"), "\(counted.output.text)")
  }

  @Test("faults read kind first, as replay scripts write them; the older order still reads")
  func faultWordOrder() throws {
    var session = SimulationSession()
    _ = try session.interpret("device add phone")
    _ = try session.interpret("phone create Note/1 title=a")
    for line in [
      "fault lose-response phone 2", "fault phone lose-response 2", "fault disconnect-after-save phone",
      "fault phone disconnect-after-save", "fault corrupt phone Note/1", "fault phone corrupt Note/1",
    ] {
      #expect(throws: Never.self, "\(line)") { _ = try session.interpret(line) }
    }
    #expect(throws: ScriptError.self) { _ = try session.interpret("fault lose-response") }
  }
}

/// Lines handed out one at a time, for a REPL reading piped input.
final class LineQueue: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String]
  init(_ lines: [String]) { self.lines = lines }
  func next() -> String? {
    lock.lock()
    defer { lock.unlock() }
    return lines.isEmpty ? nil : lines.removeFirst()
  }
}

@Suite("One language: a device's clock moves the same way in the REPL and in replay scripts")
struct ClockCommandTests {
  @Test("NAME clock +90s jumps ahead and -30s jumps back, from wherever the clock is")
  func clockJumps() throws {
    var session = SimulationSession()
    _ = try session.interpret("device add phone --clock-offset -5m")
    _ = try session.interpret("phone clock +90s")
    #expect(try session.interpret("show diagnostics").text.contains("-3m30s"))
    _ = try session.interpret("phone clock -30s")
    #expect(try session.interpret("show diagnostics").text.contains("-4m"))
    var replay = SimulationSession()
    _ = try replay.execute("device add d1 --clock-offset 0s")
    #expect(try replay.execute("d1 clock +90s").lines.first == "1 d1 clock +90s")
  }
}

@Suite("Playground explore: faults left out with --without")
struct ExploreWithoutTests {
  @Test("--without names fault kinds; the configuration line says what was left out, and a typo is a usage error")
  func withoutIsReportedAndChecked() {
    let files = MemoryFiles()
    let (status, output) = ExploreCommandTests.explore(
      [
        "explore", "--seeds", "0..5", "--steps", "20", "--faults", "hostile", "--without", "zone-deletion,token-expiry",
        "--quiet", "--json", "w.json",
      ], files: files)
    #expect(status == 0)
    #expect(
      output.standardOutput.contains("--faults hostile")
        && output.standardOutput.contains("--without token-expiry,zone-deletion"))
    let typo = ExploreCommandTests.explore(["explore", "--seeds", "0..2", "--without", "zone-delet"], files: files)
    #expect(typo.status == 2)
    #expect(typo.output.standardError.contains("unknown fault kind 'zone-delet'"))
    #expect(typo.output.standardError.contains("did you mean 'zone-deletion'?"))
  }

  @Test("--without server leaves out every server fault kind and nothing else; the configuration line lists them")
  func withoutAPartLeavesOutItsKinds() {
    let (status, output) = ExploreCommandTests.explore(
      ["explore", "--seeds", "0..2", "--steps", "10", "--faults", "hostile", "--without", "server,crash", "--quiet"],
      files: MemoryFiles())
    #expect(status == 0)
    let expected = [
      "crash", "database-token-expiry", "encrypted-data-reset", "quota-full", "throttle", "token-expiry",
      "transient-error", "zone-deletion", "zone-purge",
    ]
    #expect(output.standardOutput.contains("--without " + expected.joined(separator: ",")), "\(output.standardOutput)")
  }
}
