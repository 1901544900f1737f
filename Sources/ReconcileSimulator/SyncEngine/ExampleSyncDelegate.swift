public import Foundation
public import Reconcile

/// A delegate that does what Apple's CKSyncEngine sample app does, for trying the simulated engine and as a template:
/// **whole-record last-writer-wins on a modification date the device writes**, kept in the record's encrypted values
/// (``modifiedAtKey``).
///
/// - A fetched record replaces the local copy when its modification date is at least the local one; otherwise the local
///   values stay on top of the server's system fields.
/// - A `serverRecordChanged` failure merges the server's record the same way and re-adds the save.
/// - `zoneNotFound` re-creates the zone and re-adds the save as a new record; `unknownItem` (the record was deleted on
///   the server) re-uploads it under `.editWins` and drops it under `.deleteWins`.
/// - A deleted zone drops what the server had acknowledged and re-uploads records it never had (under
///   ``ZoneDeletionResponse/reuploadLocalData``, everything).
///
/// It persists every change at once, so ``relaunch()`` keeps everything and a crash loses nothing of the app's.
///
/// **Its known flaw** is the sample's: the modification date comes from the device's clock. A device whose clock runs
/// ahead writes dates from the future, and a later edit made elsewhere loses to them — on fetch the device keeps its
/// own older values and never sends them, so it no longer matches the server. The property runner finds this in seeded
/// runs with clock skew (``Invariant/convergence``) and shrinks it to a few steps; whole-record merging also loses one
/// side of concurrent edits to different keys, which field-merge's ``Invariant/oneSidedChangesKept`` reports.
public struct ExampleSyncDelegate: SyncEngineDelegate {
  /// The encrypted field holding the device-written modification date.
  public static let modifiedAtKey = "modifiedAt"

  /// What the app keeps on disk.
  public struct Disk: Sendable, Hashable {
    /// The records the app shows, each on the system fields of the last server version it knew (none for a record the
    /// server never acknowledged).
    public var records: [RecordID: Record] = [:]
    /// The engine state from the latest `stateUpdate`.
    public var stateSerialization: SyncEngine.StateSerialization?
    /// Whether the app knows its zone exists on the server.
    public var zoneCreated = false
    /// The records seen so far by a fetch from the beginning of the zone (its token was `nil`: first launch, or an
    /// expired token); `nil` when none is under way. At its end, acknowledged records it did not bring are gone.
    public var fullFetchSeen: Set<RecordID>?
  }

  /// What the app persisted.
  public internal(set) var disk = Disk()
  let zoneID: ZoneID
  let deletePolicy: DeletePolicy
  let zoneDeletion: ZoneDeletionResponse
  var clockOffset: TimeInterval

  /// The first launch.
  /// - Parameter setup: The device and the zone.
  public init(setup: ClientSetup) {
    zoneID = setup.zoneID
    deletePolicy = setup.deletePolicy
    zoneDeletion = setup.zoneDeletion
    clockOffset = setup.clockOffset
  }

  /// The latest persisted state.
  public var stateSerialization: SyncEngine.StateSerialization? { disk.stateSerialization }

  /// Everything is on disk already.
  public mutating func relaunch() {}

  /// Every record, sorted by ID.
  public var records: [Record] { disk.records.values.sorted { $0.recordID < $1.recordID } }

  /// One record.
  public func record(_ id: RecordID) -> Record? { disk.records[id] }

  /// Moves the device clock.
  public mutating func jumpClock(by seconds: TimeInterval) { clockOffset += seconds }

  // MARK: The user's operations

  /// Stores the record with a modification date and queues its save (and the zone, the first time).
  public mutating func create(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State) throws {
    guard disk.records[record.recordID] == nil else { throw DeviceError.recordExists(record.recordID) }
    var new = record
    stamp(&new, at: now)
    disk.records[record.recordID] = new
    if !disk.zoneCreated { syncEngine.add(pendingDatabaseChanges: [.saveZone(RecordZone(zoneID: zoneID))]) }
    syncEngine.add(pendingRecordZoneChanges: [.saveRecord(record.recordID)])
  }

  /// Changes the record, stamps it and queues its save.
  public mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws {
    guard var record = disk.records[id] else { throw DeviceError.recordNotFound(id) }
    for (key, value) in values { record[key] = value }
    stamp(&record, at: now)
    disk.records[id] = record
    syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
  }

  /// Removes the record and queues its deletion.
  public mutating func delete(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws {
    guard disk.records.removeValue(forKey: id) != nil else { throw DeviceError.recordNotFound(id) }
    syncEngine.add(pendingRecordZoneChanges: [.deleteRecord(id)])
  }

  private func stamp(_ record: inout Record, at now: Date) {
    record.encryptedValues[Self.modifiedAtKey] = .timestamp(now.addingTimeInterval(clockOffset))
  }

  static func modifiedAt(_ record: Record) -> Date {
    if case .timestamp(let date)? = record.encryptedValues[modifiedAtKey] { return date }
    return .distantPast
  }

  // MARK: The engine

  /// Builds the next batch from the pending changes of the app's zone.
  public func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? {
    SyncEngine.RecordZoneChangeBatch(
      pendingChanges: syncEngine.pendingRecordZoneChanges.filter { $0.recordID.zoneID == zoneID },
      maximumItems: context.maximumItems
    ) { disk.records[$0] }
  }

  /// Handles one event, persisting its effect.
  public mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    switch event {
    case .stateUpdate(let serialization):
      disk.stateSerialization = serialization
    case .fetchedDatabaseChanges(let changes):
      if changes.modifications.contains(zoneID) { disk.zoneCreated = true }
      if changes.deletions.contains(where: { $0.zoneID == zoneID }) { zoneWasDeleted(&syncEngine) }
    case .willFetchRecordZoneChanges(let zone):
      if zone == zoneID, syncEngine.serialization.zoneTokens[zone] == nil { disk.fullFetchSeen = [] }
    case .didFetchRecordZoneChanges(let zone, nil) where zone == zoneID:
      finishFullFetch(&syncEngine)
    case .fetchedRecordZoneChanges(let changes):
      for server in changes.modifications where server.recordID.zoneID == zoneID {
        disk.fullFetchSeen?.insert(server.recordID)
        // A record the user deleted here stays deleted; its deletion is pending.
        if disk.records[server.recordID] == nil,
          syncEngine.pendingRecordZoneChanges.contains(.deleteRecord(server.recordID))
        {
          continue
        }
        disk.records[server.recordID] = merge(server: server, local: disk.records[server.recordID])
      }
      for deletion in changes.deletions { applyDeletion(of: deletion.recordID, &syncEngine) }
    case .sentDatabaseChanges(let sent):
      if sent.savedZones.contains(where: { $0.zoneID == zoneID }) { disk.zoneCreated = true }
    case .sentRecordZoneChanges(let sent):
      for saved in sent.savedRecords {
        guard let local = disk.records[saved.recordID] else { continue }
        // Edits made while the save was in flight stay on top of the new system fields (their save is pending).
        disk.records[saved.recordID] = Self.values(of: local, on: saved)
      }
      for failure in sent.failedRecordSaves { handleFailedSave(failure, &syncEngine) }
    case .accountChange, .willFetchChanges, .didFetchRecordZoneChanges, .didFetchChanges, .willSendChanges,
      .didSendChanges:
      break
    }
  }

  private mutating func handleFailedSave(_ failure: SyncEngine.FailedRecordSave, _ syncEngine: inout SyncEngine.State) {
    let id = failure.record.recordID
    switch failure.error {
    case .serverRecordChanged(_, _, let server):
      guard let local = disk.records[id] else { return }
      let merged = merge(server: server, local: local)
      disk.records[id] = merged
      if !Self.sameValues(merged, server) { syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)]) }
    case .zoneNotFound:
      disk.zoneCreated = false
      syncEngine.add(pendingDatabaseChanges: [.saveZone(RecordZone(zoneID: zoneID))])
      if let local = disk.records[id] { disk.records[id] = local.withoutSystemFields }
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
    case .unknownItem:
      guard let local = disk.records[id] else { return }
      if deletePolicy == .deleteWins {
        disk.records[id] = nil
      } else {
        disk.records[id] = local.withoutSystemFields
        syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
      }
    default:
      // Transient errors and batchRequestFailed are retried by the engine; anything else is logged and dropped.
      break
    }
  }

  /// The server deleted a record. A local record without system fields was created here since (the deletion is of an
  /// older one with its ID) and stays; an acknowledged one goes, unless it has unsent edits under `.editWins`, which
  /// upload it again.
  private mutating func applyDeletion(of id: RecordID, _ syncEngine: inout SyncEngine.State) {
    guard let local = disk.records[id], local.recordChangeTag != nil else { return }
    if deletePolicy == .editWins, syncEngine.pendingRecordZoneChanges.contains(.saveRecord(id)) {
      disk.records[id] = local.withoutSystemFields
      return
    }
    disk.records[id] = nil
    syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
  }

  /// The end of a fetch from the beginning: acknowledged records it did not bring were deleted meanwhile.
  private mutating func finishFullFetch(_ syncEngine: inout SyncEngine.State) {
    guard let seen = disk.fullFetchSeen else { return }
    disk.fullFetchSeen = nil
    for id in disk.records.keys.sorted() where !seen.contains(id) { applyDeletion(of: id, &syncEngine) }
  }

  private mutating func zoneWasDeleted(_ syncEngine: inout SyncEngine.State) {
    disk.zoneCreated = false
    for (id, record) in disk.records.sorted(by: { $0.key < $1.key }) {
      if zoneDeletion == .dropLocalData, record.recordChangeTag != nil {
        disk.records[id] = nil
        syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
      } else {
        disk.records[id] = record.withoutSystemFields
        syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
      }
    }
    if !disk.records.isEmpty { syncEngine.add(pendingDatabaseChanges: [.saveZone(RecordZone(zoneID: zoneID))]) }
  }

  /// Last writer wins, whole record, by the device-written date: the server's record when its date is at least the
  /// local one, else the local values on the server's system fields.
  private func merge(server: Record, local: Record?) -> Record {
    guard let local, Self.modifiedAt(local) > Self.modifiedAt(server) else { return server }
    return Self.values(of: local, on: server)
  }

  /// `record`'s values and encrypted values on `base`'s system fields.
  static func values(of record: Record, on base: Record) -> Record {
    var result = base
    for key in Set(base.allKeys).union(record.allKeys).sorted() where !record.hasSameValue(forKey: key, as: base) {
      result.takeValue(of: key, from: record)
    }
    return result
  }

  static func sameValues(_ a: Record, _ b: Record) -> Bool {
    Set(a.allKeys).union(b.allKeys).allSatisfy { a.hasSameValue(forKey: $0, as: b) }
  }
}

/// The built-in CKSyncEngine-style client.
public typealias ExampleSyncEngine = SimulatedSyncEngine<ExampleSyncDelegate>

extension ClientUnderTest {
  /// A ``SimulatedSyncEngine`` with the ``ExampleSyncDelegate`` (script name `sync-engine`).
  public static let syncEngine = ClientUnderTest(name: "sync-engine") { setup in try ExampleSyncEngine(setup: setup) }
}
