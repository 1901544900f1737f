import Foundation

/// The pending changes of an engine whose state lives outside Reconcile — `CKSyncEngine.State` — described without
/// CloudKit, so ``SyncEngineDelegateHost`` reads and changes them on every platform. `CKSyncEngine.State` conforms on
/// Apple platforms.
package protocol SyncEngineStateBridging: AnyObject {
  /// The record changes not yet sent. Changes whose IDs Reconcile cannot hold are left out (and left alone).
  var bridgedPendingRecordZoneChanges: [SyncEngine.PendingRecordZoneChange] { get }
  /// The zone changes not yet sent.
  var bridgedPendingDatabaseChanges: [SyncEngine.PendingDatabaseChange] { get }
  /// `add(pendingRecordZoneChanges:)`.
  func addBridged(pendingRecordZoneChanges changes: [SyncEngine.PendingRecordZoneChange])
  /// `remove(pendingRecordZoneChanges:)`.
  func removeBridged(pendingRecordZoneChanges changes: [SyncEngine.PendingRecordZoneChange])
  /// `add(pendingDatabaseChanges:)`.
  func addBridged(pendingDatabaseChanges changes: [SyncEngine.PendingDatabaseChange])
  /// `remove(pendingDatabaseChanges:)`.
  func removeBridged(pendingDatabaseChanges changes: [SyncEngine.PendingDatabaseChange])
}

/// Runs a ``SyncEngineDelegate`` for an engine that keeps its own state — the logic beneath
/// `CloudKitSyncEngineAdapter`, written against ``SyncEngineStateBridging``, ``CloudKitRecordBridging`` and
/// ``CloudKitErrorBridging`` so it runs and is tested on every platform.
///
/// Each call hands the delegate a ``SyncEngine/State`` copied from the engine's pending changes, then replays every add
/// and remove the delegate made, in order, onto the engine. Calls are serialized, as CKSyncEngine delivers events one at
/// a time. What CloudKit hands over that Reconcile cannot hold — a record with a value of an unknown kind, an invalid
/// name — is left out of the event, kept in ``failures`` and passed to `onFailure`; CloudKit still has it.
package final class SyncEngineDelegateHost<Delegate: SyncEngineDelegate>: @unchecked Sendable {
  // The lock guards `delegate` and `failureLog`; every access goes through `locked`.
  private let lock = NSLock()
  private var delegate: Delegate
  private var failureLog: [SyncEngineError] = []
  private let onFailure: (@Sendable (SyncEngineError) -> Void)?

  /// Hosts a delegate.
  /// - Parameters:
  ///   - delegate: The app's delegate.
  ///   - onFailure: Called with each thing CloudKit handed over that the delegate could not be given; `nil` to only
  ///     keep them in ``failures``.
  package init(_ delegate: Delegate, onFailure: (@Sendable (SyncEngineError) -> Void)? = nil) {
    self.delegate = delegate
    self.onFailure = onFailure
  }

  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// What CloudKit handed over that the delegate was not given, oldest first.
  package var failures: [SyncEngineError] { locked { failureLog } }

  /// Reads the delegate.
  /// - Parameter body: Reads it.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  package func read<T>(_ body: (Delegate) throws -> T) rethrows -> T { try locked { try body(delegate) } }

  /// Runs `body` with the delegate and a state copied from `engine`, then replays the pending changes `body` added and
  /// removed onto `engine` — also when `body` throws. Call it for what the user does: an edit adds its pending save.
  /// - Parameters:
  ///   - engine: The engine's state (`syncEngine.state`).
  ///   - body: Changes the delegate and the state.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  package func perform<T>(
    on engine: some SyncEngineStateBridging, _ body: (inout Delegate, inout SyncEngine.State) throws -> T
  ) rethrows -> T {
    try locked {
      var state = SyncEngine.State(Self.pendingChanges(of: engine))
      state.journal = []
      defer { Self.replay(state.journal ?? [], onto: engine) }
      return try body(&delegate, &state)
    }
  }

  /// A serialization holding a copy of the engine's pending changes.
  private static func pendingChanges(of engine: some SyncEngineStateBridging) -> SyncEngine.StateSerialization {
    var serialization = SyncEngine.StateSerialization()
    serialization.pendingRecordZoneChanges = .init(engine.bridgedPendingRecordZoneChanges)
    serialization.pendingDatabaseChanges = engine.bridgedPendingDatabaseChanges
    return serialization
  }

  private static func replay(_ journal: [SyncEngine.State.Edit], onto engine: some SyncEngineStateBridging) {
    for edit in journal {
      switch edit {
      case .addRecordZoneChanges(let changes): engine.addBridged(pendingRecordZoneChanges: changes)
      case .removeRecordZoneChanges(let changes): engine.removeBridged(pendingRecordZoneChanges: changes)
      case .addDatabaseChanges(let changes): engine.addBridged(pendingDatabaseChanges: changes)
      case .removeDatabaseChanges(let changes): engine.removeBridged(pendingDatabaseChanges: changes)
      }
    }
  }

  /// Hands the delegate an event.
  /// - Parameters:
  ///   - event: The event, converted.
  ///   - engine: The engine's state.
  package func handle(_ event: SyncEngine.Event, on engine: some SyncEngineStateBridging) {
    perform(on: engine) { delegate, state in delegate.handleEvent(event, syncEngine: &state) }
  }

  /// Asks the delegate for the next batch.
  /// - Parameters:
  ///   - context: Why the engine sends.
  ///   - engine: The engine's state.
  /// - Returns: The batch, or `nil`.
  package func nextBatch(
    _ context: SyncEngine.SendChangesContext, on engine: some SyncEngineStateBridging
  ) -> SyncEngine.RecordZoneChangeBatch? {
    perform(on: engine) { delegate, state in delegate.nextRecordZoneChangeBatch(context, syncEngine: &state) }
  }

  /// Keeps a failure and reports it.
  /// - Parameter failure: What could not be handed to the delegate.
  package func record(_ failure: SyncEngineError) {
    locked { failureLog.append(failure) }
    onFailure?(failure)
  }

  // MARK: Converting what CloudKit hands over

  /// A `stateUpdate`: the engine's serialization, encoded, with a copy of its pending changes; `nil` (and a failure
  /// kept) when it does not encode.
  /// - Parameters:
  ///   - engineSerialization: `CKSyncEngine.State.Serialization`.
  ///   - engine: The engine's state, for the copy of its pending changes.
  /// - Returns: The event.
  package func stateUpdate(
    _ engineSerialization: some Encodable, of engine: some SyncEngineStateBridging
  ) -> SyncEngine.Event? {
    do {
      var serialization = Self.pendingChanges(of: engine)
      serialization.engineState = try SyncEngine.EngineState(encoding: engineSerialization)
      return .stateUpdate(serialization)
    } catch {
      record(.engineStateMismatch(expected: "an encodable engine state", found: "\(error)"))
      return nil
    }
  }

  /// A page of fetched changes; records that do not convert are left out and kept as failures.
  /// - Parameters:
  ///   - modifications: The records fetched (`CKRecord`).
  ///   - deletions: The records deleted: each ID and type.
  /// - Returns: The event.
  package func fetchedRecordZoneChanges(
    modifications: [some CloudKitRecordBridging],
    deletions: [(recordID: (recordName: String, zoneName: String, ownerName: String), recordType: String)]
  ) -> SyncEngine.Event {
    .fetchedRecordZoneChanges(
      SyncEngine.FetchedRecordZoneChanges(
        modifications: modifications.compactMap { convert($0, what: "a fetched record") },
        deletions: deletions.compactMap { deletion in
          recordID(deletion.recordID, what: "a fetched deletion").map {
            DeletedRecord(recordID: $0, recordType: deletion.recordType)
          }
        }))
  }

  /// The result of a batch; records and IDs that do not convert are left out and kept as failures.
  /// - Parameters:
  ///   - savedRecords: The records saved (`CKRecord`).
  ///   - failedRecordSaves: Each failed save's record and error.
  ///   - deletedRecordIDs: The records deleted.
  ///   - failedRecordDeletes: Each failed deletion's ID and error.
  /// - Returns: The event.
  package func sentRecordZoneChanges<R: CloudKitRecordBridging, E: CloudKitErrorBridging>(
    savedRecords: [R], failedRecordSaves: [(record: R, error: E)],
    deletedRecordIDs: [(recordName: String, zoneName: String, ownerName: String)],
    failedRecordDeletes: [(recordID: (recordName: String, zoneName: String, ownerName: String), error: E)]
  ) -> SyncEngine.Event {
    var failedDeletes: [RecordID: CloudKitError] = [:]
    for failure in failedRecordDeletes {
      if let id = recordID(failure.recordID, what: "a failed deletion") { failedDeletes[id] = error(failure.error) }
    }
    return .sentRecordZoneChanges(
      SyncEngine.SentRecordZoneChanges(
        savedRecords: savedRecords.compactMap { convert($0, what: "a saved record") },
        failedRecordSaves: failedRecordSaves.compactMap { failure in
          convert(failure.record, what: "a record whose save failed").map {
            SyncEngine.FailedRecordSave(record: $0, error: error(failure.error))
          }
        },
        deletedRecordIDs: deletedRecordIDs.compactMap { recordID($0, what: "a deleted record's ID") },
        failedRecordDeletes: failedDeletes))
  }

  /// The result of sending zone changes; zone IDs that do not convert are left out and kept as failures.
  /// - Parameters:
  ///   - savedZones: The zones saved.
  ///   - failedZoneSaves: Each failed zone save and its error.
  ///   - deletedZoneIDs: The zones deleted.
  ///   - failedZoneDeletes: Each failed zone deletion and its error.
  /// - Returns: The event.
  package func sentDatabaseChanges<E: CloudKitErrorBridging>(
    savedZones: [(zoneName: String, ownerName: String)],
    failedZoneSaves: [(zoneID: (zoneName: String, ownerName: String), error: E)],
    deletedZoneIDs: [(zoneName: String, ownerName: String)],
    failedZoneDeletes: [(zoneID: (zoneName: String, ownerName: String), error: E)]
  ) -> SyncEngine.Event {
    func failures(_ list: [(zoneID: (zoneName: String, ownerName: String), error: E)]) -> [ZoneID: CloudKitError] {
      var result: [ZoneID: CloudKitError] = [:]
      for failure in list {
        if let zone = zoneID(failure.zoneID, what: "a zone whose change failed") { result[zone] = error(failure.error) }
      }
      return result
    }
    return .sentDatabaseChanges(
      SyncEngine.SentDatabaseChanges(
        savedZones: savedZones.compactMap { zoneID($0, what: "a saved zone") },
        failedZoneSaves: failures(failedZoneSaves),
        deletedZoneIDs: deletedZoneIDs.compactMap { zoneID($0, what: "a deleted zone") },
        failedZoneDeletes: failures(failedZoneDeletes)))
  }

  /// A CloudKit error, never failing: when a record it carries does not convert, the error keeps its code, delay and
  /// message without the ``CloudKitError/conflict`` (and the failure is kept).
  /// - Parameter source: A `CKError`.
  /// - Returns: The error.
  package func error(_ source: some CloudKitErrorBridging) -> CloudKitError {
    do {
      return try CloudKitError(bridging: source)
    } catch {
      record(.unconvertible(what: "a record inside a CloudKit error", reason: error))
      return CloudKitError(
        code: .init(rawValue: source.bridgedCode), retryAfter: source.bridgedRetryAfter, message: source.bridgedMessage)
    }
  }

  /// A zone ID, or `nil` (and a failure kept) when Reconcile cannot hold it.
  /// - Parameters:
  ///   - id: The zone's name and owner.
  ///   - what: What it is, for the failure.
  /// - Returns: The ID.
  package func zoneID(_ id: (zoneName: String, ownerName: String), what: String = "a zone ID") -> ZoneID? {
    do {
      return try ZoneID(bridging: id)
    } catch {
      record(.unconvertible(what: what, reason: error))
      return nil
    }
  }

  /// A record ID, or `nil` (and a failure kept) when Reconcile cannot hold it.
  /// - Parameters:
  ///   - id: The record's name, zone and owner.
  ///   - what: What it is, for the failure.
  /// - Returns: The ID.
  package func recordID(
    _ id: (recordName: String, zoneName: String, ownerName: String), what: String = "a record ID"
  ) -> RecordID? {
    do {
      return try RecordID(bridging: id)
    } catch {
      record(.unconvertible(what: what, reason: error))
      return nil
    }
  }

  private func convert(_ record: some CloudKitRecordBridging, what: String) -> Record? {
    do {
      return try Record(bridging: record)
    } catch {
      let name = record.bridgedRecordID.recordName
      self.record(.unconvertible(what: "\(what) (\(record.bridgedRecordType) '\(name)')", reason: error))
      return nil
    }
  }
}
