import ReconcileSimulator
import ReconcileTestSupport

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
