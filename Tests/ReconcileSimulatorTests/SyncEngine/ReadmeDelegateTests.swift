import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// The README's delegate over the sync core, as printed there (check-doc-blocks compiles it; this runs it).
struct ReadmeNotesDelegate: ReplicaBackedDelegate {
  var replica: ZoneReplica<DictionaryReplicaStore>
  var saved: (DictionaryReplicaStore, ReplicaMetadata) { (replica.store, replica.metadata) }

  init(setup: ClientSetup, saved: (DictionaryReplicaStore, ReplicaMetadata)?) {
    let configuration = ReplicaConfiguration(
      zoneID: setup.zoneID, deviceName: setup.name, resolver: setup.resolver, bookkeeping: setup.bookkeeping,
      deletePolicy: setup.deletePolicy, schema: setup.schema)
    replica = ZoneReplica(
      configuration: configuration, store: saved?.0 ?? DictionaryReplicaStore(), metadata: saved?.1 ?? ReplicaMetadata()
    )
  }
  mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    replica.handleEvent(event, syncEngine: &syncEngine)
  }
  mutating func nextRecordZoneChangeBatch(_ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State)
    -> SyncEngine.RecordZoneChangeBatch?
  { replica.nextRecordZoneChangeBatch(context, syncEngine: &syncEngine) }
}

@Suite("The README's delegate over the sync core")
struct ReadmeDelegateTests {
  @Test("it keeps every invariant under swarm faults, editWins, relaunched from what it saved after each crash")
  func readmeDelegateHoldsUnderSwarm() {
    let app = ClientUnderTest(name: "notes-app") {
      try SimulatedReplicaApp<ReadmeNotesDelegate>(setup: $0)
    }
    var configuration = SimulationConfiguration(
      steps: 60, resolver: .fieldMerge, deletePolicy: .editWins, faults: .swarm)
    configuration.client = app
    let report = PropertyRunner(configuration: configuration, seeds: 0..<40, maximumFailures: 1).run()
    #expect(report.passed)
    #expect(report.conflicts > 5, "the runs must collide, or passing proves nothing")
  }
}
