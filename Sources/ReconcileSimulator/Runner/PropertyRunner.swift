import Foundation

/// Runs many seeded simulations and shrinks every failure to a minimal, replayable counterexample.
///
/// ```swift
/// let runner = PropertyRunner(configuration: SimulationConfiguration(resolver: .fieldMerge, faults: .flaky),
///                             seeds: 0..<500)
/// let report = runner.run()
/// #expect(report.failures.isEmpty, "\(report)")   // prints the seed, the minimal trace and a replay script
/// ```
///
/// Give a ``Shard`` to run one slice of the seeds, so a CI matrix or a batch scheduler can spread millions of seeds over
/// machines; ``PropertyReport/merged(_:)`` adds the slices' reports back up.
public struct PropertyRunner: Sendable {
  /// The run every seed gets.
  public var configuration: SimulationConfiguration
  /// The seeds.
  public var seeds: Range<UInt64>
  /// The slice of the seeds to run; all when `nil`.
  public var shard: Shard?
  /// The most simulation runs spent shrinking one failure.
  public var maximumShrinkRuns: Int
  /// Stop after this many failures (each is shrunk); all seeds run when `nil`.
  public var maximumFailures: Int?

  /// Creates a runner.
  /// - Parameters:
  ///   - configuration: The run every seed gets.
  ///   - seeds: The seeds.
  ///   - shard: A slice, or `nil` for all.
  ///   - maximumShrinkRuns: 2,000 unless given.
  ///   - maximumFailures: 1 unless given: the first failure is shrunk and reported; `nil` (or 0) runs every seed.
  public init(
    configuration: SimulationConfiguration,
    seeds: Range<UInt64>,
    shard: Shard? = nil,
    maximumShrinkRuns: Int = 2_000,
    maximumFailures: Int? = 1
  ) {
    self.configuration = configuration
    self.seeds = seeds
    self.shard = shard
    self.maximumShrinkRuns = maximumShrinkRuns
    self.maximumFailures = maximumFailures
  }

  /// Runs the seeds of the shard on every active processor; the report is the same as on one thread.
  /// - Returns: How many ran and passed, totals, and each failure shrunk.
  public func run() -> PropertyReport { run(jobs: ProcessInfo.processInfo.activeProcessorCount) { _ in true } }

  /// How far a run has got, for a progress line.
  public struct Progress: Sendable, Hashable {
    /// Seeds run so far.
    public var seedsDone: Int
    /// Seeds the shard holds in all.
    public var seedsTotal: Int
    /// Failures found so far.
    public var failures: Int
    /// Steps run so far.
    public var steps: Int
  }

  /// Runs the seeds of the shard on `jobs` threads, reporting after each seed in seed order; the report is the same
  /// whatever `jobs` is.
  /// - Parameters:
  ///   - jobs: How many seeds run at once; 1 runs them one by one.
  ///   - progress: Called after each seed with how far the run has got; return `false` to start no more seeds (a time
  ///     limit). The report then covers the seeds run, in order, and says it stopped early.
  /// - Returns: How many ran and passed, totals, and each failure shrunk.
  public func run(jobs: Int, progress: (Progress) -> Bool) -> PropertyReport {
    var report = PropertyReport(configuration: configuration)
    let chosen = seeds.lazy.filter { shard?.contains($0) ?? true }
    let total = chosen.count
    var pending = chosen.makeIterator()
    let width = max(1, jobs)
    while true {
      // A batch per thread keeps the threads busy while results are still added in seed order.
      var batch: [UInt64] = []
      while batch.count < width * 4, let seed = pending.next() { batch.append(seed) }
      guard !batch.isEmpty else { break }
      for result in Self.simulate(batch, configuration: configuration, jobs: width) {
        report.add(result)
        if !result.passed, var counterexample = Shrinker.shrink(result, maximumRuns: maximumShrinkRuns) {
          counterexample.faults = configuration.faults
          report.failures.append(counterexample)
        }
        let state = Progress(
          seedsDone: report.seedsRun, seedsTotal: total, failures: report.failures.count, steps: report.stepsRun)
        if let maximumFailures, report.failures.count >= maximumFailures, maximumFailures > 0 {
          report.stoppedEarly = report.seedsRun < total
          _ = progress(state)
          return report
        }
        guard progress(state) else {
          report.stoppedEarly = report.seedsRun < total
          return report
        }
      }
    }
    return report
  }

  private static func simulate(
    _ seeds: [UInt64], configuration: SimulationConfiguration, jobs: Int
  ) -> [SimulationResult] {
    guard jobs > 1, seeds.count > 1 else {
      return seeds.map { seed in
        var simulation = Simulation(seed: seed, configuration: configuration)
        return simulation.run()
      }
    }
    let results = ResultSlots(count: seeds.count)
    DispatchQueue.concurrentPerform(iterations: seeds.count) { index in
      var simulation = Simulation(seed: seeds[index], configuration: configuration)
      results.set(index, simulation.run())
    }
    return results.all
  }
}

/// Results written by several threads, each to its own slot.
private final class ResultSlots: @unchecked Sendable {
  // The lock guards `slots`.
  private let lock = NSLock()
  private var slots: [SimulationResult?]

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ result: SimulationResult) {
    lock.lock()
    slots[index] = result
    lock.unlock()
  }

  var all: [SimulationResult] {
    lock.lock()
    defer { lock.unlock() }
    return slots.compactMap { $0 }
  }
}

/// What a ``PropertyRunner`` found.
public struct PropertyReport: Sendable, Hashable, CustomStringConvertible {
  /// The run every seed got.
  public var configuration: SimulationConfiguration
  /// Seeds run.
  public var seedsRun = 0
  /// Steps performed over all seeds (quiescence not counted).
  public var stepsRun = 0
  /// Requests sent over all seeds.
  public var requests = 0
  /// Conflicts the server reported over all seeds.
  public var conflicts = 0
  /// Failures, each shrunk.
  public var failures: [Counterexample] = []
  /// For each path a sync client can take (see ``SimulationStatistics/paths``), how many runs took it.
  public var runsReaching: [String: Int] = [:]
  /// For each invariant checked, how many runs gave it something to judge (held with checks, or violated).
  public var runsExercising: [Invariant: Int] = [:]
  /// Whether the run stopped before its last seed: at the failure limit, or when asked to (a time limit).
  public var stoppedEarly = false
  /// For each reason the judge sets a record aside (``SimulationResult/setAside``), how many records it set aside over
  /// all runs.
  public var recordsSetAside: [SetAside: Int] = [:]
  /// Records the end-state judge looked at over all runs (``SimulationResult/recordsJudged``).
  public var recordsJudged = 0

  /// Creates an empty report.
  /// - Parameter configuration: The run every seed gets.
  public init(configuration: SimulationConfiguration) { self.configuration = configuration }

  mutating func add(_ result: SimulationResult) {
    let statistics = result.statistics
    seedsRun += 1
    stepsRun += statistics.steps
    requests += statistics.requests
    conflicts += statistics.conflicts
    for (path, count) in statistics.paths { runsReaching[path, default: 0] += count > 0 ? 1 : 0 }
    recordsSetAside.merge(result.setAside, uniquingKeysWith: +)
    recordsJudged += result.recordsJudged
    for (invariant, outcome) in result.outcomes {
      if case .notApplicable = outcome {
        runsExercising[invariant, default: 0] += 0
      } else {
        runsExercising[invariant, default: 0] += 1
      }
    }
  }

  /// The paths no run took: what this seed range never tested.
  public var pathsNeverReached: [String] { Coverage.never(runsReaching) }

  /// The invariants no run gave anything to judge.
  public var invariantsNeverExercised: [Invariant] {
    Coverage.never(exercisedByName).compactMap(Invariant.init(rawValue:))
  }

  /// One line per path and invariant: how many of the runs reached or exercised it, then what none did, and the
  /// records the judge set aside by reason.
  public var coverage: String {
    Coverage.text(
      runsReaching: runsReaching, runsExercising: exercisedByName,
      setAside: Dictionary(uniqueKeysWithValues: recordsSetAside.map { ($0.key.rawValue, $0.value) }),
      recordsJudged: recordsJudged, runs: seedsRun)
      + (configuration.faults.excluded.isEmpty
        ? "" : "\nfaults left out: " + configuration.faults.excluded.map(\.rawValue).sorted().joined(separator: ", "))
  }

  private var exercisedByName: [String: Int] {
    Dictionary(uniqueKeysWithValues: runsExercising.map { ($0.key.rawValue, $0.value) })
  }

  /// Whether every seed passed.
  public var passed: Bool { failures.isEmpty }

  /// Adds up the reports of several shards of one configuration.
  /// - Parameter reports: The shards' reports.
  /// - Returns: One report with every count and failure.
  public static func merged(_ reports: [PropertyReport]) -> PropertyReport? {
    guard var total = reports.first else { return nil }
    for report in reports.dropFirst() {
      total.seedsRun += report.seedsRun
      total.stepsRun += report.stepsRun
      total.requests += report.requests
      total.conflicts += report.conflicts
      total.failures += report.failures
      total.runsReaching.merge(report.runsReaching, uniquingKeysWith: +)
      total.runsExercising.merge(report.runsExercising, uniquingKeysWith: +)
      total.recordsSetAside.merge(report.recordsSetAside, uniquingKeysWith: +)
      total.recordsJudged += report.recordsJudged
      total.stoppedEarly = total.stoppedEarly || report.stoppedEarly
    }
    return total
  }

  /// A summary line, then each failure in a few lines with its replay script (``Counterexample/summary``); the full
  /// trace of a failure is its ``Counterexample/description``, what the runs covered is ``coverage``.
  public var description: String {
    let c = configuration
    var text =
      "\(seedsRun) seeds × \(c.steps) steps, \(c.deviceCount) devices, resolver \(c.resolver), \(c.deletePolicy), "
      + "faults \(c.faults): \(failures.isEmpty ? "all passed" : "\(failures.count) failed"); "
      + "\(requests) requests, \(conflicts) conflicts"
    for failure in failures { text += "\n" + failure.summary }
    return text
  }
}
