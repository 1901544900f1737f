import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// A merge that keeps both values of a key, judged by the contract it declares for that key.
@Suite("Merge contracts per key: a keep-both merge passes by its contract, and its broken twin is caught")
struct KeyContractTests {
  static let separator = " ‖ "

  static func text(_ value: FieldValue) -> String {
    if case .string(let text) = value { return text }
    return "\(value)"
  }

  /// Keeps both bodies on a conflict, the server's first; every other key as field merge does. As printed in the
  /// *Testing your sync logic* article.
  static let keepBoth = ResolverUnderTest(
    name: "keep-both-bodies",
    resolver: FieldMerge(
      .server,
      overrides: [
        "body": .custom { conflict in
          guard case .string(let server) = conflict.server, case .string(let client) = conflict.client else {
            return conflict.server
          }
          return .string(server + " ‖ " + client)
        }
      ]),
    lostWriteContract: .oneSidedChangesKept,
    keyContracts: ["body": .keepsEveryWrite(separator: " ‖ ")])

  /// Claims the same contract but keeps only the server's body.
  static let brokenTwin = ResolverUnderTest(
    name: "keep-both-broken",
    resolver: FieldMerge(.server, overrides: ["body": .custom { $0.server }]),
    lostWriteContract: .oneSidedChangesKept, keyContracts: ["body": .keepsEveryWrite(separator: separator)])

  /// The keep-both merge judged by today's rule for every key: one of the values.
  static let keepBothJudgedAsOneOf = ResolverUnderTest(
    name: "keep-both-one-of", resolver: keepBoth.resolver, lostWriteContract: .oneSidedChangesKept)

  static func configuration(_ resolver: ResolverUnderTest) -> SimulationConfiguration {
    SimulationConfiguration(steps: 100, resolver: resolver, faults: .flaky)
  }

  @Test("the keep-both merge keeps every invariant under its contract, and its runs do keep both bodies")
  func keepBothPasses() {
    let seeds: Range<UInt64> = 0..<150
    let report = PropertyRunner(configuration: Self.configuration(Self.keepBoth), seeds: seeds).run()
    #expect(report.passed)
    var keptBoth = 0
    for seed in seeds.prefix(60) {
      var simulation = Simulation(seed: seed, configuration: Self.configuration(Self.keepBoth))
      _ = simulation.run()
      let bodies = simulation.server.records(in: Simulation.zoneID, ownedBy: Simulation.user).compactMap { $0["body"] }
      if bodies.contains(where: { Self.text($0).contains(Self.separator) }) { keptBoth += 1 }
    }
    #expect(keptBoth > 5, "the runs must merge concurrent bodies, or passing proves nothing")
  }

  @Test("judged by the one-of rule instead, the same merge is reported as losing writes")
  func oneOfRuleRejectsKeepBoth() {
    let report = PropertyRunner(configuration: Self.configuration(Self.keepBothJudgedAsOneOf), seeds: 0..<150).run()
    #expect(report.failures.contains { $0.violation.invariant == .oneSidedChangesKept })
  }

  @Test("the broken twin, keeping only the server's body under the keep-both contract, is caught and shrunk")
  func brokenTwinIsCaught() throws {
    let report = PropertyRunner(configuration: Self.configuration(Self.brokenTwin), seeds: 0..<150).run()
    let failure = try #require(report.failures.first { $0.violation.invariant == .oneSidedChangesKept })
    #expect(failure.violation.message.contains("every write kept"))
    #expect(failure.steps.count <= 15, "\(failure.script)")
    #expect(!(try Simulation.replay(failure.script, resolvers: [Self.brokenTwin])).passed)
  }

  @Test("keep-both accepts a value carrying every latest write, and nothing less")
  func keepsEveryWriteTable() {
    let contract = KeyContract.keepsEveryWrite(separator: Self.separator)
    let a = FieldValue.string("d1.3")
    let b = FieldValue.string("d2.4")
    #expect(contract.accepts([a, b], .string("d1.3 ‖ d2.4")))
    #expect(contract.accepts([a, b], .string("d2.4 ‖ d1.3")))
    #expect(!contract.accepts([a, b], a), "one of two values is a loss")
    #expect(contract.accepts([a], a))
    #expect(!contract.accepts([a], nil))
    #expect(contract.accepts([nil], nil), "a removal alone leaves the key absent")
    #expect(!contract.accepts([nil], a))
    #expect(contract.accepts([a, nil], a), "a value and a removal keep the value")
    #expect(contract.carries(.string("d2.4 ‖ d1.3"), a))
    #expect(!contract.carries(.string("d1.33"), a), "a part, not a substring")
    #expect(!contract.carries(.int64(3), a))
    #expect(KeyContract.oneOfTheWrites.accepts([a, b], b) && !KeyContract.oneOfTheWrites.accepts([a, b], nil))
  }
}
