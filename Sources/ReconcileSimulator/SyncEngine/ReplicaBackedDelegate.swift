public import Foundation
public import Reconcile

/// An app's sync delegate whose rules live in a `ZoneReplica` — the shape *Using Reconcile with CKSyncEngine* writes
/// one in — which ``SimulatedReplicaApp`` runs on simulated devices unchanged.
///
/// Conform the app's delegate in the test target with the initializer a simulated device launches it by; its user
/// actions are the ones the app's UI calls.
///
/// ```swift
/// extension NotesSyncDelegate: ReplicaBackedDelegate {
///   init(setup: ClientSetup, saved: Saved?) {
///     self.init(zoneID: setup.zoneID, device: setup.name, deletePolicy: setup.deletePolicy, saved: saved ?? Saved())
///   }
/// }
/// ```
public protocol ReplicaBackedDelegate: SyncEngineDelegate {
  /// The app's store of records.
  associatedtype Store: ReplicaStore
  /// What the app writes to disk after every change: its records and the replica's metadata.
  associatedtype Saved

  /// The app launched on a simulated device, from what it saved before (`nil` at its first launch).
  /// - Parameters:
  ///   - setup: The device, the zone and the policies the run picked (delete policy, zone loss, schema, …).
  ///   - saved: What the app saved last, or `nil`.
  /// - Throws: Any error, when the app cannot launch.
  init(setup: ClientSetup, saved: Saved?) throws

  /// The replica that keeps the app's sync rules.
  var replica: ZoneReplica<Store> { get set }
  /// What the app has saved: a relaunch starts from it.
  var saved: Saved { get }

  /// The user wrote a new record.
  /// - Parameters:
  ///   - record: The new record.
  ///   - now: The device's time.
  ///   - syncEngine: The engine's state.
  /// - Throws: Any error, when the app refuses.
  mutating func userCreated(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State) throws
  /// The user changed some of a record's fields (`nil` clears one).
  /// - Parameters:
  ///   - id: The record.
  ///   - values: The new values.
  ///   - now: The device's time.
  ///   - syncEngine: The engine's state.
  /// - Throws: Any error, when the app refuses.
  mutating func userEdited(
    _ id: RecordID, _ values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State) throws
  /// The user deleted a record.
  /// - Parameters:
  ///   - id: The record.
  ///   - now: The device's time.
  ///   - syncEngine: The engine's state.
  /// - Throws: Any error, when the app refuses.
  mutating func userDeleted(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws

  /// The simulation changed ``replica`` outside an event or a user action — an upgrade, a forced resync, the user's
  /// answer to an account question — and the app writes what it keeps, as it would after doing so itself. The default
  /// writes nothing: right for an app whose ``saved`` reads the replica.
  mutating func replicaChanged()
}

extension ReplicaBackedDelegate {
  /// Creates the record in ``replica``.
  public mutating func userCreated(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try replica.create(record, at: now, syncEngine: &syncEngine)
  }

  /// Edits the record in ``replica``.
  public mutating func userEdited(
    _ id: RecordID, _ values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws { try replica.edit(id, setting: values, at: now, syncEngine: &syncEngine) }

  /// Deletes the record in ``replica``.
  public mutating func userDeleted(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try replica.delete(id, at: now, syncEngine: &syncEngine)
  }

  /// Writes nothing.
  public mutating func replicaChanged() {}
}
