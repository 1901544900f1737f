import Foundation
import Reconcile
import ReconcileSimulator

/// An app whose notes and sync metadata live apart — a database and a file — so that no transaction holds both:
/// after every event and user action it writes the metadata, then the store, as
/// `ReplicaPersistence.metadataThenStore` says (two writes a step, ``persistenceWrites``), and the simulation's torn
/// crashes strike between them. Written from Reconcile's public API only; ``Order`` also builds the two mistakes the
/// contract rules out, for the tests that must see them fail.
struct TwoWriteDelegate: SimulatedSyncEngineDelegate {
  /// How the app writes its two halves.
  enum Order: Sendable {
    /// The metadata, carrying the store's unsaved writes, then the store: the contract.
    case metadataThenStore
    /// The metadata carrying nothing (a replica configured for one transaction), then the store.
    case metadataCarryingNothingThenStore
    /// The store, then the metadata.
    case storeThenMetadata
  }

  let order: Order
  var replica: ZoneReplica<DictionaryReplicaStore>
  var disk = TwoWriteDisk()
  /// The disk before the last step's writes: what a torn crash keeps of the half not written.
  var previous = TwoWriteDisk()
  var clockOffset: TimeInterval

  init(setup: ClientSetup) { self.init(setup: setup, order: .metadataThenStore) }

  init(setup: ClientSetup, order: Order) {
    var configuration = ReplicaConfiguration(
      zoneID: setup.zoneID, deviceName: setup.name, resolver: setup.resolver, bookkeeping: setup.bookkeeping,
      deletePolicy: setup.deletePolicy, schema: setup.schema, zoneLoss: setup.zoneDeletion,
      accountChange: setup.accountChange)
    configuration.persistence = order == .metadataThenStore ? .metadataThenStore : .oneTransaction
    replica = ZoneReplica(configuration: configuration, store: DictionaryReplicaStore())
    self.order = order
    clockOffset = setup.clockOffset
  }

  /// Both writes of a step, keeping what the disk held before for a torn crash.
  mutating func persist() {
    previous = disk
    disk.persist(&replica)
  }

  /// The app launches from the disk.
  mutating func relaunch() {
    replica = disk.launch(replica.configuration)
    replica.relaunch()
  }

  var persistenceWrites: Int { 2 }

  /// Only the first write of the event's two reached the disk.
  mutating func tornCrash(afterWrites writes: Int) {
    switch order {
    case .metadataThenStore, .metadataCarryingNothingThenStore: disk.store = previous.store
    case .storeThenMetadata: disk.metadata = previous.metadata
    }
  }

  var stateSerialization: SyncEngine.StateSerialization? { disk.metadata.stateSerialization }

  mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    replica.handleEvent(event, syncEngine: &syncEngine)
    persist()
  }

  mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? {
    defer { persist() }
    return replica.nextRecordZoneChangeBatch(context, syncEngine: &syncEngine)
  }

  mutating func create(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State) throws {
    defer { persist() }
    try replica.create(record, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine)
  }

  mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws {
    defer { persist() }
    try replica.edit(id, setting: values, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine)
  }

  mutating func delete(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws {
    defer { persist() }
    try replica.delete(id, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine)
  }

  mutating func resetSync(replacing old: SyncEngine.State, syncEngine: inout SyncEngine.State) {
    defer { persist() }
    replica.resetSync(replacing: old, syncEngine: &syncEngine)
  }

  mutating func answerAccountQuestion(keepingData: Bool, syncEngine: inout SyncEngine.State) -> Bool {
    defer { persist() }
    return replica.resolveAccountChange(keepingData: keepingData, syncEngine: &syncEngine)
  }

  mutating func upgrade(to schema: Schema?) {
    replica.upgrade(to: schema)
    persist()
  }

  mutating func jumpClock(by seconds: TimeInterval) { clockOffset += seconds }
  var records: [Record] { replica.store.records }
  func record(_ id: RecordID) -> Record? { replica.store[id] }
  var haltReason: HaltReason? { replica.halt.map(HaltReason.init) }
  var localDataDeletions: [LocalDataDeletion] { replica.discarded }
  var accountChangeResponse: AccountChangePolicy { replica.configuration.accountChange }
  mutating func takeDecisions() -> [SyncDecision] { replica.takeDecisions() }
  var recordSyncStates: [RecordID: RecordSyncState] { replica.metadata.recordStates }
}

// snippet: two-writes
/// What an app whose notes and sync metadata live apart has on disk: its store (a database) and the replica's
/// metadata (a file), each written in its own transaction. Values here; files and a database in an app.
struct TwoWriteDisk: Sendable {
  var store = DictionaryReplicaStore()
  var metadata = ReplicaMetadata()

  /// After every event and user action: the metadata first — it carries the store's unsaved writes — then the store.
  mutating func persist(_ replica: inout ZoneReplica<DictionaryReplicaStore>) {
    metadata = replica.metadata  // write 1: the file
    store = replica.store  // write 2: the database (or apply replica.metadata.unsavedStoreWrites to it)
    replica.storeSaved()
  }

  /// At launch: the replica writes again the records the store may have missed.
  func launch(_ configuration: ReplicaConfiguration) -> ZoneReplica<DictionaryReplicaStore> {
    ZoneReplica(configuration: configuration, store: store, metadata: metadata)
  }
}
// end snippet
