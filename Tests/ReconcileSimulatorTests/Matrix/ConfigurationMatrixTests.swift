import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// Every combination of the options a user can pick on the command line — built-in client × resolver × delete policy
/// × fault profile × schemas, 288 in all — explored at CI's budget: 40 seeds × 100 steps each, every seed run. The
/// nightly workflow and `../shared/tools/explore-matrix.sh` explore the same matrix at 500 seeds × 200 steps.
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
        steps: ConfigurationMatrixTests.steps, resolver: resolver, deletePolicy: deletePolicy, faults: faults,
        schemas: schemas)
      configuration.client = client
      if client != .reference { configuration.maximumClockSkew = 0 }
      return configuration
    }
  }

  /// CI's budget per cell.
  static let seeds: UInt64 = 40
  static let steps = 100

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

  @Test("each cell keeps every invariant over CI's seed budget", arguments: cells)
  func cellHolds(_ cell: Cell) {
    let report = PropertyRunner(configuration: cell.configuration, seeds: 0..<Self.seeds, maximumFailures: 1).run()
    #expect(
      report.failures.isEmpty,
      "\(cell.testDescription): \(report.failures.first.map { "\($0.script)" } ?? "")")
    // The runs must reach the server, or passing proves nothing.
    #expect(report.requests > 0)
  }
}
