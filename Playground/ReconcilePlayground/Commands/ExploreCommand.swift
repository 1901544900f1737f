import Foundation
import ReconcileSimulator

/// `explore [--seeds A..B] [--shard I/N] [simulation options] [--until-failures N] [--time-limit T] [--out DIR]
/// [--json FILE] [--jobs N] [--quiet]`: the property runner from the command line. It runs every seed of the range (or
/// of one shard of it), shows a progress line on standard error, shrinks each failure to a script file that `replay`
/// and `run` accept, and prints the totals and the coverage summary. `explore merge A.json B.json … [--json FILE]`
/// adds up the reports of several shards. Exits 1 when a seed failed.
enum ExploreCommand {
  static func usage(_ environment: PlaygroundEnvironment) -> String {
    CommandHelp.usage(of: "explore", as: environment.commandName)
  }

  static func run(arguments: [String], output: some TextOutput, environment: PlaygroundEnvironment) -> Int32 {
    if arguments.first == "merge" {
      return merge(Array(arguments.dropFirst()), output: output, environment: environment)
    }
    let plan: Plan
    do {
      plan = try Plan(arguments, environment: environment)
    } catch {
      output.writeError("error: \(error)\n" + usage(environment))
      return ExitStatus.usage
    }
    let start = environment.now()
    var progress = ProgressLine(environment: environment, output: output, quiet: plan.quiet, start: start)
    let runner = PropertyRunner(
      configuration: plan.configuration, seeds: plan.seeds, shard: plan.shard,
      maximumFailures: plan.untilFailures == 0 ? nil : plan.untilFailures)
    let report = runner.run(jobs: plan.jobs) { state in
      progress.update(state)
      guard let limit = plan.timeLimit else { return true }
      return environment.now().timeIntervalSince(start) < limit
    }
    progress.finish()
    let seconds = environment.now().timeIntervalSince(start)
    var files: [Int: String] = [:]
    for (index, failure) in report.failures.enumerated() {
      let name =
        "explore-seed-\(failure.seed.map(String.init) ?? "unknown")-\(failure.violation.invariant.rawValue).rcp"
      let path = (plan.outputFolder as NSString).appendingPathComponent(name)
      do {
        try environment.writeFile(path, Data(failure.script.utf8))
        files[index] = path
      } catch {
        output.writeError("error: cannot write \(path): \(error.localizedDescription)\n")
      }
    }
    let exploration = ExplorationReport(
      report, configuration: SimulationOptions.arguments(for: plan.configuration), seeds: plan.seeds, shard: plan.shard,
      seconds: seconds, files: files)
    output.write(summary(of: exploration, command: environment.commandName))
    if let path = plan.jsonPath, !write(exploration, to: path, output: output, environment: environment) {
      return ExitStatus.failed
    }
    return exploration.passed ? ExitStatus.ok : ExitStatus.failed
  }

  /// What the command line asks for.
  struct Plan {
    var configuration: SimulationConfiguration
    var seeds: Range<UInt64>
    var shard: Shard?
    var untilFailures: Int
    var timeLimit: TimeInterval?
    var outputFolder: String
    var jsonPath: String?
    var jobs: Int
    var quiet: Bool

    init(_ arguments: [String], environment: PlaygroundEnvironment) throws(CommandLineOptions.Problem) {
      let options = try CommandHelp.parse(arguments, as: "explore")
      if let word = options.positional.first { throw CommandLineOptions.Problem(description: "unexpected \(word)") }
      configuration = try SimulationOptions.configuration(options, environment: environment)
      seeds = try Self.seeds(options.values["--seeds"] ?? "0..1000")
      if let text = options.values["--shard"] {
        do {
          shard = try Shard(parsing: text)
        } catch {
          throw CommandLineOptions.Problem(description: "--shard \(error)")
        }
      }
      untilFailures = try options.integer("--until-failures", default: 1, in: 0...1_000_000)
      if let text = options.values["--time-limit"] {
        do {
          timeLimit = try DurationSyntax.parse(text)
        } catch {
          throw CommandLineOptions.Problem(description: "--time-limit \(text): \(error.message)")
        }
        guard let limit = timeLimit, limit > 0 else {
          throw CommandLineOptions.Problem(description: "--time-limit \(text): expected a positive duration")
        }
      }
      outputFolder = options.values["--out"] ?? "."
      jsonPath = options.values["--json"]
      jobs = try options.integer("--jobs", default: max(1, environment.processorCount), in: 1...1_024)
      quiet = options.flags.contains("--quiet")
    }

    /// `A..B` (B excluded) or `N` (0..N).
    static func seeds(_ text: String) throws(CommandLineOptions.Problem) -> Range<UInt64> {
      let parts = text.components(separatedBy: "..")
      let bounds = parts.map { UInt64($0.trimmingCharacters(in: .whitespaces)) }
      switch (parts.count, bounds.first ?? nil, bounds.last ?? nil) {
      case (1, _, let end?): return 0..<end
      case (2, let start?, let end?) where start <= end: return start..<end
      default:
        throw CommandLineOptions.Problem(
          description: "--seeds \(text): expected A..B with 0 ≤ A ≤ B (B excluded), or a count N")
      }
    }
  }

  /// The totals, rates, coverage, the records the judge set aside, and failures, for standard output.
  /// - Parameters:
  ///   - report: The report.
  ///   - command: The command that replays a failure's file: `reconcile-playground`, or the user's own.
  static func summary(of report: ExplorationReport, command: String) -> String {
    var lines: [String] = []
    let shards =
      report.shardCount == 1
      ? ""
      : " (shard\(report.shards.count == 1 ? "" : "s") "
        + report.shards.map { "\($0)" }.joined(separator: ", ") + " of \(report.shardCount))"
    lines.append(
      "explored seeds \(report.seedsFrom)..\(report.seedsTo)\(shards): \(report.seedsRun) seeds, "
        + "\(report.stepsRun) steps, \(report.requests) requests, \(report.conflicts) conflicts: "
        + (report.passed ? "all passed" : "\(report.failures.count) failed"))
    lines.append("configuration: \(report.configuration)")
    if report.seconds > 0 {
      lines.append(
        String(
          format: "%.1f s, %.0f seeds/s, %.0f steps/s", report.seconds, Double(report.seedsRun) / report.seconds,
          Double(report.stepsRun) / report.seconds))
    }
    if report.stoppedEarly { lines.append("stopped early (a failure limit or the time limit): not every seed ran") }
    let paths = report.runsReaching.keys.sorted().map { "\($0) \(report.runsReaching[$0] ?? 0)" }
    lines.append("runs reaching each path: " + paths.joined(separator: ", "))
    let checked = report.runsExercising.keys.sorted().map { "\($0) \(report.runsExercising[$0] ?? 0)" }
    lines.append("runs exercising each invariant: " + checked.joined(separator: ", "))
    lines.append(
      "never reached: "
        + (report.pathsNeverReached.isEmpty ? "nothing" : report.pathsNeverReached.joined(separator: ", ")))
    lines.append(
      "never exercised: "
        + (report.invariantsNeverExercised.isEmpty
          ? "nothing" : report.invariantsNeverExercised.joined(separator: ", ")))
    lines.append(Coverage.setAsideLine(report.recordsSetAside ?? [:], recordsJudged: report.recordsJudged))
    for failure in report.failures {
      lines.append("")
      lines.append("seed \(failure.seed.map(String.init) ?? "?") broke \(failure.invariant): \(failure.message)")
      lines.append("  shrunk from \(failure.originalSteps) to \(failure.shrunkSteps) steps")
      if let file = failure.file {
        lines.append("  replay it: \(command) replay \(file)")
      } else {
        lines += failure.script.split(separator: "\n").map { "  " + $0 }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func write(
    _ report: ExplorationReport, to path: String, output: some TextOutput, environment: PlaygroundEnvironment
  ) -> Bool {
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try environment.writeFile(path, try encoder.encode(report))
      return true
    } catch {
      output.writeError("error: cannot write the report to \(path): \(error.localizedDescription)\n")
      return false
    }
  }

  /// `explore merge A.json B.json … [--json FILE] [--partial]`: exits 1 when a seed failed, when a report does not
  /// belong, or when a shard's report is missing — unless `--partial` accepts a report of the shards given.
  static func merge(_ arguments: [String], output: some TextOutput, environment: PlaygroundEnvironment) -> Int32 {
    let options: CommandLineOptions
    do {
      options = try CommandLineOptions(arguments, valued: ["--json"], switches: ["--partial"])
      guard !options.positional.isEmpty else {
        throw CommandLineOptions.Problem(description: "explore merge needs report files")
      }
    } catch {
      output.writeError(
        "error: \(error)\nusage: reconcile-playground explore merge A.json B.json … [--json FILE] [--partial]\n")
      return ExitStatus.usage
    }
    var reports: [ExplorationReport] = []
    for path in options.positional {
      do {
        reports.append(try JSONDecoder().decode(ExplorationReport.self, from: try environment.readFile(path)))
      } catch {
        output.writeError("error: \(path) is not an exploration report: \(error.localizedDescription)\n")
        return ExitStatus.failed
      }
    }
    let merged: ExplorationReport
    do {
      merged = try ExplorationReport.merged(reports)
    } catch {
      output.writeError("error: \(error.description(naming: options.positional))\n")
      return ExitStatus.failed
    }
    output.write(summary(of: merged, command: environment.commandName))
    var complete = true
    if !merged.isComplete {
      let missing = Set(0..<merged.shardCount).subtracting(merged.shards).sorted()
      let list = missing.map(String.init).joined(separator: ", ")
      if options.flags.contains("--partial") {
        output.write("partial: shards \(list) of \(merged.shardCount) are missing\n")
      } else {
        complete = false
        output.writeError(
          "error: shards \(list) of \(merged.shardCount) are missing: a shard's job did not report (pass --partial to "
            + "accept the shards given)\n")
      }
    }
    if let path = options.values["--json"], !write(merged, to: path, output: output, environment: environment) {
      return ExitStatus.failed
    }
    return merged.passed && complete ? ExitStatus.ok : ExitStatus.failed
  }
}

/// The progress of an exploration on standard error: on a terminal one line rewritten in place a few times a second;
/// otherwise a plain line every tenth of the seeds.
struct ProgressLine<Output: TextOutput> {
  let environment: PlaygroundEnvironment
  let output: Output
  let quiet: Bool
  let start: Date
  var lastDraw = Date.distantPast
  var lastTenth = 0
  var drawn = false

  init(environment: PlaygroundEnvironment, output: Output, quiet: Bool, start: Date) {
    self.environment = environment
    self.output = output
    self.quiet = quiet
    self.start = start
  }

  mutating func update(_ state: PropertyRunner.Progress) {
    guard !quiet, state.seedsTotal > 0 else { return }
    let now = environment.now()
    if environment.progressIsTerminal {
      guard now.timeIntervalSince(lastDraw) >= 0.2 || state.seedsDone == state.seedsTotal else { return }
      lastDraw = now
      output.writeError("\r\u{1B}[2K" + Self.line(state, elapsed: now.timeIntervalSince(start)))
      drawn = true
    } else {
      let tenth = state.seedsDone * 10 / state.seedsTotal
      guard tenth > lastTenth else { return }
      lastTenth = tenth
      output.writeError(Self.line(state, elapsed: now.timeIntervalSince(start)) + "\n")
    }
  }

  mutating func finish() {
    if drawn { output.writeError("\n") }
  }

  /// `explore: 1200/2000 seeds (60%), 480 seeds/s, 0 failures, 2.5s elapsed, ~1.7s left`.
  static func line(_ state: PropertyRunner.Progress, elapsed: TimeInterval) -> String {
    let rate = elapsed > 0 ? Double(state.seedsDone) / elapsed : 0
    let left = rate > 0 ? Double(state.seedsTotal - state.seedsDone) / rate : 0
    return String(
      format: "explore: %d/%d seeds (%.0f%%), %.0f seeds/s, %d failure%@, %.1fs elapsed, ~%.1fs left",
      state.seedsDone, state.seedsTotal, Double(state.seedsDone) * 100 / Double(state.seedsTotal), rate,
      state.failures, state.failures == 1 ? "" : "s", elapsed, left)
  }
}
