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
  /// The fault profile the original run drew its faults from, named in the script's comments (the script's own steps
  /// carry the faults that remain); `nil` when not known.
  public var faults: FaultProfile? = nil

  /// The shrunk steps.
  public var steps: [SimulationStep] { result.steps }

  /// The replay script of the minimal run.
  public var script: String {
    // The resolver's own invariants go unnamed, so the script judges whatever that resolver promises.
    let defaults = Simulation.invariants(for: result.setup.resolver, deletePolicy: result.setup.deletePolicy)
    return SimulationScript.render(
      setup: result.setup, steps: result.steps, invariants: result.invariants == defaults ? nil : result.invariants,
      comments: [
        seed.map { "seed \($0), shrunk from \(originalStepCount) to \(result.steps.count) steps" },
        faults.map { "faults \($0)" }, "broke \(violation)",
      ].compactMap { $0 })
  }

  /// A few lines: the seed and the broken invariant, how far it shrank, how to replay it, and the script.
  public var summary: String {
    var lines = ["\(seed.map { "seed \($0)" } ?? "a run") broke \(violation)"]
    lines.append(
      "  shrunk from \(originalStepCount) to \(result.steps.count) steps; " + SimulationScript.replayHint + ":")
    lines += script.split(separator: "\n").map { "    " + $0 }
    return lines.joined(separator: "\n")
  }

  /// A report to print: the broken invariant, the seed and how to replay, the minimal trace, the script.
  public var description: String {
    var lines = ["Invariant broken: \(violation)"]
    if let seed {
      lines.append(
        "Seed \(seed); shrunk from \(originalStepCount) to \(result.steps.count) steps in \(shrinkRuns) runs. "
          + "Run the seed again with `Simulation(seed: \(seed), configuration:)`, or " + SimulationScript.replayHint
          + ".")
    }
    lines.append("Minimal trace:")
    lines += result.trace.map { "  " + $0 }
    lines.append("Script:")
    lines += script.split(separator: "\n").map { "  " + $0 }
    return lines.joined(separator: "\n")
  }
}
