/// The part of your app a `CKSyncEngine` talks to — `CKSyncEngineDelegate` — in Reconcile's terms, so one delegate
/// runs in the app behind `CloudKitSyncEngineAdapter` and in tests inside ReconcileSimulator's `SimulatedSyncEngine`.
///
/// Everything is synchronous and the delegate is a value, so simulated runs are deterministic; the adapter serializes
/// calls, as CKSyncEngine delivers events one at a time. Read and change pending changes through the `syncEngine`
/// parameter, never through an engine you hold: the adapter replays what the delegate changed onto the real engine's
/// state when the method returns.
///
/// Persist the effect of each event before returning from ``handleEvent(_:syncEngine:)``, and keep the
/// ``SyncEngine/StateSerialization`` of the latest ``SyncEngine/Event/stateUpdate(_:)`` to hand back at launch.
public protocol SyncEngineDelegate: Sendable {
  /// `handleEvent(_:syncEngine:)`: reacts to one engine event and persists its effect.
  /// - Parameters:
  ///   - event: The event.
  ///   - syncEngine: The engine's state, to add or remove pending changes.
  mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State)

  /// `nextRecordZoneChangeBatch(_:syncEngine:)`: the records to send next, or `nil` for none. As in CKSyncEngine's
  /// record provider, the delegate may note what it hands out (a record handed out may land on the server) and remove
  /// pending changes it has nothing for (a crash between its own write and the engine's `stateUpdate` leaves such).
  /// - Parameters:
  ///   - context: Why the engine sends, and how many changes it takes now.
  ///   - syncEngine: The engine's state.
  /// - Returns: The batch.
  mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch?
}
