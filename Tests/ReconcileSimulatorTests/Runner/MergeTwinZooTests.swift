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

  /// The line merge before 0.28: a text without a final line break read as one whose last line differs from the same
  /// line with a break (so appending a line overlaps an edit of any line next to the end), and an overlap's two
  /// versions joined byte for byte (so a line of one side ran into a line of the other). Users' notes end without a
  /// break; the workload's bodies do half the time, so ordinary runs meet it.
  static let joinsLinesWithoutFinalBreak = FieldMerge.Policy.custom { field in
    let end = "\u{1}\n"
    func marked(_ value: FieldValue?) -> FieldValue? {
      guard case .string(let text)? = value, !text.isEmpty, !text.hasSuffix("\n") else { return value }
      return .string(text + end)
    }
    func note(_ value: FieldValue?) -> Record {
      var note = Record(recordType: "Note", recordID: field.conflict.server.recordID)
      note["body"] = value
      return note
    }
    let merged = try FieldMerge(.server, overrides: ["body": .text(.line, overlap: .both)]).resolve(
      Conflict(
        client: note(marked(field.client)), ancestor: field.ancestor.map { note(marked($0)) },
        server: note(marked(field.server))))
    guard case .string(let text)? = merged["body"] else { return merged["body"] }
    return .string(text.replacingOccurrences(of: end, with: ""))
  }

  static let twins: [(key: String, broken: FieldMerge.Policy, name: String, file: String)] = [
    ("body", .server, "text kept from the server's side", "twin-body-server"),
    (
      "body", joinsLinesWithoutFinalBreak, "line merge that joins lines of a text without a final break",
      "twin-body-joined-lines"
    ),
    ("plays", .client, "counter taken from the client's side", "twin-plays-client"),
    ("plays", doublingCounter, "counter that counts the ancestor twice", "twin-plays-doubled"),
    ("tags", .server, "set kept from the server's side", "twin-tags-server"),
    ("steps", .server, "ordered list kept from the server's side", "twin-steps-server"),
  ]

  static func configuration(_ resolver: ResolverUnderTest) -> SimulationConfiguration {
    SimulationConfiguration(steps: 60, resolver: resolver, faults: .none)
  }

  @Test(
    "each twin's committed script loses a one-sided change of its key, and the real policies keep it",
    arguments: twins.indices)
  func committedScriptCatches(_ index: Int) throws {
    let (key, broken, name, file) = Self.twins[index]
    let twin = Self.twin(key, broken)
    let script = try ZooScripts.script(file)
    let replayed = try Simulation.replay(script, resolvers: [twin])
    let lost = replayed.violations.first { $0.invariant == .oneSidedChangesKept }
    #expect(lost?.message.contains(key) == true, "the \(name) did not lose \(key): \(replayed.violations)\n\(script)")
    let honest = script.replacingOccurrences(of: "resolver \(twin.name)\n", with: "resolver merging\n")
    #expect(honest != script, "the script must name the twin's resolver:\n\(script)")
    let healthy = try Simulation.replay(honest)
    #expect(healthy.passed, "the real policies fail the \(name)'s script too: \(healthy.violations)")
  }

  @Test(
    "the runner catches each twin within the budget and shrinks it to at most 15 steps that replay",
    .enabled(if: ZooScripts.searches, "the search runs in the deep sweep"), arguments: twins.indices)
  func twinCaughtAndShrunk(_ index: Int) throws {
    let (key, broken, name, file) = Self.twins[index]
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
    try ZooScripts.keep(
      failure, as: file, pins: "the \(name) loses a one-sided change of \(key); the real policies keep it",
      seeds: Self.budget)
  }

  /// The twins' seeds in the deep sweep; half of them in `swift test`.
  static let realPolicies = SweepBudget(unit: (100, 60), quick: (budget, 60), full: (budget, 60))

  @Test("the real policies pass the same seeds, and their runs merge each key from several devices' edits")
  func realPoliciesPassAndMerge() {
    let configuration = Self.configuration(ResolverUnderTest(ResolverChoice.merging))
    // A body, count, tag set or step list no device wrote: the runs merged rather than picked a side.
    var merged: [String: Int] = [:]
    var failures = 0
    for seed in Self.realPolicies.seeds {
      var simulation = Simulation(seed: seed, configuration: configuration)
      let result = simulation.run()
      if !result.passed {
        failures += 1
        Issue.record(
          "seed \(seed): \(result.violations) (replay: RECONCILE_SEED=\(seed) swift test --filter MergeTwinZooTests)")
      }
      var written: [String: Set<FieldValue>] = [:]
      for case .edit(_, _, _, let values, _) in result.steps {
        for (key, value) in values { if let value { written[key, default: []].insert(value) } }
      }
      for record in simulation.server.records(in: Simulation.zoneID, ownedBy: Simulation.user) {
        for key in ResolverChoice.mergingPolicies.keys {
          if let value = record[key], written[key]?.contains(value) != true { merged[key, default: 0] += 1 }
        }
      }
    }
    Self.realPolicies.report("merging's real policies on the twins' seeds", failures: failures)
    // One merged value in ten seeds, for each key.
    let enough = Self.realPolicies.seeds.count / 10
    for key in ResolverChoice.mergingPolicies.keys {
      #expect(merged[key, default: 0] >= enough, "only \(merged[key, default: 0]) values of \(key) were merges")
    }
    print("merged values by key over \(Self.realPolicies): \(merged.sorted { $0.key < $1.key })")
  }
}
