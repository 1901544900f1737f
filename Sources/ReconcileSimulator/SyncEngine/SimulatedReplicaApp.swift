public import Foundation
public import Reconcile

/// An app whose delegate keeps its sync rules in a `ZoneReplica` (``ReplicaBackedDelegate``), on a simulated device:
/// everything the simulation asks of the app beside the delegate — what it shows, a relaunch from what it saved, its
/// clock, an upgrade, a forced resync, an account question, the hand-over of deleted data — comes from the replica.
///
/// ```swift
/// extension ClientUnderTest {
///   static let notes = ClientUnderTest(name: "notes") {
///     try SimulatedSyncEngine<SimulatedReplicaApp<NotesSyncDelegate>>(setup: $0)
///   }
/// }
/// ```
public struct SimulatedReplicaApp<App: ReplicaBackedDelegate>: SimulatedSyncEngineDelegate {
  /// The app's delegate, as the app runs it.
  public private(set) var app: App
  /// How the device was set up; an upgrade changes its schema, which a relaunch keeps.
  private var setup: ClientSetup
  private var clockOffset: TimeInterval

  /// The app's first launch on a device.
  /// - Parameter setup: The device, the zone, the clock skew and the app's policies.
  /// - Throws: What the app's initializer throws.
  public init(setup: ClientSetup) throws {
    app = try App(setup: setup, saved: nil)
    self.setup = setup
    clockOffset = setup.clockOffset
  }

  /// Forwards to the app.
  public mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    app.handleEvent(event, syncEngine: &syncEngine)
  }

  /// Forwards to the app.
  public mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? { app.nextRecordZoneChangeBatch(context, syncEngine: &syncEngine) }

  /// The serialization in the replica's metadata.
  public var stateSerialization: SyncEngine.StateSerialization? { app.replica.metadata.stateSerialization }

  /// The app launched again from what it saved after its last change (kept as it was if the app cannot launch).
  public mutating func relaunch() {
    if let relaunched = try? App(setup: setup, saved: app.saved) { app = relaunched }
  }

  /// The user's create, at the device's time.
  public mutating func create(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try app.userCreated(record, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine)
  }

  /// The user's edit, at the device's time.
  public mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws { try app.userEdited(id, values, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine) }

  /// The user's deletion, at the device's time.
  public mutating func delete(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try app.userDeleted(id, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine)
  }

  /// The replica's records.
  public var records: [Record] { app.replica.store.records }
  /// The replica's record.
  public func record(_ id: RecordID) -> Record? { app.replica.store[id] }
  /// The replica's halt.
  public var haltReason: HaltReason? { app.replica.halt.map(HaltReason.init) }
  /// The replica's record states.
  public var recordSyncStates: [RecordID: RecordSyncState] { app.replica.metadata.recordStates }
  /// Moves the device's clock.
  public mutating func jumpClock(by seconds: TimeInterval) { clockOffset += seconds }

  /// The new schema, for the replica and for every later launch.
  public mutating func upgrade(to schema: Schema?) {
    setup.schema = schema
    app.replica.upgrade(to: schema)
    app.replicaChanged()
  }

  /// The replica's forced resync.
  public mutating func resetSync(replacing old: SyncEngine.State, syncEngine: inout SyncEngine.State) {
    app.replica.resetSync(replacing: old, syncEngine: &syncEngine)
    app.replicaChanged()
  }

  /// What the replica handed over before deleting it.
  public var localDataDeletions: [LocalDataDeletion] { app.replica.discarded }
  /// The replica's account-change policy.
  public var accountChangeResponse: AccountChangePolicy { app.replica.configuration.accountChange }

  /// Passes the user's answer to the replica.
  public mutating func answerAccountQuestion(keepingData: Bool, syncEngine: inout SyncEngine.State) -> Bool {
    defer { app.replicaChanged() }
    return app.replica.resolveAccountChange(keepingData: keepingData, syncEngine: &syncEngine)
  }
}
