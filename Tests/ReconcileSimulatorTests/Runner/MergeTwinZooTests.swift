import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// The zoo of broken merges: each merging policy of the `merging` resolver, swapped for a twin that picks a side (or
/// counts an increment twice) while the resolver still claims the policy's contract. Seeded runs edit the merged keys
/// in place — text lines inserted and deleted, counters incremented, tags added and removed, steps inserted, removed
/// and moved — so within the CI budget the runner must catch each twin under `oneSidedChangesKept` and shrink it to a
/// short script that replays; and the real policies must pass the same seeds, having merged along the way.
@Suite("Zoo: seeded runs catch a broken twin of every merging policy and shrink it")
struct MergeTwinZooTests {
  /// Seeds the runner may spend on one twin in CI.
  static let budget: UInt64 = 200

  /// `merging`'s policies with `key`'s swapped for `broken`, under `merging`'s contracts.
  static func twin(_ key: String, _ broken: FieldMerge.Policy) -> ResolverUnderTest {
    var policies = ResolverChoice.mergingPolicies
    policies[key] = broken
    let honest = ResolverUnderTest(ResolverChoice.merging)
    return ResolverUnderTest(
      name: "merging-broken-\(key)", resolver: FieldMerge(.server, overrides: policies),
      lostWriteContract: .oneSidedChangesKept, keyContracts: honest.keyContracts)
  }

  /// Forgets to take the ancestor away: the client's whole count is added to the server's.
  static let doublingCounter = FieldMerge.Policy.custom { field in
    guard case .int64(let server) = field.server, case .int64(let client) = field.client else { return field.server }
    return .int64(server &+ client)
  }

  static let twins: [(key: String, broken: FieldMerge.Policy, name: String)] = [
    ("body", .server, "text kept from the server's side"),
    ("plays", .client, "counter taken from the client's side"),
    ("plays", doublingCounter, "counter that counts the ancestor twice"),
    ("tags", .server, "set kept from the server's side"),
    ("steps", .server, "ordered list kept from the server's side"),
  ]

  static func configuration(_ resolver: ResolverUnderTest) -> SimulationConfiguration {
    SimulationConfiguration(steps: 60, resolver: resolver, faults: .none)
  }

  @Test(
    "the runner catches each twin within the budget and shrinks it to at most 15 steps that replay",
    arguments: twins.indices)
  func twinCaughtAndShrunk(_ index: Int) throws {
    let (key, broken, name) = Self.twins[index]
    let twin = Self.twin(key, broken)
    let report = PropertyRunner(configuration: Self.configuration(twin), seeds: 0..<Self.budget).run()
    let found = report.failures.first
    SweepBudget(everyDepth: (Self.budget, 60)).reportCatch("zoo twin \(name)", found)
    let failure = try #require(found, "the \(name) was not caught in \(Self.budget) seeds")
    #expect(failure.violation.invariant == .oneSidedChangesKept, "\(name): \(failure)")
    #expect(failure.violation.message.contains(key), "\(name): \(failure.violation.message)")
    #expect(failure.steps.count <= 15, "\(name) shrank only to \(failure.steps.count) steps:\n\(failure.script)")
    let replayed = try Simulation.replay(failure.script, resolvers: [twin])
    #expect(!replayed.passed, "\(name) did not replay:\n\(failure.script)")
  }

  @Test("the real policies pass the same seeds, and their runs merge each key from several devices' edits")
  func realPoliciesPassAndMerge() {
    let configuration = Self.configuration(ResolverUnderTest(ResolverChoice.merging))
    let report = PropertyRunner(configuration: configuration, seeds: 0..<Self.budget).run()
    #expect(report.passed, "\(report.failures.first.map { "\($0)" } ?? "")")
    // A body, count, tag set or step list no device wrote: the runs merged rather than picked a side.
    var merged: [String: Int] = [:]
    for seed in 0..<Self.budget {
      var simulation = Simulation(seed: seed, configuration: configuration)
      let result = simulation.run()
      var written: [String: Set<FieldValue>] = [:]
      for case .edit(_, _, let values) in result.steps {
        for (key, value) in values { if let value { written[key, default: []].insert(value) } }
      }
      for record in simulation.server.records(in: Simulation.zoneID, ownedBy: Simulation.user) {
        for key in ResolverChoice.mergingPolicies.keys {
          if let value = record[key], written[key]?.contains(value) != true { merged[key, default: 0] += 1 }
        }
      }
    }
    for key in ResolverChoice.mergingPolicies.keys {
      #expect(merged[key, default: 0] >= 20, "only \(merged[key, default: 0]) values of \(key) were merges")
    }
  }
}
