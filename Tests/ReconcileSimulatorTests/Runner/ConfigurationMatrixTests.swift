import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// Every combination of the options a user can pick on the command line — built-in client × resolver × delete policy
/// × fault profile × schemas, 288 in all — every seed run. `swift test` runs 2 seeds × 60 steps a cell, enough to
/// reach the server in every cell; `Scripts/deep-sweep.sh` runs 40 × 100 in CI and 500 × 200 nightly, in release.
@Suite("Every configuration a user can pick keeps every invariant")
struct ConfigurationMatrixTests {
  /// One combination.
  struct Cell: Sendable, CustomTestStringConvertible {
    var client: ClientUnderTest
    var resolver: ResolverChoice
    var deletePolicy: DeletePolicy
    var faults: FaultProfile
    var schemas: SchemaScenario

    var testDescription: String {
      "\(client.name) \(resolver.rawValue) \(deletePolicy) \(faults.name) \(schemas.rawValue)"
    }

    /// The world every seed of the cell runs in; the CKSyncEngine stand-in runs with true clocks, as the matrix does.
    var configuration: SimulationConfiguration {
      var configuration = SimulationConfiguration(
        steps: ConfigurationMatrixTests.budget.steps, resolver: resolver, deletePolicy: deletePolicy, faults: faults,
        schemas: schemas)
      configuration.client = client
      if client != .reference { configuration.maximumClockSkew = 0 }
      return configuration
    }
  }

  /// The budget per cell at the current sweep depth.
  static let budget = SweepBudget(unit: (2, 60), quick: (40, 100), full: (500, 200))

  static let cells: [Cell] = [ClientUnderTest.reference, .syncEngine].flatMap { client in
    ResolverChoice.allCases.flatMap { resolver in
      DeletePolicy.allCases.flatMap { policy in
        FaultProfile.presets.flatMap { faults in
          SchemaScenario.allCases.map {
            Cell(client: client, resolver: resolver, deletePolicy: policy, faults: faults, schemas: $0)
          }
        }
      }
    }
  }

  @Test("the matrix has every combination the command line offers")
  func matrixIsWhole() {
    #expect(Self.cells.count == 2 * ResolverChoice.allCases.count * 2 * FaultProfile.presets.count * 3)
    #expect(Self.cells.count == 288)
  }

  @Test("each cell keeps every invariant over the sweep's seed budget", arguments: cells)
  func cellHolds(_ cell: Cell) {
    let report = PropertyRunner(configuration: cell.configuration, seeds: Self.budget.seeds, maximumFailures: 1).run()
    Self.budget.report(
      "matrix \(cell.testDescription)", failures: report.failures.count,
      detail: report.failures.first.map { "seed \($0.seed.map(String.init) ?? "?")" } ?? "")
    #expect(
      report.failures.isEmpty,
      "\(cell.testDescription): \(report.failures.first.map { "\($0.script)" } ?? "")")
    // The runs must reach the server, or passing proves nothing.
    #expect(report.requests > 0)
  }
}
