import Foundation
public import Reconcile

/// The vocabulary of ``SimulatedSyncEngine``, named after CloudKit's `CKSyncEngine` so a delegate written against one
/// reads like one written against the other: `SyncEngine.Event` for `CKSyncEngine.Event`, `SyncEngine.State` for
/// `CKSyncEngine.State`, and so on, in terms of Reconcile's `Record` and ``ServerError``.
public enum SyncEngine {
  /// A record change the engine must send: `CKSyncEngine.PendingRecordZoneChange`.
  public enum PendingRecordZoneChange: Sendable, Hashable, CustomStringConvertible {
    /// Save the record with this ID; the delegate supplies it when a batch is built.
    case saveRecord(RecordID)
    /// Delete the record with this ID.
    case deleteRecord(RecordID)

    /// The record the change is about.
    public var recordID: RecordID {
      switch self {
      case .saveRecord(let id), .deleteRecord(let id): id
      }
    }

    /// `save NAME` or `delete NAME`.
    public var description: String {
      switch self {
      case .saveRecord(let id): "save \(id.recordName)"
      case .deleteRecord(let id): "delete \(id.recordName)"
      }
    }
  }

  /// A zone change the engine must send: `CKSyncEngine.PendingDatabaseChange`.
  public enum PendingDatabaseChange: Sendable, Hashable {
    /// Create (or save) the zone.
    case saveZone(RecordZone)
    /// Delete the zone.
    case deleteZone(ZoneID)
  }

  /// What the engine persists through the app: `CKSyncEngine.State.Serialization`. The app stores the latest one it is
  /// handed in a ``Event/stateUpdate(_:)`` event and gives it back at launch; nothing else of the engine survives a
  /// crash.
  public struct StateSerialization: Sendable, Hashable {
    /// Record changes not yet sent, in the order they were added.
    public var pendingRecordZoneChanges: [PendingRecordZoneChange] = []
    /// Zone changes not yet sent.
    public var pendingDatabaseChanges: [PendingDatabaseChange] = []
    /// The database change token.
    public var databaseToken: DatabaseChangeToken?
    /// Each zone's change token.
    public var zoneTokens: [ZoneID: ZoneChangeToken] = [:]

    /// An empty state, as at first launch.
    public init() {}
  }

  /// The engine's state the delegate reads and adds pending changes to: `CKSyncEngine.State`.
  public struct State: Sendable, Hashable {
    /// What the engine persists.
    public internal(set) var serialization: StateSerialization
    /// Whether the state changed since the last ``Event/stateUpdate(_:)``.
    var changed = false

    init(_ serialization: StateSerialization) { self.serialization = serialization }

    /// Record changes not yet sent.
    public var pendingRecordZoneChanges: [PendingRecordZoneChange] { serialization.pendingRecordZoneChanges }
    /// Zone changes not yet sent.
    public var pendingDatabaseChanges: [PendingDatabaseChange] { serialization.pendingDatabaseChanges }

    /// Adds record changes to send; one already pending is not added twice.
    /// - Parameter changes: The changes.
    public mutating func add(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) {
      for change in changes where !serialization.pendingRecordZoneChanges.contains(change) {
        // A save and a delete of one record are never both pending: the later one replaces the earlier.
        serialization.pendingRecordZoneChanges.removeAll { $0.recordID == change.recordID }
        serialization.pendingRecordZoneChanges.append(change)
        changed = true
      }
    }

    /// Removes record changes.
    /// - Parameter changes: The changes.
    public mutating func remove(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) {
      remove(changes, from: \.pendingRecordZoneChanges)
    }

    /// Adds zone changes to send.
    /// - Parameter changes: The changes.
    public mutating func add(pendingDatabaseChanges changes: [PendingDatabaseChange]) {
      for change in changes where !serialization.pendingDatabaseChanges.contains(change) {
        serialization.pendingDatabaseChanges.append(change)
        changed = true
      }
    }

    /// Removes zone changes.
    /// - Parameter changes: The changes.
    public mutating func remove(pendingDatabaseChanges changes: [PendingDatabaseChange]) {
      remove(changes, from: \.pendingDatabaseChanges)
    }

    private mutating func remove<Change: Hashable>(
      _ changes: [Change], from list: WritableKeyPath<StateSerialization, [Change]>
    ) {
      guard !changes.isEmpty else { return }
      let gone = Set(changes)
      let before = serialization[keyPath: list].count
      serialization[keyPath: list].removeAll { gone.contains($0) }
      if serialization[keyPath: list].count != before { changed = true }
    }
  }

  /// Why the engine sends: `CKSyncEngine.SendChangesContext`.
  public struct SendChangesContext: Sendable, Hashable {
    /// What asked for the send.
    public enum Reason: Sendable, Hashable {
      /// The engine's own schedule, after changes were added.
      case scheduled
      /// The app asked (a sync request).
      case explicit
    }
    /// What asked for the send.
    public var reason: Reason
    /// The most changes the engine sends in one request now: 400, halved after `limitExceeded` (CKSyncEngine sizes
    /// batches itself; here the delegate is told, and ``RecordZoneChangeBatch/init(pendingChanges:maximumItems:recordProvider:)``
    /// takes it).
    public var maximumItems: Int
  }

  /// The records a delegate hands the engine to send: `CKSyncEngine.RecordZoneChangeBatch`.
  public struct RecordZoneChangeBatch: Sendable, Hashable {
    /// Records to save, with the system fields of the version they were based on.
    public var recordsToSave: [Record]
    /// Records to delete.
    public var recordIDsToDelete: [RecordID]
    /// Whether a failure in a zone fails the batch's other changes in it; `false` unless given.
    public var atomicByZone: Bool

    /// A batch of the given changes.
    /// - Parameters:
    ///   - recordsToSave: Records to save.
    ///   - recordIDsToDelete: Records to delete.
    ///   - atomicByZone: `false` unless given.
    public init(recordsToSave: [Record], recordIDsToDelete: [RecordID], atomicByZone: Bool = false) {
      self.recordsToSave = recordsToSave
      self.recordIDsToDelete = recordIDsToDelete
      self.atomicByZone = atomicByZone
    }

    /// Builds a batch from pending changes as CKSyncEngine does: in order, until `maximumItems`; `recordProvider`
    /// supplies each record to save, and a change it returns `nil` for is left out (the engine drops it).
    /// - Parameters:
    ///   - pendingChanges: The changes, in order.
    ///   - maximumItems: The most changes in the batch: pass ``SendChangesContext/maximumItems``; 400 unless given.
    ///   - recordProvider: The record to save for an ID.
    /// - Returns: The batch, or `nil` when it would be empty.
    public init?(
      pendingChanges: [PendingRecordZoneChange], maximumItems: Int = 400, recordProvider: (RecordID) -> Record?
    ) {
      var saving: [Record] = []
      var deleting: [RecordID] = []
      for change in pendingChanges {
        guard saving.count + deleting.count < max(1, maximumItems) else { break }
        switch change {
        case .saveRecord(let id): if let record = recordProvider(id) { saving.append(record) }
        case .deleteRecord(let id): deleting.append(id)
        }
      }
      guard !saving.isEmpty || !deleting.isEmpty else { return nil }
      self.init(recordsToSave: saving, recordIDsToDelete: deleting)
    }
  }
}
