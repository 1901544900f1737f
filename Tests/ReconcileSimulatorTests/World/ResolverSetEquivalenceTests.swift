import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// A resolver set resolves exactly as its entry does: an app that moves its resolver into a `ResolverSet` (as the
/// default, or as the entry for the record type) changes nothing a run does. Every built-in resolver, in seeded runs
/// with flaky faults and an app upgrade (which exercises the schema guard around the set), gives the same trace step
/// for step as the bare resolver.
@Suite("ResolverSet resolves as its entry")
struct ResolverSetEquivalenceTests {
  @Test(
    "every built-in resolver, alone or as a resolver set's default or type entry, runs the same",
    arguments: ResolverChoice.allCases)
  func setRunsAsItsEntry(_ choice: ResolverChoice) {
    Self.compare(choice, budget: SweepBudget(unit: (6, 120), quick: (40, 200), full: (200, 200)))
  }

  /// The runs where a set once parted from its entry: the core took a set for a resolver it could not read, and read
  /// every key as a counter when it weighed which of its unanswered saves the server showed (a `.text` key's equal
  /// value was not taken for its own landed save, so the merge ran over an older ancestor).
  @Test("merging as a set's entry runs as merging alone on the seeds where the two once parted (70, 108)")
  func setRunsAsItsEntryWhereItOnceParted() {
    Self.compare(.merging, budget: SweepBudget(everyDepth: (1, 200)), seeds: [70, 108])
  }

  static func compare(_ choice: ResolverChoice, budget: SweepBudget, seeds: [UInt64]? = nil) {
    let bare = ResolverUnderTest(choice)
    var failures = 0
    for wrapping in ["default", "type"] {
      var wrapped = bare
      wrapped.name = "\(choice.rawValue)-in-a-set-\(wrapping)"
      wrapped.resolver =
        wrapping == "default"
        ? ResolverSet(default: choice.resolver)
        : ResolverSet(default: ServerLastWriterWins(), byRecordType: ["Note": choice.resolver])
      for seed in seeds ?? Array(budget.seeds) {
        // The built-in clients in turn, one a seed; the schemas both ways.
        let client = [ClientUnderTest.reference, .syncEngine][Int(seed % 2)]
        for schemas in [SchemaScenario.none, .minorUpgrade] {
          var configuration = SimulationConfiguration(
            steps: budget.steps, resolver: bare, faults: .flaky, schemas: schemas)
          configuration.client = client
          var alone = Simulation(seed: seed, configuration: configuration)
          configuration.resolver = wrapped
          configuration.invariants = Simulation.invariants(for: wrapped, deletePolicy: configuration.deletePolicy)
          var inSet = Simulation(seed: seed, configuration: configuration)
          let (expected, actual) = (alone.run(), inSet.run())
          guard expected.trace != actual.trace || expected.passed != actual.passed else { continue }
          failures += 1
          let step =
            expected.trace.indices.first { $0 >= actual.trace.count || expected.trace[$0] != actual.trace[$0] }
            ?? actual.trace.count
          Issue.record(
            """
            \(choice.rawValue) as the set's \(wrapping), client \(client.name), schemas \(schemas): the runs part at trace line \(step): \
            alone "\(step < expected.trace.count ? expected.trace[step] : "-")", in the set \
            "\(step < actual.trace.count ? actual.trace[step] : "-")"; \
            \(TestSeeds.replay(seed, test: "ResolverSetEquivalenceTests"))
            """)
          break
        }
      }
    }
    budget.report("resolver set runs as its entry: \(choice.rawValue)", failures: failures)
  }
}
