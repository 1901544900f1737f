// The CKSyncEngine part of the CloudKit stand-in (see CloudKit.swift): each declaration copies the Swift signature on
// the Apple reference page named beside it (developer.apple.com/documentation/cloudkit/…, the pages under
// cksyncengine-5sie5 and ckdatabase), checked on 2026-11-23. Bodies are placeholders, never run. Only what the adapter
// and the examples use is declared.
public import Foundation

/// …/ckdatabase: `class CKDatabase`.
open class CKDatabase: NSObject, @unchecked Sendable {
  /// …/ckdatabase/recordzonechange: `enum RecordZoneChange`.
  public enum RecordZoneChange {
    /// …/ckdatabase/recordzonechange/modification: `struct Modification` with `var record: CKRecord { get }`.
    public struct Modification: Sendable {
      /// As on Apple's page for the enclosing type.
      public var record: CKRecord { CKRecord(recordType: "", recordID: CKRecord.ID(recordName: "")) }
    }
    /// …/ckdatabase/recordzonechange/deletion: `struct Deletion` with `var recordID: CKRecord.ID { get }` and
    /// `var recordType: CKRecord.RecordType { get }`.
    public struct Deletion: Hashable, Sendable {
      /// As on Apple's page for the enclosing type.
      public var recordID: CKRecord.ID { CKRecord.ID(recordName: "") }
      /// As on Apple's page for the enclosing type.
      public var recordType: CKRecord.RecordType { "" }
    }
  }
  /// …/ckdatabase/databasechange: `enum DatabaseChange`.
  public enum DatabaseChange {
    /// …/ckdatabase/databasechange/modification: `struct Modification` with `var zoneID: CKRecordZone.ID { get }`.
    public struct Modification: Sendable {
      /// As on Apple's page for the enclosing type.
      public var zoneID: CKRecordZone.ID { CKRecordZone.ID() }
    }
    /// …/ckdatabase/databasechange/deletion: `struct Deletion` with `var zoneID: CKRecordZone.ID { get }` and
    /// `var reason: CKDatabase.DatabaseChange.Deletion.Reason` (iOS 17).
    public struct Deletion: Sendable {
      /// …/deletion/reason-swift.enum: `enum Reason` (`deleted`, `purged`, `encryptedDataReset`).
      public enum Reason: Sendable, Hashable {
        case deleted
        case purged
        case encryptedDataReset
      }
      /// As on Apple's page for the enclosing type.
      public var zoneID: CKRecordZone.ID { CKRecordZone.ID() }
      /// As on Apple's page for the enclosing type.
      public var reason: CKDatabase.DatabaseChange.Deletion.Reason { .deleted }
    }
  }
}

/// …/ckcontainer: `class CKContainer` with `class func \`default\`() -> CKContainer` and
/// `var privateCloudDatabase: CKDatabase { get }`.
open class CKContainer: NSObject, @unchecked Sendable {
  open class func `default`() -> CKContainer { CKContainer() }
  open var privateCloudDatabase: CKDatabase { CKDatabase() }
}

/// …/cksyncengine-5sie5: `final class CKSyncEngine` (iOS 17, macOS 14).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public final class CKSyncEngine: @unchecked Sendable {
  /// …/cksyncengine-5sie5/init(_:): `init(_ configuration: CKSyncEngine.Configuration)`
  public init(_ configuration: CKSyncEngine.Configuration) {}
  /// …/cksyncengine-5sie5/state-swift.property: `var state: CKSyncEngine.State { get }`
  public var state: CKSyncEngine.State { CKSyncEngine.State() }
  /// …/cksyncengine-5sie5/fetchchanges(_:): `final func fetchChanges(_ options: CKSyncEngine.FetchChangesOptions = .init()) async throws`
  public final func fetchChanges(_ options: CKSyncEngine.FetchChangesOptions = .init()) async throws {}
  /// …/cksyncengine-5sie5/fetchchangesoptions: `struct FetchChangesOptions`.
  public struct FetchChangesOptions: Sendable {
    /// As on Apple's page for the enclosing type.
    public init() {}
  }

  /// …/cksyncengine-5sie5/configuration: `struct Configuration`.
  public struct Configuration {
    /// …/configuration/init(database:stateserialization:delegate:):
    /// `init(database: CKDatabase, stateSerialization: CKSyncEngine.State.Serialization?, delegate: any CKSyncEngineDelegate)`
    public init(
      database: CKDatabase, stateSerialization: CKSyncEngine.State.Serialization?, delegate: any CKSyncEngineDelegate
    ) {}
  }

  /// …/cksyncengine-5sie5/state-swift.class: `final class State`.
  public final class State: @unchecked Sendable {
    init() {}
    /// …/state-swift.class/serialization: `struct Serialization` (Decodable, Encodable, Sendable).
    public struct Serialization: Codable, Sendable {}
    /// …/state-swift.class/pendingrecordzonechanges: `var pendingRecordZoneChanges: [CKSyncEngine.PendingRecordZoneChange] { get }`
    public var pendingRecordZoneChanges: [CKSyncEngine.PendingRecordZoneChange] { [] }
    /// …/state-swift.class/pendingdatabasechanges: `var pendingDatabaseChanges: [CKSyncEngine.PendingDatabaseChange] { get }`
    public var pendingDatabaseChanges: [CKSyncEngine.PendingDatabaseChange] { [] }
    /// …/state-swift.class/add(pendingrecordzonechanges:): `final func add(pendingRecordZoneChanges: [CKSyncEngine.PendingRecordZoneChange])`
    public final func add(pendingRecordZoneChanges: [CKSyncEngine.PendingRecordZoneChange]) {}
    /// …/state-swift.class/remove(pendingrecordzonechanges:): `final func remove(pendingRecordZoneChanges: [CKSyncEngine.PendingRecordZoneChange])`
    public final func remove(pendingRecordZoneChanges: [CKSyncEngine.PendingRecordZoneChange]) {}
    /// …/state-swift.class/add(pendingdatabasechanges:): `final func add(pendingDatabaseChanges: [CKSyncEngine.PendingDatabaseChange])`
    public final func add(pendingDatabaseChanges: [CKSyncEngine.PendingDatabaseChange]) {}
    /// …/state-swift.class/remove(pendingdatabasechanges:): `final func remove(pendingDatabaseChanges: [CKSyncEngine.PendingDatabaseChange])`
    public final func remove(pendingDatabaseChanges: [CKSyncEngine.PendingDatabaseChange]) {}
  }

  /// …/cksyncengine-5sie5/pendingrecordzonechange: `enum PendingRecordZoneChange`.
  public enum PendingRecordZoneChange: Hashable, Sendable {
    /// …/pendingrecordzonechange/saverecord(_:): `case saveRecord(CKRecord.ID)`
    case saveRecord(CKRecord.ID)
    /// …/pendingrecordzonechange/deleterecord(_:): `case deleteRecord(CKRecord.ID)`
    case deleteRecord(CKRecord.ID)
  }

  /// …/cksyncengine-5sie5/pendingdatabasechange: `enum PendingDatabaseChange`.
  public enum PendingDatabaseChange: Hashable, Sendable {
    /// …/pendingdatabasechange/savezone(_:): `case saveZone(CKRecordZone)`
    case saveZone(CKRecordZone)
    /// …/pendingdatabasechange/deletezone(_:): `case deleteZone(CKRecordZone.ID)`
    case deleteZone(CKRecordZone.ID)
  }

  /// …/cksyncengine-5sie5/syncreason: `enum SyncReason` (`scheduled`, `manual`).
  public enum SyncReason: Hashable, Sendable {
    case scheduled
    case manual
  }

  /// …/cksyncengine-5sie5/sendchangescontext: `struct SendChangesContext` with `let reason: CKSyncEngine.SyncReason`.
  public struct SendChangesContext: Sendable {
    /// As on Apple's page for the enclosing type.
    public let reason: CKSyncEngine.SyncReason
  }

  /// …/cksyncengine-5sie5/recordzonechangebatch: `struct RecordZoneChangeBatch`.
  public struct RecordZoneChangeBatch: Sendable {
    /// …/recordzonechangebatch/init(recordstosave:recordidstodelete:atomicbyzone:):
    /// `init(recordsToSave: [CKRecord], recordIDsToDelete: [CKRecord.ID], atomicByZone: Bool)`
    public init(recordsToSave: [CKRecord], recordIDsToDelete: [CKRecord.ID], atomicByZone: Bool) {}
    /// …/recordzonechangebatch/init(pendingchanges:recordprovider:):
    /// `init?(pendingChanges: [CKSyncEngine.PendingRecordZoneChange], recordProvider: @Sendable (CKRecord.ID) async -> CKRecord?) async`
    public init?(
      pendingChanges: [CKSyncEngine.PendingRecordZoneChange], recordProvider: @Sendable (CKRecord.ID) async -> CKRecord?
    ) async { return nil }
  }

  /// …/cksyncengine-5sie5/event: `enum Event`, its twelve cases each with a payload struct.
  public enum Event: Sendable {
    /// …/event/stateupdate(_:): `case stateUpdate(CKSyncEngine.Event.StateUpdate)`
    case stateUpdate(CKSyncEngine.Event.StateUpdate)
    /// …/event/accountchange(_:): `case accountChange(CKSyncEngine.Event.AccountChange)`
    case accountChange(CKSyncEngine.Event.AccountChange)
    /// …/event/fetcheddatabasechanges(_:): `case fetchedDatabaseChanges(CKSyncEngine.Event.FetchedDatabaseChanges)`
    case fetchedDatabaseChanges(CKSyncEngine.Event.FetchedDatabaseChanges)
    /// …/event/fetchedrecordzonechanges(_:): `case fetchedRecordZoneChanges(CKSyncEngine.Event.FetchedRecordZoneChanges)`
    case fetchedRecordZoneChanges(CKSyncEngine.Event.FetchedRecordZoneChanges)
    /// …/event/sentdatabasechanges(_:): `case sentDatabaseChanges(CKSyncEngine.Event.SentDatabaseChanges)`
    case sentDatabaseChanges(CKSyncEngine.Event.SentDatabaseChanges)
    /// …/event/sentrecordzonechanges(_:): `case sentRecordZoneChanges(CKSyncEngine.Event.SentRecordZoneChanges)`
    case sentRecordZoneChanges(CKSyncEngine.Event.SentRecordZoneChanges)
    /// …/event/willfetchchanges(_:): `case willFetchChanges(CKSyncEngine.Event.WillFetchChanges)`
    case willFetchChanges(CKSyncEngine.Event.WillFetchChanges)
    /// …/event/willfetchrecordzonechanges(_:): `case willFetchRecordZoneChanges(CKSyncEngine.Event.WillFetchRecordZoneChanges)`
    case willFetchRecordZoneChanges(CKSyncEngine.Event.WillFetchRecordZoneChanges)
    /// …/event/didfetchrecordzonechanges(_:): `case didFetchRecordZoneChanges(CKSyncEngine.Event.DidFetchRecordZoneChanges)`
    case didFetchRecordZoneChanges(CKSyncEngine.Event.DidFetchRecordZoneChanges)
    /// …/event/didfetchchanges(_:): `case didFetchChanges(CKSyncEngine.Event.DidFetchChanges)`
    case didFetchChanges(CKSyncEngine.Event.DidFetchChanges)
    /// …/event/willsendchanges(_:): `case willSendChanges(CKSyncEngine.Event.WillSendChanges)`
    case willSendChanges(CKSyncEngine.Event.WillSendChanges)
    /// …/event/didsendchanges(_:): `case didSendChanges(CKSyncEngine.Event.DidSendChanges)`
    case didSendChanges(CKSyncEngine.Event.DidSendChanges)

    /// …/event/stateupdate: `struct StateUpdate` with `let stateSerialization: CKSyncEngine.State.Serialization`.
    public struct StateUpdate: Sendable {
      /// As on Apple's page for the enclosing type.
      public let stateSerialization: CKSyncEngine.State.Serialization
    }
    /// …/event/accountchange: `struct AccountChange` with `let changeType: ChangeType`, whose cases carry the users'
    /// record IDs: `signIn(currentUser:)`, `signOut(previousUser:)`, `switchAccounts(previousUser:currentUser:)`.
    public struct AccountChange: Sendable {
      /// As on Apple's page for the enclosing type.
      public enum ChangeType: Sendable {
        case signIn(currentUser: CKRecord.ID)
        case signOut(previousUser: CKRecord.ID)
        case switchAccounts(previousUser: CKRecord.ID, currentUser: CKRecord.ID)
      }
      /// As on Apple's page for the enclosing type.
      public var changeType: ChangeType { .signOut(previousUser: CKRecord.ID(recordName: "_user")) }
    }
    /// …/event/fetcheddatabasechanges: `struct FetchedDatabaseChanges` with
    /// `let modifications: [CKDatabase.DatabaseChange.Modification]` and `let deletions: [CKDatabase.DatabaseChange.Deletion]`.
    public struct FetchedDatabaseChanges: Sendable {
      /// As on Apple's page for the enclosing type.
      public let modifications: [CKDatabase.DatabaseChange.Modification]
      /// As on Apple's page for the enclosing type.
      public let deletions: [CKDatabase.DatabaseChange.Deletion]
    }
    /// …/event/fetchedrecordzonechanges: `struct FetchedRecordZoneChanges` with
    /// `let modifications: [CKDatabase.RecordZoneChange.Modification]` and `let deletions: [CKDatabase.RecordZoneChange.Deletion]`.
    public struct FetchedRecordZoneChanges: Sendable {
      /// As on Apple's page for the enclosing type.
      public let modifications: [CKDatabase.RecordZoneChange.Modification]
      /// As on Apple's page for the enclosing type.
      public let deletions: [CKDatabase.RecordZoneChange.Deletion]
    }
    /// …/event/sentdatabasechanges: `struct SentDatabaseChanges` with `let savedZones: [CKRecordZone]`,
    /// `let failedZoneSaves: [CKSyncEngine.Event.SentDatabaseChanges.FailedZoneSave]`,
    /// `let deletedZoneIDs: [CKRecordZone.ID]`, `let failedZoneDeletes: [CKRecordZone.ID : CKError]`.
    public struct SentDatabaseChanges: Sendable {
      /// …/sentdatabasechanges/failedzonesave: `struct FailedZoneSave` with `let zone: CKRecordZone`, `let error: CKError`.
      public struct FailedZoneSave: Sendable {
        /// As on Apple's page for the enclosing type.
        public let zone: CKRecordZone
        /// As on Apple's page for the enclosing type.
        public let error: CKError
      }
      /// As on Apple's page for the enclosing type.
      public let savedZones: [CKRecordZone]
      /// As on Apple's page for the enclosing type.
      public let failedZoneSaves: [CKSyncEngine.Event.SentDatabaseChanges.FailedZoneSave]
      /// As on Apple's page for the enclosing type.
      public let deletedZoneIDs: [CKRecordZone.ID]
      /// As on Apple's page for the enclosing type.
      public let failedZoneDeletes: [CKRecordZone.ID: CKError]
    }
    /// …/event/sentrecordzonechanges: `struct SentRecordZoneChanges` with `let savedRecords: [CKRecord]`,
    /// `let failedRecordSaves: [CKSyncEngine.Event.SentRecordZoneChanges.FailedRecordSave]`,
    /// `let deletedRecordIDs: [CKRecord.ID]`, `let failedRecordDeletes: [CKRecord.ID : CKError]`.
    public struct SentRecordZoneChanges: Sendable {
      /// …/sentrecordzonechanges/failedrecordsave: `struct FailedRecordSave` with `let record: CKRecord`, `let error: CKError`.
      public struct FailedRecordSave: Sendable {
        /// As on Apple's page for the enclosing type.
        public let record: CKRecord
        /// As on Apple's page for the enclosing type.
        public let error: CKError
      }
      /// As on Apple's page for the enclosing type.
      public let savedRecords: [CKRecord]
      /// As on Apple's page for the enclosing type.
      public let failedRecordSaves: [CKSyncEngine.Event.SentRecordZoneChanges.FailedRecordSave]
      /// As on Apple's page for the enclosing type.
      public let deletedRecordIDs: [CKRecord.ID]
      /// As on Apple's page for the enclosing type.
      public let failedRecordDeletes: [CKRecord.ID: CKError]
    }
    /// …/event/willfetchchanges: `struct WillFetchChanges`.
    public struct WillFetchChanges: Sendable {}
    /// …/event/willfetchrecordzonechanges: `struct WillFetchRecordZoneChanges` with `let zoneID: CKRecordZone.ID`.
    public struct WillFetchRecordZoneChanges: Sendable {
      /// As on Apple's page for the enclosing type.
      public let zoneID: CKRecordZone.ID
    }
    /// …/event/didfetchrecordzonechanges: `struct DidFetchRecordZoneChanges` with `let zoneID: CKRecordZone.ID` and
    /// `let error: CKError?`.
    public struct DidFetchRecordZoneChanges: Sendable {
      /// As on Apple's page for the enclosing type.
      public let zoneID: CKRecordZone.ID
      /// As on Apple's page for the enclosing type.
      public let error: CKError?
    }
    /// …/event/didfetchchanges: `struct DidFetchChanges`.
    public struct DidFetchChanges: Sendable {}
    /// …/event/willsendchanges: `struct WillSendChanges` with `let context: CKSyncEngine.SendChangesContext`.
    public struct WillSendChanges: Sendable {
      /// As on Apple's page for the enclosing type.
      public let context: CKSyncEngine.SendChangesContext
    }
    /// …/event/didsendchanges: `struct DidSendChanges` with `let context: CKSyncEngine.SendChangesContext`.
    public struct DidSendChanges: Sendable {
      /// As on Apple's page for the enclosing type.
      public let context: CKSyncEngine.SendChangesContext
    }
  }
}

/// …/cksyncenginedelegate-1q7g8: `protocol CKSyncEngineDelegate : AnyObject, Sendable`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public protocol CKSyncEngineDelegate: AnyObject, Sendable {
  /// …/cksyncenginedelegate-1q7g8/handleevent(_:syncengine:):
  /// `func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async`
  func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async
  /// …/cksyncenginedelegate-1q7g8/nextrecordzonechangebatch(_:syncengine:):
  /// `func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch?`
  func nextRecordZoneChangeBatch(
    _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
  ) async -> CKSyncEngine.RecordZoneChangeBatch?
}
