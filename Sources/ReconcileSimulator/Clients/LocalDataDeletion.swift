public import Reconcile

/// Local data a client deletes wholesale because of what its user did elsewhere — purged the app's data in Settings,
/// deleted it from another device (under `ZoneDeletionResponse.dropLocalData`), or left the iCloud account — handed
/// to the app with every copy that goes, edits the server never got included: the hook an app uses to archive, export
/// or tell its user (sqlite-data users ask for one on a purge). A record the user deleted on another device, fetched
/// as a deletion, is not handed over: that is the user's deletion, not the app's.
///
/// The simulator keeps every hand-over (``SyncClient/localDataDeletions``); the reference client and the example
/// CKSyncEngine delegate make one before each such deletion.
public struct LocalDataDeletion: Sendable, Hashable {
  /// Why the data goes.
  public enum Cause: Sendable, Hashable {
    /// The zone went for this reason, and the reason stands for the user deleting their data.
    case zoneDeletion(SyncEngine.ZoneDeletion.Reason)
    /// The iCloud account changed, and the app deletes the previous account's data.
    case accountChange(SyncEngine.AccountChange)
  }

  /// Why the data goes.
  public var cause: Cause
  /// The copies that go, as the device held them — edits the server never got included — in record-ID order.
  public var records: [Record]

  /// A hand-over.
  /// - Parameters:
  ///   - cause: Why the data goes.
  ///   - records: The copies that go; sorted by record ID here.
  public init(cause: Cause, records: [Record]) {
    self.cause = cause
    self.records = records.sorted { $0.recordID < $1.recordID }
  }
}

extension LocalDataDeletion.Cause {
  /// A `ZoneReplica`'s reason for discarding records, as the simulator names it.
  /// - Parameter cause: The replica's reason.
  public init(_ cause: DiscardedRecords.Cause) {
    switch cause {
    case .zoneDeletion(let reason): self = .zoneDeletion(reason)
    case .accountChange(let change): self = .accountChange(change)
    }
  }
}
