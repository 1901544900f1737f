import Foundation

extension SyncEngine {
  /// What the engine tells its delegate: `CKSyncEngine.Event`, with the same cases in the same order of delivery.
  ///
  /// A fetch delivers `willFetchChanges`, `fetchedDatabaseChanges`, then per changed zone
  /// `willFetchRecordZoneChanges`, one `fetchedRecordZoneChanges` and one `stateUpdate` per page,
  /// `didFetchRecordZoneChanges`, and finally `didFetchChanges`. A send delivers `willSendChanges`,
  /// `sentDatabaseChanges` when zones were sent, `sentRecordZoneChanges` and `stateUpdate` per batch, and
  /// `didSendChanges`. A delegate persists each event's effect before returning: each event is one persistence write, and
  /// a torn crash lands between two of them.
  public indirect enum Event: Sendable, Hashable {
    /// The engine's state changed: persist the serialization and hand it back at launch.
    case stateUpdate(StateSerialization)
    /// The iCloud account changed: signed in, out, or switched. The engine has reset its state and cleared pending
    /// changes; several changes while the app was not running arrive as one.
    case accountChange(AccountChange)
    /// Zones changed or were deleted on the server.
    case fetchedDatabaseChanges(FetchedDatabaseChanges)
    /// One page of record changes in a zone.
    case fetchedRecordZoneChanges(FetchedRecordZoneChanges)
    /// The result of sending zone changes.
    case sentDatabaseChanges(SentDatabaseChanges)
    /// The result of sending one batch of record changes.
    case sentRecordZoneChanges(SentRecordZoneChanges)
    /// A fetch begins.
    case willFetchChanges
    /// A zone's fetch begins.
    case willFetchRecordZoneChanges(ZoneID)
    /// A zone's fetch ended, with the error that ended it early, if any.
    case didFetchRecordZoneChanges(ZoneID, error: CloudKitError?)
    /// A fetch ended.
    case didFetchChanges
    /// A send begins.
    case willSendChanges(SendChangesContext)
    /// A send ended.
    case didSendChanges(SendChangesContext)
  }

  /// `CKSyncEngine.Event.FetchedDatabaseChanges`.
  public struct FetchedDatabaseChanges: Sendable, Hashable {
    /// Zones that changed.
    public var modifications: [ZoneID]
    /// Zones deleted, each with why.
    public var deletions: [ZoneDeletion]

    /// Database changes.
    /// - Parameters:
    ///   - modifications: Zones that changed.
    ///   - deletions: Zones deleted.
    package init(modifications: [ZoneID], deletions: [ZoneDeletion]) {
      self.modifications = modifications
      self.deletions = deletions
    }
  }

  /// A deleted zone and why: `CKSyncEngine.Event.FetchedDatabaseChanges.Deletion`.
  public struct ZoneDeletion: Sendable, Hashable {
    /// Why a zone is gone. `Codable`, so an app can keep on disk a reason it has not acted on yet.
    public enum Reason: Sendable, Hashable, Codable {
      /// A client deleted it.
      case deleted
      /// The user deleted the app's data in Settings: do not upload it again.
      case purged
      /// The user reset their encrypted data during account recovery: upload what the device has again.
      case encryptedDataReset
    }
    /// The zone.
    public var zoneID: ZoneID
    /// Why it is gone.
    public var reason: Reason

    /// A deletion.
    /// - Parameters:
    ///   - zoneID: The zone.
    ///   - reason: Why it is gone.
    package init(zoneID: ZoneID, reason: Reason) {
      self.zoneID = zoneID
      self.reason = reason
    }
  }

  /// `CKSyncEngine.Event.FetchedRecordZoneChanges`: one page.
  public struct FetchedRecordZoneChanges: Sendable, Hashable {
    /// Records saved on the server since the last page.
    public var modifications: [Record]
    /// Records deleted on the server since the last page.
    public var deletions: [DeletedRecord]

    /// One page of changes.
    /// - Parameters:
    ///   - modifications: Records saved.
    ///   - deletions: Records deleted.
    package init(modifications: [Record], deletions: [DeletedRecord]) {
      self.modifications = modifications
      self.deletions = deletions
    }
  }

  /// `CKSyncEngine.Event.SentDatabaseChanges`.
  public struct SentDatabaseChanges: Sendable, Hashable {
    /// Zones saved.
    public var savedZones: [ZoneID]
    /// Zones that could not be saved, with why.
    public var failedZoneSaves: [ZoneID: CloudKitError]
    /// Zones deleted.
    public var deletedZoneIDs: [ZoneID]
    /// Zones that could not be deleted, with why.
    public var failedZoneDeletes: [ZoneID: CloudKitError]

    /// The result of sending zone changes.
    /// - Parameters:
    ///   - savedZones: Zones saved.
    ///   - failedZoneSaves: Zones not saved, with why.
    ///   - deletedZoneIDs: Zones deleted.
    ///   - failedZoneDeletes: Zones not deleted, with why.
    package init(
      savedZones: [ZoneID], failedZoneSaves: [ZoneID: CloudKitError] = [:], deletedZoneIDs: [ZoneID] = [],
      failedZoneDeletes: [ZoneID: CloudKitError] = [:]
    ) {
      self.savedZones = savedZones
      self.failedZoneSaves = failedZoneSaves
      self.deletedZoneIDs = deletedZoneIDs
      self.failedZoneDeletes = failedZoneDeletes
    }
  }

  /// `CKSyncEngine.Event.SentRecordZoneChanges`: the result of one batch.
  public struct SentRecordZoneChanges: Sendable, Hashable {
    /// Records the server saved, with their new system fields: keep them for the next save.
    public var savedRecords: [Record]
    /// Saves that failed, with why. The engine already removed their pending changes, except for errors it retries
    /// itself (transient ones and `batchRequestFailed`).
    public var failedRecordSaves: [FailedRecordSave]
    /// Records deleted.
    public var deletedRecordIDs: [RecordID]
    /// Deletions that failed, with why.
    public var failedRecordDeletes: [RecordID: CloudKitError]

    /// The result of one batch.
    /// - Parameters:
    ///   - savedRecords: Records saved, with their new system fields.
    ///   - failedRecordSaves: Saves that failed.
    ///   - deletedRecordIDs: Records deleted.
    ///   - failedRecordDeletes: Deletions that failed, with why.
    package init(
      savedRecords: [Record], failedRecordSaves: [FailedRecordSave] = [], deletedRecordIDs: [RecordID] = [],
      failedRecordDeletes: [RecordID: CloudKitError] = [:]
    ) {
      self.savedRecords = savedRecords
      self.failedRecordSaves = failedRecordSaves
      self.deletedRecordIDs = deletedRecordIDs
      self.failedRecordDeletes = failedRecordDeletes
    }
  }

  /// `CKSyncEngine.Event.SentRecordZoneChanges.FailedRecordSave`.
  public struct FailedRecordSave: Sendable, Hashable {
    /// The record the delegate supplied.
    public var record: Record
    /// Why it failed: a `serverRecordChanged` error carries the client, ancestor and server versions in
    /// ``CloudKitError/conflict``; `zoneNotFound`, `unknownItem` and the rest name what is wrong.
    public var error: CloudKitError

    /// A failed save.
    /// - Parameters:
    ///   - record: The record sent.
    ///   - error: Why it failed.
    package init(record: Record, error: CloudKitError) {
      self.record = record
      self.error = error
    }
  }
}
