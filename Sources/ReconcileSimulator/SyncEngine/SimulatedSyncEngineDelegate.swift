public import Foundation
public import Reconcile

/// Your app around a simulated CKSyncEngine: a `SyncEngineDelegate` — the part CKSyncEngine talks to,
/// which runs unchanged in the app behind `CloudKitSyncEngineAdapter` — plus the app's side the simulation needs: the
/// user's operations, the records the app shows, and relaunching from what the app persisted.
///
/// To test an app's delegate, conform it to this protocol in the test target: the user's operations call the same code
/// the app's UI calls. Persist the effect of each event before returning from `handleEvent(_:syncEngine:)`, and keep
/// the `SyncEngine.StateSerialization` of the latest `stateUpdate`: after a crash the engine starts from
/// ``stateSerialization`` and the app from whatever ``relaunch()`` keeps.
public protocol SimulatedSyncEngineDelegate: SyncEngineDelegate {
  /// The app's first launch on a device.
  /// - Parameter setup: The device, the zone, the clock skew and the app's merge rules.
  init(setup: ClientSetup) throws

  /// The serialization of the latest `SyncEngine.Event.stateUpdate(_:)` the app persisted; `nil` before the first.
  var stateSerialization: SyncEngine.StateSerialization? { get }

  /// The app is killed and launched again: it keeps only what it persisted.
  mutating func relaunch()

  /// The user creates a record; the app stores it and adds the pending changes.
  /// - Parameters:
  ///   - record: The new record.
  ///   - now: True time (skew it by the app's clock offset).
  ///   - syncEngine: The engine's state.
  /// - Throws: Any error, when the app refuses.
  mutating func create(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State) throws
  /// The user edits a record.
  /// - Parameters:
  ///   - id: The record.
  ///   - values: New values; `nil` removes a key.
  ///   - now: True time.
  ///   - syncEngine: The engine's state.
  /// - Throws: Any error, when the app refuses.
  mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State) throws
  /// The user deletes a record.
  /// - Parameters:
  ///   - id: The record.
  ///   - now: True time.
  ///   - syncEngine: The engine's state.
  /// - Throws: Any error, when the app refuses.
  mutating func delete(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws

  /// Every record the app shows, sorted by ID.
  var records: [Record] { get }
  /// The record the app shows for `id`.
  /// - Parameter id: A record ID.
  func record(_ id: RecordID) -> Record?

  /// Why the app stopped syncing, or `nil`: a record from an app version it does not understand, a conflict it could
  /// not merge. The engine sends nothing while it is set, as an app stops its engine; the default is `nil`.
  var haltReason: HaltReason? { get }
  /// The device's clock moves; the default ignores it.
  /// - Parameter seconds: Positive to jump ahead.
  mutating func jumpClock(by seconds: TimeInterval)
  /// A new app version is installed; the default ignores it.
  /// - Parameter schema: The new schema.
  mutating func upgrade(to schema: Schema?)
  /// The user resets sync: the app replaces its engine by one started from no state serialization — no tokens,
  /// nothing pending — so everything is fetched again. What the old engine still had pending is the app's to hand to
  /// the new one, or it is never sent (sqlite-data #524). The default re-adds the old engine's pending record and
  /// database changes.
  /// - Parameters:
  ///   - old: The replaced engine's state, pending changes included.
  ///   - syncEngine: The new engine's state.
  mutating func resetSync(replacing old: SyncEngine.State, syncEngine: inout SyncEngine.State)
  /// Every hand-over of local data the app made before deleting it for good ; the
  /// default is empty.
  var localDataDeletions: [LocalDataDeletion] { get }
  /// What the app does with its local data when the account changes; the default deletes it, as Apple's sample does.
  var accountChangeResponse: AccountChangePolicy { get }
  /// The user answers the question an account change asked: keep the records for the account signed in now, or
  /// delete them. Returns `false` when none was open; the default asks nothing.
  /// - Parameters:
  ///   - keepingData: `true` to keep them.
  ///   - syncEngine: The engine's state.
  mutating func answerAccountQuestion(keepingData: Bool, syncEngine: inout SyncEngine.State) -> Bool
  /// The sync decisions made since the last call (a `ZoneReplica`'s `ZoneReplica.takeDecisions()`), for the
  /// trace; the default is none.
  mutating func takeDecisions() -> [SyncDecision]
  /// Each record's sync state, where the app keeps one (a `ZoneReplica`'s `ReplicaMetadata.recordStates`), for the
  /// playground's `show` of a device; the default is none.
  var recordSyncStates: [RecordID: RecordSyncState] { get }
  /// How many separate persistence writes the app makes after each event and each user operation (its metadata, then
  /// its store, say), each its own transaction: a torn crash can strike between any two (``tornCrash(afterWrites:)``).
  /// The default is 1: everything in one transaction.
  var persistenceWrites: Int { get }
  /// A torn crash struck after the first `writes` of the ``persistenceWrites`` writes that follow the event or user
  /// operation just handled (at least 1, fewer than ``persistenceWrites``): keep on disk only what those wrote.
  /// ``relaunch()`` follows. The default does nothing (an app that writes once is never torn inside a step).
  /// - Parameter writes: The writes that completed.
  mutating func tornCrash(afterWrites writes: Int)
}

extension SimulatedSyncEngineDelegate {
  /// Never halts.
  public var haltReason: HaltReason? { nil }
  /// Ignores the jump.
  public mutating func jumpClock(by seconds: TimeInterval) {}
  /// Ignores the upgrade.
  public mutating func upgrade(to schema: Schema?) {}
  /// None: the app has no hook.
  public var localDataDeletions: [LocalDataDeletion] { [] }
  /// Deletes local data, as Apple's sample does.
  public var accountChangeResponse: AccountChangePolicy { .deleteLocalData }
  /// Nothing was asked.
  public mutating func answerAccountQuestion(keepingData: Bool, syncEngine: inout SyncEngine.State) -> Bool { false }
  /// None: the app does not report its decisions.
  public mutating func takeDecisions() -> [SyncDecision] { [] }
  /// None: the app keeps no per-record sync state it shows.
  public var recordSyncStates: [RecordID: RecordSyncState] { [:] }
  /// One: the app persists each event and user operation in one transaction.
  public var persistenceWrites: Int { 1 }
  /// Nothing: one write is never torn.
  public mutating func tornCrash(afterWrites writes: Int) {}
  /// Re-adds what the old engine had pending.
  public mutating func resetSync(replacing old: SyncEngine.State, syncEngine: inout SyncEngine.State) {
    syncEngine.add(pendingDatabaseChanges: old.pendingDatabaseChanges)
    syncEngine.add(pendingRecordZoneChanges: old.pendingRecordZoneChanges)
  }
}
