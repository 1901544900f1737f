import Foundation

/// How far the seeded sweeps explore.
///
/// `swift test` runs ``unit``: budgets small enough for a debug build in seconds that still fire every invariant the
/// sweep judges. `Scripts/deep-sweep.sh` runs the same tests in a release build with `RECONCILE_SWEEP=quick` (CI) or
/// `RECONCILE_SWEEP=full` (the nightly workflow), where the budgets are the ones the project's robustness claims name.
public enum SweepDepth: String, Sendable, CaseIterable {
  /// `swift test`'s budgets.
  case unit
  /// CI's deep sweep: the budgets the suite ran before the sweeps moved to release builds.
  case quick
  /// The nightly budgets.
  case full

  /// The depth `RECONCILE_SWEEP` names, `unit` when unset.
  ///
  /// A misspelt depth is a precondition failure naming the choices rather than a silent `unit` run: a nightly job that
  /// asked for `full` and ran `unit` would report a robustness it never checked.
  public static let current: SweepDepth = {
    guard let text = ProcessEnvironment.value("RECONCILE_SWEEP") else { return .unit }
    guard let depth = SweepDepth(rawValue: text) else {
      preconditionFailure(
        "RECONCILE_SWEEP=\(text): expected one of \(allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return depth
  }()
}

/// A seeded sweep's budget at the current depth: how many seeds, how many steps each.
public struct SweepBudget: Sendable, CustomStringConvertible {
  /// The seeds to run; `RECONCILE_SEED=N` narrows them to one.
  public var seeds: Range<UInt64>
  /// Steps per seed, for the sweeps that choose their length.
  public var steps: Int

  /// The budget for the current ``SweepDepth``.
  /// - Parameters:
  ///   - unit: Seeds and steps for `swift test`.
  ///   - quick: Seeds and steps for CI's release sweep.
  ///   - full: Seeds and steps for the nightly sweep.
  public init(unit: (seeds: UInt64, steps: Int), quick: (seeds: UInt64, steps: Int), full: (seeds: UInt64, steps: Int))
  {
    let chosen: (seeds: UInt64, steps: Int)
    switch SweepDepth.current {
    case .unit: chosen = unit
    case .quick: chosen = quick
    case .full: chosen = full
    }
    seeds = TestSeeds.range(0..<chosen.seeds)
    steps = chosen.steps
  }

  /// The same budget at every depth, for a sweep that stops at its first find (the zoo): its budget is a bound.
  /// - Parameter everyDepth: Seeds and steps.
  public init(everyDepth budget: (seeds: UInt64, steps: Int)) {
    self.init(unit: budget, quick: budget, full: budget)
  }

  /// "40 seeds × 100 steps".
  public var description: String { "\(seeds.count) seeds × \(steps) steps" }

  /// Prints the line `Scripts/deep-sweep.sh` gathers into its summary table: the sweep, its depth and budget, and
  /// whether it held.
  /// - Parameters:
  ///   - name: The sweep, as the table names it.
  ///   - failures: How many seeds failed (0 when it held).
  ///   - detail: Anything the table should add, such as the first failing seed.
  public func report(_ name: String, failures: Int, detail: String = "") {
    let verdict = failures == 0 ? "held" : "FAILED (\(failures))"
    print("sweep\t\(name)\t\(SweepDepth.current.rawValue)\t\(self)\t\(verdict)\t\(detail)")
  }
}
