import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// A zone populated before the run (the benchmark's measure of a step's cost in a large zone): every device holds the
/// populated records, the workload never touches them, and a run that populates nothing draws what it drew before.
@Suite("A populated zone: every device holds its records, and the workload never touches them")
struct PopulatedZoneTests {
  static func configuration(populated: Int) -> SimulationConfiguration {
    var configuration = SimulationConfiguration(deviceCount: 3, steps: 80, resolver: .fieldMerge, faults: .flaky)
    configuration.populatedRecords = populated
    return configuration
  }

  @Test("every device holds the populated records, which keep the version they were saved as, and invariants hold")
  func populatedRecordsStayUntouched() throws {
    var simulation = Simulation(seed: 3, configuration: Self.configuration(populated: 60))
    let populatedAll = simulation.populate()
    #expect(populatedAll)
    let populated = simulation.server.records(in: Simulation.zoneID, ownedBy: Simulation.user)
      .filter { $0.recordID.recordName.hasPrefix(Simulation.populatedPrefix) }
    #expect(populated.count == 60)
    for client in simulation.clients {
      let held = client.recordIDs.filter { $0.recordName.hasPrefix(Simulation.populatedPrefix) }
      #expect(held.count == 60, "a device holds \(held.count) of the 60 populated records")
    }
    let result = simulation.run()
    #expect(result.violations.isEmpty, "\(result.violations)")
    let tags = Dictionary(uniqueKeysWithValues: populated.map { ($0.recordID, $0.recordChangeTag) })
    let after = simulation.server.records(in: Simulation.zoneID, ownedBy: Simulation.user)
      .filter { $0.recordID.recordName.hasPrefix(Simulation.populatedPrefix) }
    #expect(after.count == 60)
    for record in after {
      #expect(tags[record.recordID] == record.recordChangeTag, "the workload saved \(record.recordID.recordName)")
    }
    #expect(result.statistics.steps == 80)
  }

  @Test("a run that populates nothing draws the same steps as one whose configuration never heard of populating")
  func populatingNothingChangesNothing() {
    var plain = Simulation(seed: 11, configuration: Self.configuration(populated: 0))
    let populatedNone = plain.populate()
    #expect(populatedNone)
    let populatedNothing = plain.run()
    var untouched = Simulation(
      seed: 11,
      configuration: SimulationConfiguration(
        deviceCount: 3, steps: 80, resolver: .fieldMerge, faults: .flaky))
    let never = untouched.run()
    #expect(populatedNothing.steps == never.steps)
    #expect(populatedNothing.trace == never.trace)
  }
}
