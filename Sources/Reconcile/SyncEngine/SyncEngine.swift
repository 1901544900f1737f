import Foundation

/// The vocabulary of a `CKSyncEngine` delegate in terms of Reconcile's ``Record``, ``RecordID``, ``ZoneID`` and
/// ``CloudKitError``: `SyncEngine.Event` for `CKSyncEngine.Event`, `SyncEngine.State` for `CKSyncEngine.State`, and so
/// on.
///
/// A ``SyncEngineDelegate`` written in these terms runs unchanged inside an app, behind `CloudKitSyncEngineAdapter`
/// over a real `CKSyncEngine`, and in tests, inside ReconcileSimulator's `SimulatedSyncEngine`.
public enum SyncEngine {
  /// A record change the engine must send: `CKSyncEngine.PendingRecordZoneChange`.
  public enum PendingRecordZoneChange: Sendable, Hashable, Codable, CustomStringConvertible {
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
  public enum PendingDatabaseChange: Sendable, Hashable, Codable {
    /// Create (or save) the zone.
    case saveZone(ZoneID)
    /// Delete the zone.
    case deleteZone(ZoneID)

    /// The zone the change is about.
    public var zoneID: ZoneID {
      switch self {
      case .saveZone(let id), .deleteZone(let id): id
      }
    }
  }

  /// Why the engine sends: `CKSyncEngine.SendChangesContext`.
  public struct SendChangesContext: Sendable, Hashable {
    /// What asked for the send: `CKSyncEngine.SyncReason`.
    public enum Reason: Sendable, Hashable {
      /// The engine's own schedule, after changes were added.
      case scheduled
      /// The app asked (`sendChanges()`; `manual` in CloudKit).
      case explicit
    }
    /// What asked for the send.
    public var reason: Reason
    /// The most changes the engine takes in one request now. CKSyncEngine sizes batches itself and does not say
    /// (the adapter passes 400); the simulated engine halves it after `limitExceeded`.
    /// ``RecordZoneChangeBatch/init(pendingChanges:maximumItems:recordProvider:)`` takes it.
    public var maximumItems: Int

    /// A context.
    /// - Parameters:
    ///   - reason: What asked for the send.
    ///   - maximumItems: The most changes in one request; 400 unless given.
    package init(reason: Reason, maximumItems: Int = 400) {
      self.reason = reason
      self.maximumItems = maximumItems
    }
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
