import Foundation
import Reconcile

/// What an exploration of many seeds found, as JSON: the configuration, the seeds and shards covered, the totals, the
/// coverage of paths and invariants, and each failure with its replay script. Reports of several shards of one
/// exploration merge into the report of the whole range (``merged(_:)``), so a CI matrix spreads the seeds over
/// machines and one job adds them up.
package struct ExplorationReport: Sendable, Hashable, Codable {
  /// One failure, shrunk.
  package struct Failure: Sendable, Hashable, Codable {
    /// The seed that failed.
    package var seed: UInt64?
    /// The invariant the shrunk run breaks.
    package var invariant: String
    /// What the invariant says is wrong.
    package var message: String
    /// Steps in the original run, and in the shrunk one.
    package var originalSteps: Int
    /// Steps in the shrunk run.
    package var shrunkSteps: Int
    /// The replay script: `reconcile-playground replay` and `run` accept it, and its lines paste into the REPL.
    package var script: String
    /// Where the script was written, when it was.
    package var file: String?
  }

  /// The format of this JSON; a newer format is refused by ``merged(_:)``.
  package var format = 1
  /// The configuration, as the command-line options that repeat it; reports merge only when these are equal.
  package var configuration: String
  /// The first seed of the range.
  package var seedsFrom: UInt64
  /// The end of the range (excluded).
  package var seedsTo: UInt64
  /// How many shards the range was cut into; 1 when it was not.
  package var shardCount: Int
  /// The shards this report covers (0-based); all of them after a complete merge.
  package var shards: [Int]
  /// Seeds run.
  package var seedsRun: Int
  /// Steps run over all seeds (quiescence not counted).
  package var stepsRun: Int
  /// Requests sent over all seeds.
  package var requests: Int
  /// Conflicts over all seeds.
  package var conflicts: Int
  /// Whether some shard stopped before its last seed (a failure limit or a time limit).
  package var stoppedEarly: Bool
  /// Seconds spent, summed over the shards (not compared when reports are checked for equality of results).
  package var seconds: Double
  /// For each client path, how many runs took it.
  package var runsReaching: [String: Int]
  /// For each invariant, how many runs gave it something to judge.
  package var runsExercising: [String: Int]
  /// For each reason the judge sets a record aside (``SetAside``), how many records it set aside over all runs;
  /// `nil` in reports written before it was counted.
  package var recordsSetAside: [String: Int]?
  /// Records the end-state judge looked at over all runs; `nil` in reports written before it was counted.
  package var recordsJudged: Int?
  /// The failures, by seed.
  package var failures: [Failure]

  /// A report of one exploration.
  /// - Parameters:
  ///   - report: What the runner found.
  ///   - configuration: The command-line options that repeat the configuration.
  ///   - seeds: The range.
  ///   - shard: The shard run, or `nil` for all seeds.
  ///   - seconds: Time spent.
  ///   - files: Where each failure's script was written, by index.
  package init(
    _ report: PropertyReport, configuration: String, seeds: Range<UInt64>, shard: Shard?, seconds: Double,
    files: [Int: String] = [:]
  ) {
    self.configuration = configuration
    seedsFrom = seeds.lowerBound
    seedsTo = seeds.upperBound
    shardCount = shard?.count ?? 1
    shards = [shard?.index ?? 0]
    seedsRun = report.seedsRun
    stepsRun = report.stepsRun
    requests = report.requests
    conflicts = report.conflicts
    stoppedEarly = report.stoppedEarly
    self.seconds = seconds
    runsReaching = report.runsReaching
    runsExercising = Dictionary(uniqueKeysWithValues: report.runsExercising.map { ($0.key.rawValue, $0.value) })
    recordsSetAside = Dictionary(uniqueKeysWithValues: report.recordsSetAside.map { ($0.key.rawValue, $0.value) })
    recordsJudged = report.recordsJudged
    failures = report.failures.enumerated().map { index, failure in
      Failure(
        seed: failure.seed, invariant: failure.violation.invariant.rawValue, message: failure.violation.message,
        originalSteps: failure.originalStepCount, shrunkSteps: failure.steps.count, script: failure.script,
        file: files[index])
    }
  }

  /// Whether every seed run passed.
  package var passed: Bool { failures.isEmpty }

  /// Whether the report covers every shard of its range.
  package var isComplete: Bool { shards.sorted() == Array(0..<shardCount) }

  /// The paths no run took.
  package var pathsNeverReached: [String] { Coverage.never(runsReaching) }

  /// The invariants no run gave anything to judge.
  package var invariantsNeverExercised: [String] { Coverage.never(runsExercising) }

  /// How many runs reached each path and exercised each invariant, and what none did.
  package var coverage: String {
    Coverage.text(
      runsReaching: runsReaching, runsExercising: runsExercising, setAside: recordsSetAside ?? [:],
      recordsJudged: recordsJudged, runs: seedsRun)
  }

  /// Adds up the reports of several shards of one exploration.
  /// - Parameter reports: The shards' reports.
  /// - Returns: One report: counts summed, coverage added, failures by seed, shards joined.
  /// - Throws: ``ExplorationReportError`` naming the first report that does not belong: another configuration,
  ///   range or shard count, a shard already counted, or a newer format.
  package static func merged(_ reports: [ExplorationReport]) throws(ExplorationReportError) -> ExplorationReport {
    guard var total = reports.first else { throw .nothingToMerge }
    for (index, report) in reports.enumerated() {
      guard report.format <= 1 else { throw .newerFormat(report: index, format: report.format) }
      guard index > 0 else { continue }
      guard report.configuration == total.configuration else {
        throw .mismatch(
          report: index, what: "configuration", expected: total.configuration, found: report.configuration)
      }
      guard report.seedsFrom == total.seedsFrom, report.seedsTo == total.seedsTo, report.shardCount == total.shardCount
      else {
        throw .mismatch(
          report: index, what: "seed range and shard count",
          expected: "\(total.seedsFrom)..\(total.seedsTo) in \(total.shardCount)",
          found: "\(report.seedsFrom)..\(report.seedsTo) in \(report.shardCount)")
      }
      if let repeated = report.shards.first(where: total.shards.contains) {
        throw .shardRepeated(report: index, shard: repeated)
      }
      total.shards += report.shards
      total.seedsRun += report.seedsRun
      total.stepsRun += report.stepsRun
      total.requests += report.requests
      total.conflicts += report.conflicts
      total.stoppedEarly = total.stoppedEarly || report.stoppedEarly
      total.seconds += report.seconds
      total.runsReaching.merge(report.runsReaching, uniquingKeysWith: +)
      total.runsExercising.merge(report.runsExercising, uniquingKeysWith: +)
      if let judged = report.recordsJudged { total.recordsJudged = (total.recordsJudged ?? 0) + judged }
      if let counted = report.recordsSetAside {
        total.recordsSetAside = (total.recordsSetAside ?? [:]).merging(counted, uniquingKeysWith: +)
      }
      total.failures += report.failures
    }
    total.shards.sort()
    total.failures.sort { ($0.seed ?? 0) < ($1.seed ?? 0) }
    return total
  }
}

/// Reports that do not add up to one exploration.
package enum ExplorationReportError: Error, Sendable, Hashable, DescribedError {
  /// No report was given.
  case nothingToMerge
  /// Report `report` (0-based, in the order given) differs in `what`.
  case mismatch(report: Int, what: String, expected: String, found: String)
  /// Report `report` covers a shard another report already covers.
  case shardRepeated(report: Int, shard: Int)
  /// Report `report` was written by a newer version.
  case newerFormat(report: Int, format: Int)

  /// A sentence naming the report (`report 2`) and the difference.
  package var description: String { description(naming: []) }

  /// A sentence naming the report by its file and the difference.
  /// - Parameter files: The reports' file names, in the order they were merged; a report without one is named by its
  ///   position (`report 2`).
  /// - Returns: `b.json is of another exploration: …`.
  package func description(naming files: [String]) -> String {
    func name(_ report: Int) -> String { files.indices.contains(report) ? files[report] : "report \(report + 1)" }
    return switch self {
    case .nothingToMerge: "no report to merge"
    case .mismatch(let report, let what, let expected, let found):
      "\(name(report)) is of another exploration: its \(what) is \(found), not \(expected)"
    case .shardRepeated(let report, let shard):
      "\(name(report)) covers shard \(shard), which an earlier report already covers"
    case .newerFormat(let report, let format):
      "\(name(report)) has format \(format), newer than this version reads (1)"
    }
  }
}
