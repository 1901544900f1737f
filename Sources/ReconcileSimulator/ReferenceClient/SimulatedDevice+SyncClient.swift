public import Foundation
public import Reconcile

extension SimulatedDevice: SyncClient {
  /// Every record ID the app sees, sorted.
  public var recordIDs: [RecordID] { storage.records.keys.sorted() }

  /// Whether request `id` is the one in flight.
  public func isAwaitingAnswer(to id: Int) -> Bool { session.inFlight?.id == id }

  /// Times out a request in flight for too long (see `checkTimeout(at:)`).
  public mutating func wake(at now: Date) { checkTimeout(at: now) }

  /// Damages the stored copy (see ``corruptStoredRecord(_:)``).
  public mutating func damageStoredRecord(_ id: RecordID) -> Bool { corruptStoredRecord(id) }

  /// The number of entries in the pending queue.
  public var pendingChangeCount: Int { storage.pending.count }

  /// What the app was handed before local data went.
  public var localDataDeletions: [LocalDataDeletion] { handedOver }

  /// The merges made since the last call, each key's outcome and what it gave away.
  public mutating func takeDecisions() -> [SyncDecision] {
    guard !store.decisions.isEmpty else { return [] }
    defer { store.decisions = [] }
    return store.decisions
  }

  /// The app's choice, from its setup (``ClientSetup/accountChange``).
  public var accountChangeResponse: AccountChangeResponse { configuration.accountChange }

  /// The committed zone token.
  public var persistedZoneToken: ZoneChangeToken? { storage.zoneToken }
}

extension SimulatedDevice.Configuration {
  /// The configuration of a reference device the simulation builds.
  /// - Parameter setup: What the simulation asks for.
  public init(_ setup: ClientSetup) {
    self.init(
      name: setup.name, userRecordName: setup.userRecordName, zoneID: setup.zoneID, resolver: setup.resolver,
      deletePolicy: setup.deletePolicy, schema: setup.schema, bookkeeping: setup.bookkeeping,
      clockOffset: setup.clockOffset, zoneDeletion: setup.zoneDeletion, defects: setup.defects)
    accountChange = setup.accountChange
  }
}
