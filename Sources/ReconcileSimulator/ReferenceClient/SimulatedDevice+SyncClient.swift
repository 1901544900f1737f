package import Foundation
package import Reconcile

extension SimulatedDevice: ShowsRecordSyncStates {
  /// The replica's record states.
  package var recordSyncStates: [RecordID: RecordSyncState] { storage.replica.metadata.recordStates }
}

extension SimulatedDevice: DiagnosableClient {
  /// Every record ID the app sees, sorted.
  package var recordIDs: [RecordID] { storage.records.recordIDs }

  /// Times out a request in flight for too long (see `checkTimeout(at:)`).
  package mutating func wake(at now: Date) { checkTimeout(at: now) }

  /// Damages the stored copy (see ``corruptStoredRecord(_:)``).
  package mutating func damageStoredRecord(_ id: RecordID) -> Bool { corruptStoredRecord(id) }

  /// The number of pending record and zone changes.
  package var pendingChangeCount: Int {
    storage.queue.pendingRecords.count + storage.queue.pendingDatabaseChanges.count
  }

  /// What the app was handed before local data went.
  package var localDataDeletions: [LocalDataDeletion] { storage.replica.discarded }

  /// The committed zone token.
  package var persistedZoneToken: ZoneChangeToken? { storage.zoneToken }

  /// What is queued for each record: `save` or `delete`.
  package var queuedKinds: [RecordID: String] {
    var kinds: [RecordID: String] = [:]
    for change in storage.queue.pendingRecords {
      switch change {
      case .saveRecord(let id): kinds[id] = "save"
      case .deleteRecord(let id): kinds[id] = "delete"
      }
    }
    return kinds
  }
}

extension SimulatedDevice.Configuration {
  /// The configuration of a reference device the simulation builds.
  /// - Parameter setup: What the simulation asks for.
  package init(_ setup: ClientSetup) {
    self.init(
      name: setup.name, userRecordName: setup.userRecordName, zoneID: setup.zoneID, resolver: setup.resolver,
      deletePolicy: setup.deletePolicy, schema: setup.schema, bookkeeping: setup.bookkeeping,
      clockOffset: setup.clockOffset, zoneDeletion: setup.zoneDeletion, defects: setup.defects)
    accountChange = setup.accountChange
  }

  /// The sync rules' configuration: the same policies, and the defects that remove one of the replica's rules.
  var replicaConfiguration: ReplicaConfiguration {
    var replica = ReplicaConfiguration(
      zoneID: zoneID, deviceName: name, resolver: resolver, bookkeeping: bookkeeping, deletePolicy: deletePolicy,
      schema: schema, zoneLoss: zoneDeletion)
    replica.accountChange = accountChange
    replica.flaws = Set(ClientDefect.allCases.filter { defects.contains($0) }.compactMap(\.replicaFlaw))
    return replica
  }
}

extension SimulatedDevice: ClientMethods {}

extension SimulatedDevice: HandsOverLocalData {}
