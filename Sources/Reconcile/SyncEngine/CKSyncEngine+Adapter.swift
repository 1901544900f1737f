// The thin layer over CKSyncEngine: it only reads CloudKit's events and state and forwards them to
// SyncEngineDelegateHost, which does the work (copying pending changes, replaying the delegate's edits, converting
// records and errors, keeping what does not convert) on every platform. Compiled wherever CloudKit exists; on Linux,
// Scripts/check-cloudkit-bridge.sh compiles it against a stand-in with Apple's signatures.
#if canImport(CloudKit)
  public import CloudKit
  import Foundation

  /// A `CKSyncEngineDelegate` that runs a ``SyncEngineDelegate``: the delegate you test in ReconcileSimulator's
  /// `SimulatedSyncEngine` runs unchanged against the real engine.
  ///
  /// ```swift
  /// let adapter = CloudKitSyncEngineAdapter(NotesSyncDelegate(store: store))
  /// let engine = CKSyncEngine(CKSyncEngine.Configuration(
  ///   database: CKContainer.default().privateCloudDatabase,
  ///   stateSerialization: try adapter.engineSerialization(from: store.savedState),
  ///   delegate: adapter))
  /// adapter.perform(on: engine) { delegate, state in delegate.userEdited(note, syncEngine: &state) }
  /// ```
  ///
  /// Each event is converted (records with ``Record/init(_:)``, errors with `CloudKitError(_:)`) and
  /// handed to the delegate with a ``SyncEngine/State`` copied from `syncEngine.state`; the pending changes the delegate
  /// adds and removes are replayed onto `syncEngine.state` in order. Batches go back as `CKRecord`s built with
  /// `ckRecord`, so a record the server knows carries its change tag. What does not convert is left out of the event and
  /// kept in ``failures``.
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  public final class CloudKitSyncEngineAdapter<Delegate: SyncEngineDelegate>: CKSyncEngineDelegate {
    /// Runs the delegate; use it to read the delegate.
    package let host: SyncEngineDelegateHost<Delegate>

    /// An adapter around `delegate`.
    /// - Parameters:
    ///   - delegate: The app's delegate.
    ///   - onFailure: Called with what CloudKit handed over that the delegate could not be given.
    public init(_ delegate: Delegate, onFailure: (@Sendable (SyncEngineError) -> Void)? = nil) {
      host = SyncEngineDelegateHost(delegate, onFailure: onFailure)
    }

    /// What CloudKit handed over that the delegate was not given.
    public var failures: [SyncEngineError] { host.failures }

    /// Reads the delegate under the adapter's lock, as events and ``perform(on:_:)`` change it.
    /// - Parameter body: Reads the delegate.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func read<T>(_ body: (Delegate) throws -> T) rethrows -> T { try host.read(body) }

    /// Runs `body` with the delegate and the engine's pending changes, then replays its adds and removes onto
    /// `engine.state`: call it when the user changes something.
    /// - Parameters:
    ///   - engine: The engine.
    ///   - body: Changes the delegate and the state.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func perform<T>(
      on engine: CKSyncEngine, _ body: (inout Delegate, inout SyncEngine.State) throws -> T
    ) rethrows -> T {
      try host.perform(on: engine.state, body)
    }

    /// The engine's serialization inside a ``SyncEngine/StateSerialization`` the delegate persisted, for
    /// `CKSyncEngine.Configuration`; `nil` for `nil` (first launch).
    /// - Parameter serialization: What the delegate persisted from the latest `stateUpdate`.
    /// - Returns: CloudKit's serialization.
    /// - Throws: ``SyncEngineError/engineStateMismatch(expected:found:)`` when it holds no CKSyncEngine state.
    public func engineSerialization(
      from serialization: SyncEngine.StateSerialization?
    ) throws(SyncEngineError) -> CKSyncEngine.State.Serialization? {
      guard let serialization else { return nil }
      guard let engineState = serialization.engineState else {
        throw .engineStateMismatch(expected: "CKSyncEngine.State.Serialization", found: "no engine state")
      }
      return try engineState.decode(CKSyncEngine.State.Serialization.self)
    }

    /// Converts the event and hands it to the delegate.
    public func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
      let state = syncEngine.state
      guard let converted = convert(event, state: state) else { return }
      host.handle(converted, on: state)
    }

    /// Asks the delegate for a batch and builds CloudKit's from it.
    public func nextRecordZoneChangeBatch(
      _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? {
      guard let batch = host.nextBatch(Self.context(context), on: syncEngine.state) else { return nil }
      return CKSyncEngine.RecordZoneChangeBatch(
        recordsToSave: batch.recordsToSave.map(\.ckRecord),
        recordIDsToDelete: batch.recordIDsToDelete.map(\.ckRecordID),
        atomicByZone: batch.atomicByZone)
    }

    private func convert(_ event: CKSyncEngine.Event, state: CKSyncEngine.State) -> SyncEngine.Event? {
      switch event {
      case .stateUpdate(let update):
        return host.stateUpdate(update.stateSerialization, of: state)
      case .accountChange(let change):
        switch change.changeType {
        case .signIn(let current): return .accountChange(.signIn(currentUser: current.recordName))
        case .signOut(let previous): return .accountChange(.signOut(previousUser: previous.recordName))
        case .switchAccounts(let previous, let current):
          return .accountChange(.switchAccounts(previousUser: previous.recordName, currentUser: current.recordName))
        @unknown default: return nil
        }
      case .fetchedDatabaseChanges(let changes):
        return .fetchedDatabaseChanges(
          SyncEngine.FetchedDatabaseChanges(
            modifications: changes.modifications.compactMap { host.zoneID($0.zoneID.bridged) },
            deletions: changes.deletions.compactMap { deletion in
              host.zoneID(deletion.zoneID.bridged).map {
                SyncEngine.ZoneDeletion(zoneID: $0, reason: Self.reason(deletion.reason))
              }
            }))
      case .fetchedRecordZoneChanges(let changes):
        return host.fetchedRecordZoneChanges(
          modifications: changes.modifications.map(\.record),
          deletions: changes.deletions.map { ($0.recordID.bridged, $0.recordType) })
      case .sentDatabaseChanges(let sent):
        return host.sentDatabaseChanges(
          savedZones: sent.savedZones.map(\.zoneID.bridged),
          failedZoneSaves: sent.failedZoneSaves.map { ($0.zone.zoneID.bridged, $0.error) },
          deletedZoneIDs: sent.deletedZoneIDs.map(\.bridged),
          failedZoneDeletes: sent.failedZoneDeletes.map { ($0.key.bridged, $0.value) })
      case .sentRecordZoneChanges(let sent):
        return host.sentRecordZoneChanges(
          savedRecords: sent.savedRecords, failedRecordSaves: sent.failedRecordSaves.map { ($0.record, $0.error) },
          deletedRecordIDs: sent.deletedRecordIDs.map(\.bridged),
          failedRecordDeletes: sent.failedRecordDeletes.map { ($0.key.bridged, $0.value) })
      case .willFetchChanges:
        return .willFetchChanges
      case .willFetchRecordZoneChanges(let fetch):
        return host.zoneID(fetch.zoneID.bridged).map { .willFetchRecordZoneChanges($0) }
      case .didFetchRecordZoneChanges(let fetch):
        return host.zoneID(fetch.zoneID.bridged).map {
          .didFetchRecordZoneChanges($0, error: fetch.error.map { host.error($0) })
        }
      case .didFetchChanges:
        return .didFetchChanges
      case .willSendChanges(let send):
        return .willSendChanges(Self.context(send.context))
      case .didSendChanges(let send):
        return .didSendChanges(Self.context(send.context))
      @unknown default:
        return nil
      }
    }

    private static func context(_ context: CKSyncEngine.SendChangesContext) -> SyncEngine.SendChangesContext {
      switch context.reason {
      case .manual: SyncEngine.SendChangesContext(reason: .explicit)
      default: SyncEngine.SendChangesContext(reason: .scheduled)
      }
    }

    private static func reason(
      _ reason: CKDatabase.DatabaseChange.Deletion.Reason
    ) -> SyncEngine.ZoneDeletion.Reason {
      switch reason {
      case .purged: .purged
      case .encryptedDataReset: .encryptedDataReset
      default: .deleted
      }
    }
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  extension CKSyncEngine.State: SyncEngineStateBridging {
    /// The pending record changes whose IDs Reconcile can hold.
    package var bridgedPendingRecordZoneChanges: [SyncEngine.PendingRecordZoneChange] {
      pendingRecordZoneChanges.compactMap { change in
        switch change {
        case .saveRecord(let id): (try? RecordID(bridging: id.bridged)).map { .saveRecord($0) }
        case .deleteRecord(let id): (try? RecordID(bridging: id.bridged)).map { .deleteRecord($0) }
        @unknown default: nil
        }
      }
    }

    /// The pending zone changes whose IDs Reconcile can hold.
    package var bridgedPendingDatabaseChanges: [SyncEngine.PendingDatabaseChange] {
      pendingDatabaseChanges.compactMap { change in
        switch change {
        case .saveZone(let zone): (try? ZoneID(bridging: zone.zoneID.bridged)).map { .saveZone($0) }
        case .deleteZone(let id): (try? ZoneID(bridging: id.bridged)).map { .deleteZone($0) }
        @unknown default: nil
        }
      }
    }

    /// `add(pendingRecordZoneChanges:)`.
    package func addBridged(pendingRecordZoneChanges changes: [SyncEngine.PendingRecordZoneChange]) {
      add(pendingRecordZoneChanges: changes.map(\.ckChange))
    }

    /// `remove(pendingRecordZoneChanges:)`.
    package func removeBridged(pendingRecordZoneChanges changes: [SyncEngine.PendingRecordZoneChange]) {
      remove(pendingRecordZoneChanges: changes.map(\.ckChange))
    }

    /// `add(pendingDatabaseChanges:)`.
    package func addBridged(pendingDatabaseChanges changes: [SyncEngine.PendingDatabaseChange]) {
      add(pendingDatabaseChanges: changes.map(\.ckChange))
    }

    /// `remove(pendingDatabaseChanges:)`.
    package func removeBridged(pendingDatabaseChanges changes: [SyncEngine.PendingDatabaseChange]) {
      remove(pendingDatabaseChanges: changes.map(\.ckChange))
    }
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  extension SyncEngine.PendingRecordZoneChange {
    fileprivate var ckChange: CKSyncEngine.PendingRecordZoneChange {
      switch self {
      case .saveRecord(let id): .saveRecord(id.ckRecordID)
      case .deleteRecord(let id): .deleteRecord(id.ckRecordID)
      }
    }
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  extension SyncEngine.PendingDatabaseChange {
    fileprivate var ckChange: CKSyncEngine.PendingDatabaseChange {
      switch self {
      case .saveZone(let id): .saveZone(CKRecordZone(zoneID: id.ckZoneID))
      case .deleteZone(let id): .deleteZone(id.ckZoneID)
      }
    }
  }

  extension CKRecord.ID {
    /// The name, zone and owner, for `RecordID.init(bridging:)`.
    package var bridged: (recordName: String, zoneName: String, ownerName: String) {
      (recordName, zoneID.zoneName, zoneID.ownerName)
    }

    /// The ID a name, zone and owner describe: the reverse of ``bridged``.
    /// - Parameter id: The record name, zone name and owner name.
    package convenience init(bridged id: (recordName: String, zoneName: String, ownerName: String)) {
      self.init(recordName: id.recordName, zoneID: CKRecordZone.ID(zoneName: id.zoneName, ownerName: id.ownerName))
    }
  }

  extension CKRecordZone.ID {
    /// The zone and owner, for `ZoneID.init(bridging:)`.
    package var bridged: (zoneName: String, ownerName: String) { (zoneName, ownerName) }
  }

  extension RecordID {
    /// The ID a `CKRecord.ID` names.
    /// - Parameter ckRecordID: The CloudKit record ID.
    /// - Throws: ``CloudKitBridgeError`` when the name, zone or owner is not one CloudKit accepts.
    public init(_ ckRecordID: CKRecord.ID) throws(CloudKitBridgeError) { try self.init(bridging: ckRecordID.bridged) }

    /// The `CKRecord.ID` naming this record.
    package var ckRecordID: CKRecord.ID { CKRecord.ID(bridged: (recordName, zoneID.zoneName, zoneID.ownerName)) }
  }

  extension ZoneID {
    /// The zone a `CKRecordZone.ID` names.
    /// - Parameter ckZoneID: The CloudKit zone ID.
    /// - Throws: ``CloudKitBridgeError`` when the zone or owner name is not one CloudKit accepts.
    public init(_ ckZoneID: CKRecordZone.ID) throws(CloudKitBridgeError) { try self.init(bridging: ckZoneID.bridged) }

    /// The `CKRecordZone.ID` naming this zone.
    public var ckZoneID: CKRecordZone.ID { CKRecordZone.ID(zoneName: zoneName, ownerName: ownerName) }
  }
#endif
