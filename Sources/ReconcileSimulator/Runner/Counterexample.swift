/// A failing run shrunk to a minimal replayable form.
public struct Counterexample: Sendable, Hashable, CustomStringConvertible {
  /// The seed of the original run.
  public var seed: UInt64?
  /// The invariant the shrunk run still breaks, with its message.
  public var violation: InvariantViolation
  /// Steps in the original run.
  public var originalStepCount: Int
  /// The minimal run.
  public var result: SimulationResult
  /// Runs spent shrinking.
  public var shrinkRuns: Int

  /// The shrunk steps.
  public var steps: [SimulationStep] { result.steps }

  /// The replay script of the minimal run.
  public var script: String {
    SimulationScript.render(
      setup: result.setup, steps: result.steps, invariants: result.invariants,
      comments: [seed.map { "seed \($0), shrunk from \(originalStepCount) to \(result.steps.count) steps" }]
        .compactMap { $0 } + ["broke \(violation)"])
  }

  /// A report to print: the broken invariant, the seed and how to replay, the minimal trace, the script.
  public var description: String {
    var lines = ["Invariant broken: \(violation)"]
    if let seed {
      lines.append(
        "Seed \(seed); shrunk from \(originalStepCount) to \(result.steps.count) steps in \(shrinkRuns) runs. "
          + "Replay the seed with `Simulation(seed: \(seed), configuration:)` (in Reconcile's own tests: "
          + "RECONCILE_SEED=\(seed)), or save the script below as failure.rcp and run "
          + "`reconcile-playground replay failure.rcp`.")
    }
    lines.append("Minimal trace:")
    lines += result.trace.map { "  " + $0 }
    lines.append("Script:")
    lines += script.split(separator: "\n").map { "  " + $0 }
    return lines.joined(separator: "\n")
  }
}
