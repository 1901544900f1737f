import Foundation
import ReconcileSimulator
import ReconcileTestSupport
import Testing

extension SweepBudget {
  /// The deep sweep's line for a zoo entry: which seed caught it and how short it shrank, or that nothing did.
  /// - Parameters:
  ///   - name: The defect or twin.
  ///   - found: The first counterexample, if the runner found one.
  func reportCatch(_ name: String, _ found: Counterexample?) {
    report(
      name, failures: found == nil ? 1 : 0,
      detail: found.map { "caught at seed \($0.seed.map(String.init) ?? "?"), shrunk to \($0.steps.count) steps" }
        ?? "not caught")
  }
}

/// The zoo's counterexamples, one committed script per entry in `Tests/Zoo`: what the runner found and shrank for
/// each defect and twin.
///
/// `swift test` replays them, which pins each rule in milliseconds: the script breaks the invariant made for the bug,
/// and passes once the bug goes. The search that finds and shrinks them runs in the deep sweep (release builds), where
/// `RECONCILE_ZOO_WRITE=1` writes each fresh catch over its script:
///
///     RECONCILE_ZOO_WRITE=1 RECONCILE_SWEEP=quick swift test -c release --filter Zoo
enum ZooScripts {
  /// `Tests/Zoo`.
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Zoo")

  /// Whether the search runs: in the deep sweep, or when asked to write the scripts.
  static let searches = SweepDepth.current != .unit || ProcessInfo.processInfo.environment["RECONCILE_ZOO_WRITE"] != nil

  /// The committed script for `name`.
  /// - Parameter name: The entry's file name, without `.rcp`.
  /// - Returns: Its text.
  static func script(_ name: String) throws -> String {
    let url = folder.appendingPathComponent(name + ".rcp")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
      Issue.record(
        "no committed script \(url.path): write the zoo's scripts with RECONCILE_ZOO_WRITE=1 RECONCILE_SWEEP=quick swift test --filter Zoo"
      )
      throw CancellationError()
    }
    return text
  }

  /// Writes `failure` as `name`'s script when `RECONCILE_ZOO_WRITE` is set, under a header saying what it pins.
  /// - Parameters:
  ///   - failure: The shrunk counterexample.
  ///   - name: The entry's file name, without `.rcp`.
  ///   - pins: What the script shows, for its first line.
  ///   - seeds: The seed budget the runner searched.
  static func keep(_ failure: Counterexample, as name: String, pins: String, seeds: UInt64) throws {
    guard ProcessInfo.processInfo.environment["RECONCILE_ZOO_WRITE"] != nil else { return }
    let header = [
      "# \(pins)",
      "# origin: the zoo's search (\(seeds) seeds), caught at seed \(failure.seed.map(String.init) ?? "?") and shrunk to "
        + "\(failure.steps.count) steps; rewrite with RECONCILE_ZOO_WRITE=1",
    ]
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try (header.joined(separator: "\n") + "\n" + failure.script + (failure.script.hasSuffix("\n") ? "" : "\n")).write(
      to: folder.appendingPathComponent(name + ".rcp"), atomically: true, encoding: .utf8)
  }

  /// `script` without its `defect NAME` line.
  static func repaired(_ script: String, removing defect: ClientDefect) -> String {
    script.split(separator: "\n", omittingEmptySubsequences: false).filter { $0 != "defect \(defect.rawValue)" }
      .joined(separator: "\n")
  }

  /// Checks both ways that `defect`, not the steps, breaks `invariant` in `script`: replayed, the script breaks it;
  /// without its `defect` line, the script passes. Failures are recorded as issues naming the defect.
  static func expectCaught(_ script: String, by defect: ClientDefect, as invariant: Invariant) throws {
    #expect(script.contains("\ndefect \(defect.rawValue)\n"), "\(defect): the script must name the defect")
    let replayed = try Simulation.replay(script)
    #expect(
      replayed.violations.contains { $0.invariant == invariant },
      "\(defect) did not break \(invariant): \(replayed.violations)\n\(script)")
    let healthy = try Simulation.replay(repaired(script, removing: defect))
    #expect(healthy.passed, "\(defect): the script fails without the defect too:\n\(healthy.violations)")
  }
}
