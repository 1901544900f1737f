public import Foundation
public import Reconcile

/// A delegate that does what Apple's CKSyncEngine sample app does, for trying the simulated engine and as a template:
/// **whole-record last-writer-wins on a modification date the device writes**, kept in the record's encrypted values
/// (`modifiedAt`).
///
/// - A fetched record replaces the local copy when its modification date is at least the local one; otherwise the local
///   values stay on top of the server's system fields.
/// - A `serverRecordChanged` failure merges the server's record the same way and re-adds the save.
/// - `unknownItem` (the record was deleted on the server) re-uploads it under `.editWins` and drops it under
///   `.deleteWins`.
/// - A deleted zone, or `zoneNotFound` on a save, drops what the server had acknowledged and re-uploads into a
///   re-created zone the records it never had (under ``ZoneDeletionResponse/reuploadLocalData``, everything).
/// - Deletions carry no change tag, so one sent blindly could delete a record created anew elsewhere under the same ID.
///   Each deletion waits for a fetch that starts after it; a fetched record with another creation date cancels it, and
///   one written since by another device settles it by the delete policy. A new record never handed to the engine is
///   deleted locally only. The engine fetches when the network returns, before it sends.
/// - It removes pending saves of records it no longer has when it builds a batch: a crash between its own write and
///   the engine's `stateUpdate` leaves such changes.
///
/// It persists every change at once; ``relaunch()`` loses only which deletions the fetch under way covers.
///
/// **Its known flaw** is the sample's: a fetched record's values win only when its modification date is later, and
/// the date comes from the writing device's clock. When a save lands later than another device's but carries an older
/// date — a clock running behind, or a save retried after a lost answer — a device that already showed the newer-dated
/// copy keeps it, and no longer matches the server. The property runner finds this within a few seeds with clock skew
/// (``Invariant/convergence``) and shrinks it to a few steps; with true clocks it takes lost answers (flaky faults).
/// Whole-record merging also loses one side of concurrent edits to different keys, which field-merge's
/// ``Invariant/oneSidedChangesKept`` reports. Under `.deleteWins`, a deletion whose record another device re-created
/// (by a conflict merge onto the deleted record) can still delete the new one.
public struct ExampleSyncDelegate: SimulatedSyncEngineDelegate {
  /// The encrypted field holding the device-written modification date.
  package static let modifiedAtKey = "modifiedAt"

  /// What the app keeps on disk.
  package struct Disk: Sendable, Hashable {
    /// The records the app shows, each on the system fields of the last server version it knew (none for a record the
    /// server never acknowledged).
    package var records: [RecordID: Record] = [:]
    /// The engine state from the latest `stateUpdate`.
    package var stateSerialization: SyncEngine.StateSerialization?
    /// Whether the app knows its zone exists on the server.
    package var zoneCreated = false
    /// Whether the zone's next fetch starts from its beginning: at first launch, after the zone was deleted, and after
    /// a fetch of it ended with an error (an expired token, or the zone not found), after which the engine fetches it
    /// again from the start.
    package var zoneFetchStartsOver = true
    /// The records seen so far by a fetch from the beginning of the zone; `nil` when none is under way. At its end,
    /// acknowledged records it did not bring are gone.
    package var fullFetchSeen: Set<RecordID>?
    /// Whether the fetch from the beginning under way decides what went with a zone deleted and created again, under
    /// a response that uploads local data again: the acknowledged records it leaves out are uploaded again, not
    /// dropped.
    package var reuploadUnseen = false
    /// The reason for a deletion standing for the user's that the fetch from the beginning under way answers: what it
    /// leaves out goes, handed to the app first.
    package var listingDrops: SyncEngine.ZoneDeletion.Reason?
    /// Copies from an older zone this device uploaded again after a deletion that did not stand for the user's, until
    /// the database feed shows no deletion since: a later deletion that does stand, which the upload raced into a zone
    /// another device created, takes them from the server too.
    package var uploadedAgain: Set<RecordID> = []
    /// Records the user deleted whose deletion the server has not confirmed, each with its tombstone: the deleted
    /// record's creation date (`nil` when the server never confirmed the record: a copy that turns up may be this
    /// device's own save, so the deletion stands) — a fetched record with the same ID but another creation date was
    /// created anew elsewhere, and the deletion, which carries no change tag, must not be sent against it — and the
    /// change tag of the last version the deletion saw.
    package var deletions: [RecordID: Tombstone] = [:]
    /// New records (no system fields) handed to the engine to send, until the server confirms or refuses them: one of
    /// these may have landed, so deleting it must reach the server; a new record never handed out is deleted locally
    /// only.
    package var newRecordsHandedOut: Set<RecordID> = []
    /// New records the user deleted before any attempt to save them may have landed, deleted here only: should a copy
    /// of this device's own save turn up after all (a duplicate), it is deleted again.
    package var deletedLocally: [RecordID: Tombstone] = [:]
    /// New records handed out whose save went unanswered (`networkFailure`, `serverResponseLost`): it may have landed,
    /// whatever later answers say.
    package var savesInDoubt: Set<RecordID> = []
    /// New records whose create went unanswered once: a copy of that create may land at any time, even after a later
    /// copy was answered — and after a deletion, it creates the record again. A deletion of one is remembered in
    /// ``deletedLocally`` once confirmed, so that copy is deleted again.
    package var lateCreateCopies: Set<RecordID> = []
    /// Deletions not sent until a fetch that starts after them shows the zone unchanged or fetches it.
    package var deletionsAwaitingFetch: Set<RecordID> = []
    /// Under ``Rules/reconcile``, the last server version of each record the app knew: the ancestor of the next merge.
    package var ancestors: [RecordID: Record] = [:]
    /// Under ``Rules/reconcile``, the clock that stamps edits for the resolver's bookkeeping.
    package var clock: HybridLogicalClock?
    /// Records the user created again while their deletion was still unsent, with that deletion: the new record
    /// replaces the one on the server whole, and deleting it again owes the server the deletion.
    package var replacing: [RecordID: Tombstone] = [:]
    /// For each record in ``replacing``, the keys its app knew when the user created it: a key the app learnt only
    /// later (an upgrade since) was not the user's to set or leave out.
    package var replacementKeys: [RecordID: Set<String>] = [:]
    /// Whether a save of new record `id` may still land: handed out and unanswered, in doubt, or once unanswered (a
    /// late copy of its create). A deletion of it is remembered, to delete such a copy again.
    package func saveMayLandLate(_ id: RecordID) -> Bool {
      savesInDoubt.contains(id) || newRecordsHandedOut.contains(id) || lateCreateCopies.contains(id)
    }

    /// Why the app stopped syncing: a conflict with a newer app's record, which it must not merge, or one the
    /// resolver refused. The unsent change waits, kept, until an upgrade.
    package var halt: HaltReason?
    /// Server versions a halt kept from merging, until a merge takes them: the server holds the record, though the
    /// copy shown may be one it never acknowledged, so deleting it must reach the server.
    package var heldBack: [RecordID: Record] = [:]
    /// A save found the zone gone, with the reason its error implies (`zoneNotFound`: a client's deletion;
    /// `userDeletedZone`: a purge): nothing is sent until the database feed says why — what to keep depends on it,
    /// and the feed's report is the one the device handles, once — or, when a whole fetch does not say, the error's
    /// reason stands.
    package var zoneMissing: SyncEngine.ZoneDeletion.Reason?
    /// Records with unsent edits found created anew on the server, and whether a fetch has read the database feed
    /// since: until it has said whether their zone went (and the record was uploaded again), nothing is sent; the
    /// next merge after that decides whether the edits merge or go.
    package var recreatedWhileUnsent: [RecordID: Bool] = [:]
    /// Records uploaded again after their zone went, not yet saved or merged since: the last server version known
    /// before (in ``ancestors``) is still the ancestor of their first merge, so the user's unsent edits stand as
    /// changes and another device's upload of that same version changes nothing.
    package var reuploaded: Set<RecordID> = []
  }

  /// How the delegate merges: Apple's sample's rule, or Reconcile's.
  public enum Rules: Sendable, Hashable {
    /// Whole-record last-writer-wins on the device-written `modifiedAt`, as Apple's sample
    /// app does. The setup's resolver, bookkeeping and schema are not used.
    case appleSample
    /// The setup's resolver (guarded by its schema) over the last server version the app knew as the ancestor, the
    /// setup's bookkeeping on every edit, and the schema's check: a record from a newer major version is never edited
    /// here, a conflict with one halts the delegate (the user's change kept until an upgrade), and keys this app does
    /// not know are never removed.
    case reconcile
  }

  /// What the app persisted.
  package internal(set) var disk = Disk()
  let zoneID: ZoneID
  let deviceName: String
  let deletePolicy: DeletePolicy
  let zoneDeletion: ZoneDeletionResponse
  var clockOffset: TimeInterval
  /// What the app was handed before local data went: its hook before deletion (``SyncClient/localDataDeletions``).
  public internal(set) var localDataDeletions: [LocalDataDeletion] = []
  /// How it merges.
  public let rules: Rules
  let setupResolver: any ConflictResolver
  let bookkeeping: EditBookkeeping
  var schema: Schema?
  /// The deletions that were waiting when the fetch under way started (memory only).
  var fetchCovers: Set<RecordID> = []
  /// Whether the fetch under way shows the zone there: its database feed lists it, or its records were fetched
  /// (memory only).
  var zoneListed = false

  /// The first launch.
  /// - Parameter setup: The device and the zone.
  public init(setup: ClientSetup) {
    self.init(setup: setup, rules: .reconcile)
  }

  /// The first launch, with the given merge rules.
  /// - Parameters:
  ///   - setup: The device, the zone, and the app's merge rules.
  ///   - rules: Apple's sample's, or Reconcile's.
  public init(setup: ClientSetup, rules: Rules) {
    zoneID = setup.zoneID
    deviceName = setup.name
    deletePolicy = setup.deletePolicy
    zoneDeletion = setup.zoneDeletion
    clockOffset = setup.clockOffset
    self.rules = rules
    setupResolver = setup.resolver
    bookkeeping = setup.bookkeeping
    schema = setup.schema
    disk.clock = try? HybridLogicalClock(nodeID: setup.name)
  }

  /// A new app version is installed: its schema checks what is fetched and edited from now on, and a halt over a
  /// newer app's record is lifted.
  public mutating func upgrade(to schema: Schema?) {
    self.schema = schema
    disk.halt = nil
  }

  /// Why the app stopped syncing.
  public var haltReason: HaltReason? { disk.halt }

  /// The latest persisted state.
  public var stateSerialization: SyncEngine.StateSerialization? { disk.stateSerialization }

  /// Everything is on disk already; only the answer to a request in flight may be lost, so every new record handed
  /// out may yet land late.
  public mutating func relaunch() {
    fetchCovers = []
    // A crash may have lost the answer to a save of a new record handed out: a copy of that create may land later.
    disk.lateCreateCopies.formUnion(disk.newRecordsHandedOut)
  }

  /// Re-adds what the old engine had pending, and lists the zone from the beginning again: a record the listing leaves
  /// out was deleted while this device held a copy.
  public mutating func resetSync(replacing old: SyncEngine.State, syncEngine: inout SyncEngine.State) {
    syncEngine.add(pendingDatabaseChanges: old.pendingDatabaseChanges)
    syncEngine.add(pendingRecordZoneChanges: old.pendingRecordZoneChanges)
    disk.zoneFetchStartsOver = true
    disk.fullFetchSeen = nil
  }

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
    for key in new.allKeys { new.markChanged(key) }
    try stamp(&new, at: now)
    disk.ancestors[record.recordID] = nil
    let id = record.recordID
    // A deletion remembered because a save of the deleted record was in doubt is one this record replaces too: that
    // save may land, and the user's latest word is this record.
    let inDoubt = disk.saveMayLandLate(id)
    let remembered = disk.deletedLocally.removeValue(forKey: id).flatMap { inDoubt ? $0 : nil }
    if let deletion = disk.deletions.removeValue(forKey: id) ?? remembered {
      // Doubt about the deleted record's saves ends here: the replacement overwrites whatever of them landed, and
      // doubt from now on is about the replacement's own saves.
      disk.savesInDoubt.remove(id)
      disk.lateCreateCopies.remove(id)
      // The new record replaces the one deleted: its save overwrites it, so the deletion is not sent.
      disk.replacing[record.recordID] = deletion
      if let fields = schema?.recordSchemas[record.recordType]?.fields {
        disk.replacementKeys[record.recordID] = Set(fields.keys)
      }
      syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(record.recordID)])
    }
    disk.deletionsAwaitingFetch.remove(record.recordID)
    disk.records[record.recordID] = new
    if !disk.zoneCreated { syncEngine.add(pendingDatabaseChanges: [.saveZone(zoneID)]) }
    syncEngine.add(pendingRecordZoneChanges: [.saveRecord(record.recordID)])
  }

  /// Changes the record, stamps it and queues its save.
  public mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws {
    guard var record = disk.records[id] else { throw DeviceError.recordNotFound(id) }
    if rules == .reconcile, let schema {
      // A record from a newer major version is this app's to show, never to change.
      do { _ = try schema.check(record) } catch { throw DeviceError.schema(error) }
    }
    for (key, value) in values { record[key] = value }
    try stamp(&record, at: now)
    disk.records[id] = record
    syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
  }

  /// Removes the record and queues its deletion.
  public mutating func delete(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws {
    guard let deleted = disk.records.removeValue(forKey: id) else { throw DeviceError.recordNotFound(id) }
    disk.ancestors[id] = nil
    if let replaced = disk.replacing.removeValue(forKey: id) {
      // A replacement deleted again: the record it replaced is still owed its deletion, and the replacement's save
      // may have landed.
      disk.deletions[id] = replaced
      disk.deletionsAwaitingFetch.insert(id)
      if !disk.newRecordsHandedOut.contains(id) { syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)]) }
      syncEngine.add(pendingRecordZoneChanges: [.deleteRecord(id)])
      return
    }
    // A server version held back by a halt is the one the deletion is of.
    let heldBack = disk.heldBack.removeValue(forKey: id)
    let tombstone = Tombstone(deleting: heldBack ?? deleted, at: now.addingTimeInterval(clockOffset), by: deviceName)
    if deleted.recordChangeTag == nil, !disk.newRecordsHandedOut.contains(id), heldBack == nil {
      // The server never had it: nothing to delete there (a deletion could only hit another device's record).
      syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
      disk.deletedLocally[id] = tombstone
      return
    }
    disk.deletions[id] = tombstone
    disk.deletionsAwaitingFetch.insert(id)
    syncEngine.add(pendingRecordZoneChanges: [.deleteRecord(id)])
  }

  /// Writes what the rules read: the sample's modification date, or the schema's version and the resolver's
  /// bookkeeping.
  private mutating func stamp(_ record: inout Record, at now: Date) throws {
    let time = now.addingTimeInterval(clockOffset)
    switch rules {
    case .appleSample:
      record.encryptedValues[Self.modifiedAtKey] = .timestamp(time)
    case .reconcile:
      if let schema {
        do {
          if case .newerMinor = try schema.check(record) {} else { try schema.stampVersion(&record) }
        } catch {
          throw DeviceError.schema(error)
        }
      }
      if !bookkeeping.keys.isEmpty, var clock = disk.clock {
        do {
          try bookkeeping.stampEdit(&record, clock: &clock, at: time)
        } catch {
          throw DeviceError.bookkeeping(record.recordID, "\(error)")
        }
        disk.clock = clock
      }
    }
  }

  static func modifiedAt(_ record: Record) -> Date {
    if case .timestamp(let date)? = record.encryptedValues[modifiedAtKey] { return date }
    return .distantPast
  }

  // MARK: The engine

  /// Builds the next batch from the pending changes of the app's zone, noting the new records it hands out and
  /// removing saves of records it no longer has.
  public mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? {
    // The zone is gone for a reason not yet known: nothing goes until the feed says why.
    guard disk.zoneMissing == nil, !disk.recreatedWhileUnsent.values.contains(false) else { return nil }
    let orphans = syncEngine.pendingRecordZoneChanges.filter {
      if case .saveRecord(let id) = $0 { return disk.records[id] == nil }
      return false
    }
    syncEngine.remove(pendingRecordZoneChanges: orphans)
    let batch = SyncEngine.RecordZoneChangeBatch(
      pendingChanges: syncEngine.pendingRecordZoneChanges.filter { change in
        guard change.recordID.zoneID == zoneID else { return false }
        if case .deleteRecord(let id) = change { return !disk.deletionsAwaitingFetch.contains(id) }
        return true
      },
      maximumItems: context.maximumItems
    ) { disk.records[$0] }
    for record in batch?.recordsToSave ?? [] where record.recordChangeTag == nil {
      disk.newRecordsHandedOut.insert(record.recordID)
    }
    return batch
  }

  /// Handles one event, persisting its effect.
  public mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    switch event {
    case .stateUpdate(let serialization):
      disk.stateSerialization = serialization
    case .willFetchChanges:
      fetchCovers = disk.deletionsAwaitingFetch
      zoneListed = false
    case .fetchedDatabaseChanges(let changes):
      if changes.modifications.contains(zoneID) {
        sawZoneListed()
        disk.zoneCreated = true
      } else {
        // Nothing changed in the zone since the last fetch: nothing was created anew under a deleted ID.
        disk.deletionsAwaitingFetch.subtract(fetchCovers)
      }
      if let deletion = changes.deletions.last(where: { $0.zoneID == zoneID }) {
        zoneWasDeleted(deletion.reason, recreated: changes.modifications.contains(zoneID), &syncEngine)
      } else {
        // No deletion since the copies uploaded again landed: they are the zone's records now.
        disk.uploadedAgain = disk.uploadedAgain.filter { disk.records[$0]?.recordChangeTag == nil }
      }
    case .didFetchChanges:
      // The feed did not say why the zone went (its history was compacted). When the zone is there again, the engine
      // lists it from its beginning (a token of the old zone expires), and the listing leaves out what went; else the
      // error's reason stands.
      if let reason = disk.zoneMissing {
        if zoneListed {
          disk.zoneMissing = nil
        } else {
          zoneWasDeleted(reason, &syncEngine)
        }
      }
      // The feed reported no zone deletion: records found created anew were created by users; the next merge decides.
      for id in disk.recreatedWhileUnsent.keys.sorted() {
        disk.recreatedWhileUnsent[id] = disk.records[id] == nil ? nil : true
      }
    case .willFetchRecordZoneChanges(let zone) where zone == zoneID:
      // A fetch from the beginning already under way (a crash struck between its pages) goes on collecting.
      if disk.zoneFetchStartsOver {
        disk.zoneFetchStartsOver = false
        disk.fullFetchSeen = []
      }
    case .didFetchRecordZoneChanges(let zone, let error) where zone == zoneID:
      guard error == nil else {
        disk.zoneFetchStartsOver = true
        zoneGone(error?.code)
        return
      }
      // A fetch of the zone that succeeds shows it there.
      sawZoneListed()
      finishFullFetch(&syncEngine)
      disk.deletionsAwaitingFetch.subtract(fetchCovers)
    case .fetchedRecordZoneChanges(let changes):
      for server in changes.modifications where server.recordID.zoneID == zoneID {
        disk.fullFetchSeen?.insert(server.recordID)
        if disk.records[server.recordID] == nil, let deleted = disk.deletedLocally[server.recordID],
          server.modifiedByDevice == deviceName
        {
          // A copy of this device's own save, landed after the user deleted the record here: delete it again.
          disk.deletedLocally[server.recordID] = nil
          disk.deletions[server.recordID] = deleted
          syncEngine.add(pendingRecordZoneChanges: [.deleteRecord(server.recordID)])
          continue
        }
        if disk.records[server.recordID] == nil,
          syncEngine.pendingRecordZoneChanges.contains(.deleteRecord(server.recordID)),
          deletionStands(against: server)
        {
          continue
        }
        if disk.deletions.removeValue(forKey: server.recordID) != nil {
          syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(server.recordID)])
          disk.deletionsAwaitingFetch.remove(server.recordID)
        }
        disk.records[server.recordID] = merge(server: server, local: disk.records[server.recordID], &syncEngine)
      }
      for deletion in changes.deletions {
        if disk.deletions.removeValue(forKey: deletion.recordID) != nil, disk.records[deletion.recordID] == nil {
          // The record this device deleted is gone already: its own deletion is moot, and sent later it could only
          // delete a record created anew under the same ID.
          syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(deletion.recordID)])
          disk.deletionsAwaitingFetch.remove(deletion.recordID)
        }
        applyDeletion(of: deletion.recordID, &syncEngine)
      }
    case .sentDatabaseChanges(let sent):
      if sent.savedZones.contains(zoneID) { disk.zoneCreated = true }
    case .sentRecordZoneChanges(let sent):
      for saved in sent.savedRecords {
        guard let local = disk.records[saved.recordID] else {
          // Deleted while its save was in flight: the deletion saw this save, and now knows which record it deletes.
          if var deletion = disk.deletions[saved.recordID] {
            if deletion.creationDate == nil { deletion.creationDate = saved.creationDate }
            deletion.recordChangeTag = saved.recordChangeTag
            disk.deletions[saved.recordID] = deletion
          }
          continue
        }
        // Edits made while the save was in flight stay on top of the new system fields (their save is pending).
        disk.records[saved.recordID] = Self.values(of: local, on: saved)
        disk.reuploaded.remove(saved.recordID)
        disk.replacing[saved.recordID] = nil
        disk.replacementKeys[saved.recordID] = nil
        if rules == .reconcile { disk.ancestors[saved.recordID] = saved }
      }
      for saved in sent.savedRecords {
        disk.newRecordsHandedOut.remove(saved.recordID)
        disk.savesInDoubt.remove(saved.recordID)
      }
      for failure in sent.failedRecordSaves { settleAttempt(failure, &syncEngine) }
      for failure in sent.failedRecordSaves { handleFailedSave(failure, &syncEngine) }
      for id in sent.deletedRecordIDs {
        // A save of the record still in doubt may land after the deletion: remembered, a copy of it fetched later
        // (this device's own) is deleted again.
        let deletion = disk.deletions.removeValue(forKey: id)
        if disk.saveMayLandLate(id) { disk.deletedLocally[id] = deletion }
      }
      // A deletion whose answer went missing may have landed: before it is sent again, a fetch shows whether the
      // record was created anew since (then the retry would delete another device's record).
      for (id, error) in sent.failedRecordDeletes
      where error.code == .networkFailure || error.code == .serverResponseLost {
        disk.deletionsAwaitingFetch.insert(id)
      }
      // A deletion the engine retries is still pending; one it gave up on is over.
      for id in sent.failedRecordDeletes.keys where !syncEngine.pendingRecordZoneChanges.contains(.deleteRecord(id)) {
        disk.deletions[id] = nil
      }
    case .accountChange(let change):
      accountChanged(change, &syncEngine)
    case .willFetchRecordZoneChanges, .didFetchRecordZoneChanges, .willSendChanges,
      .didSendChanges:
      break
    }
  }

  private mutating func handleFailedSave(_ failure: SyncEngine.FailedRecordSave, _ syncEngine: inout SyncEngine.State) {
    let id = failure.record.recordID
    switch failure.error.code {
    case .serverRecordChanged:
      guard let server = failure.error.conflict?.server, let local = disk.records[id] else { return }
      // The save was refused: its changes are still this device's own, pending, to merge as unsent.
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
      let merged = merge(server: server, local: local, &syncEngine)
      disk.records[id] = merged
      if Self.sameValues(merged, server) { syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)]) }
    case .zoneNotFound, .userDeletedZone:
      // The zone is gone, and why decides what to keep: the save waits for the database feed to say.
      zoneGone(failure.error.code)
      if disk.records[id] != nil { syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)]) }
    case .unknownItem:
      guard let local = disk.records[id] else { return }
      // Gone: deleted by a user, or with its zone (then to be uploaded again): the database feed says, so the change
      // waits for a fetch that reads it.
      if local.recordChangeTag != nil, disk.recreatedWhileUnsent.removeValue(forKey: id) != true {
        disk.recreatedWhileUnsent[id] = false
        syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
        return
      }
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

  /// What a failed save of a new record says about whether it landed: an unanswered one (`networkFailure`,
  /// `serverResponseLost`) may have; any other answer, a conflict included, says this attempt did not. When no attempt
  /// is in doubt, nothing of the record reached the server: it is no longer handed out, and a deletion the user made
  /// of it since has nothing to delete.
  private mutating func settleAttempt(_ failure: SyncEngine.FailedRecordSave, _ syncEngine: inout SyncEngine.State) {
    let id = failure.record.recordID
    guard disk.newRecordsHandedOut.contains(id), failure.record.recordChangeTag == nil else { return }
    switch failure.error.code {
    case .networkFailure, .serverResponseLost:
      disk.savesInDoubt.insert(id)
      disk.lateCreateCopies.insert(id)
    default:
      guard !disk.savesInDoubt.contains(id) else { return }
      disk.newRecordsHandedOut.remove(id)
      if disk.records[id] == nil, let deletion = disk.deletions[id], deletion.creationDate == nil {
        disk.deletedLocally[id] = deletion
        disk.deletions[id] = nil
        disk.deletionsAwaitingFetch.remove(id)
        syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(id), .saveRecord(id)])
      }
    }
  }

  /// A fetch brings a record the user deleted here before the deletion was sent. The deletion stands against the very
  /// record deleted (this device's own save, or one written elsewhere since, as the delete policy says); a record
  /// created anew since (another creation date) is another record, which the deletion must not touch.
  private func deletionStands(against server: Record) -> Bool {
    let id = server.recordID
    let pending =
      disk.deletions[id]
      ?? Tombstone(recordID: id, recordType: server.recordType, deletedAt: .distantPast, deletedBy: deviceName)
    if let deletedCreation = pending.creationDate, let created = server.creationDate, deletedCreation != created {
      return false
    }
    // This device's own save of a copy the server had not acknowledged, landed after the user deleted it here: the
    // user saw what it carried, so it is no concurrent edit, whatever the policy.
    if server.modifiedByDevice == deviceName, pending.recordChangeTag == nil { return true }
    if case .deleted = deletePolicy.resolvePendingDeletion(pending, against: server) { return true }
    return false
  }

  /// The server deleted a record. A local record without system fields was created here since (the deletion is of an
  /// older one with its ID) and stays; an acknowledged one goes, unless it has unsent edits under `.editWins`, which
  /// upload it again.
  private mutating func applyDeletion(of id: RecordID, _ syncEngine: inout SyncEngine.State) {
    // The record a replacement was to overwrite is gone: the replacement is a new record now.
    disk.replacing[id] = nil
    disk.replacementKeys[id] = nil
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
    // Answering a deletion standing for the user's, what the listing left out goes: handed to the app first.
    let dropReason = disk.listingDrops
    disk.listingDrops = nil
    // Kept only when a hand-over may follow: the listing's end rewrites the records, which would copy them.
    let held = dropReason == nil ? [:] : disk.records
    defer { if let dropReason { handOver(.zoneDeletion(dropReason), goneFrom: held) } }
    let reupload = disk.reuploadUnseen
    disk.reuploadUnseen = false
    for id in disk.records.keys.sorted() where !seen.contains(id) {
      if reupload, disk.records[id]?.recordChangeTag != nil || disk.reuploaded.contains(id) {
        self.reupload(id, &syncEngine)
      } else if disk.reuploaded.contains(id), disk.records[id]?.recordChangeTag == nil {
        // A copy waiting to be uploaded again after an earlier deletion: not in the new zone yet, it still goes up.
        continue
      } else {
        applyDeletion(of: id, &syncEngine)
      }
    }
    // A deletion of a record the server no longer has is moot: sent later, it could only delete a record created
    // anew under the same ID. Unless this device's save of it is still in doubt: a copy may land yet, so the deletion
    // is remembered, to delete that copy once fetched (or to be replaced by a record the user creates again).
    for id in disk.deletions.keys.sorted() where !seen.contains(id) && disk.records[id] == nil {
      let deletion = disk.deletions.removeValue(forKey: id)
      if disk.saveMayLandLate(id) { disk.deletedLocally[id] = deletion }
      disk.deletionsAwaitingFetch.remove(id)
      syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(id)])
    }
  }

  /// Queues the copy of `id` to be uploaded as a new record, its zone having gone. A copy the server had acknowledged
  /// keeps the last version it knew as the ancestor of its first merge (``Disk/reuploaded``), so the user's unsent
  /// edits stand as changes.
  private mutating func reupload(_ id: RecordID, _ syncEngine: inout SyncEngine.State) {
    guard let record = disk.records[id] else { return }
    disk.records[id] = record.withoutSystemFields
    if record.recordChangeTag != nil {
      disk.reuploaded.insert(id)
      disk.uploadedAgain.insert(id)
    }
    syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
  }

  /// An error says the zone is gone (`userDeletedZone`: the user purged it; `zoneNotFound`: a client deleted it): the
  /// database feed's report decides what to keep; until then, or when it does not say, the error's reason stands — a
  /// purge over a client's deletion.
  private mutating func zoneGone(_ code: CloudKitError.Code?) {
    if code == .userDeletedZone { disk.zoneMissing = .purged }
    if code == .zoneNotFound, disk.zoneMissing == nil { disk.zoneMissing = .deleted }
  }

  /// The account changed (the engine has reset its state and cleared what was pending). A sign-out or switch deletes
  /// the previous account's local data, as Apple asks; a sign-in from no account uploads what the app holds, made
  /// while signed out, to the account (Apple's sample does the same).
  private mutating func accountChanged(_ change: SyncEngine.AccountChange, _ syncEngine: inout SyncEngine.State) {
    if change.previousUser != nil {
      handOver(.accountChange(change), Array(disk.records.values))
      let serialization = disk.stateSerialization
      // The device's clock is not the account's data: stamps made from now on must still come after its earlier ones.
      let clock = disk.clock
      disk = Disk()
      disk.stateSerialization = serialization
      disk.clock = clock
      return
    }
    for (id, record) in disk.records.sorted(by: { $0.key < $1.key }) {
      disk.records[id] = record.withoutSystemFields
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }
    if !disk.records.isEmpty { syncEngine.add(pendingDatabaseChanges: [.saveZone(zoneID)]) }
  }

  /// Hands the app the copies a wholesale deletion of local data takes (``LocalDataDeletion``), before they go.
  private mutating func handOver(_ cause: LocalDataDeletion.Cause, _ records: [Record]) {
    guard !records.isEmpty else { return }
    localDataDeletions.append(LocalDataDeletion(cause: cause, records: records))
  }

  /// Hands the app the copies of `held` (what the app held before a wholesale deletion) that are gone now.
  private mutating func handOver(_ cause: LocalDataDeletion.Cause, goneFrom held: [RecordID: Record]) {
    handOver(cause, held.filter { disk.records[$0.key] == nil }.map(\.value))
  }

  /// The fetch under way shows the zone there: a zone found missing is there again, and the engine lists it from its
  /// beginning (a token of the old zone expires), so the listing, not the error, says what went. Settled now, not when
  /// the fetch ends: a crash may end it before `didFetchChanges`, and the next fetch's feed need not list the zone again.
  private mutating func sawZoneListed() {
    zoneListed = true
    disk.zoneMissing = nil
  }

  /// The zone is gone: what the server had acknowledged is dropped when the deletion stands for the user deleting it
  /// (``ZoneDeletionResponse/dropsLocalData(after:)``), else everything held is uploaded again into a re-created zone.
  /// When the feed reports the zone created again since (`recreated`), this device may already have fetched from or
  /// saved into the new zone, so it lists the zone from the beginning instead, and the acknowledged records the
  /// listing leaves out are the ones that went: dropped, or uploaded again, as the reason says.
  private mutating func zoneWasDeleted(
    _ reason: SyncEngine.ZoneDeletion.Reason, recreated: Bool = false, _ syncEngine: inout SyncEngine.State
  ) {
    // What a deletion standing for the user's takes is handed to the app first (the hook before deletion).
    let held = disk.records
    disk.listingDrops = recreated && zoneDeletion.dropsLocalData(after: reason) ? reason : nil
    defer { handOver(.zoneDeletion(reason), goneFrom: held) }
    disk.zoneMissing = nil
    disk.recreatedWhileUnsent = [:]
    disk.zoneFetchStartsOver = true
    disk.fullFetchSeen = nil
    if recreated {
      if zoneDeletion.dropsLocalData(after: reason) {
        for id in disk.uploadedAgain.sorted() where disk.records[id]?.recordChangeTag != nil {
          try? delete(id, at: disk.records[id]?.modificationDate ?? .distantPast, syncEngine: &syncEngine)
        }
        // A copy still waiting to be uploaded again after an earlier deletion was acknowledged there: it goes with
        // this one.
        for id in disk.reuploaded.sorted() where disk.records[id]?.recordChangeTag == nil {
          disk.reuploaded.remove(id)
          disk.records[id] = nil
          syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
        }
      }
      disk.uploadedAgain = []
      disk.reuploadUnseen = !zoneDeletion.dropsLocalData(after: reason)
      if disk.reuploadUnseen {
        // Copies from the old zone are uploaded again, not replaced by a user's new record: their unsent edits merge
        // with the new zone's version, over the last version they knew.
        for (id, record) in disk.records where record.recordChangeTag != nil { disk.reuploaded.insert(id) }
      }
      return
    }
    disk.zoneCreated = false
    // A record the user deleted whose save may still land (in doubt, or a late copy of its create) may land in the zone
    // created again: its deletion is remembered, to delete that copy again.
    let lateDeleted = disk.deletions.filter { disk.records[$0.key] == nil && disk.saveMayLandLate($0.key) }
      .merging(disk.deletedLocally.filter { disk.saveMayLandLate($0.key) }) { first, _ in first }
    // Deleted records went with the zone: their deletions have nothing left to delete.
    syncEngine.remove(
      pendingRecordZoneChanges: syncEngine.pendingRecordZoneChanges.filter {
        if case .deleteRecord = $0 { return true }
        return false
      })
    disk.deletions = [:]
    disk.deletionsAwaitingFetch = []
    disk.replacing = [:]
    disk.replacementKeys = [:]
    disk.deletedLocally = [:]
    disk.heldBack = [:]
    for (id, record) in disk.records.sorted(by: { $0.key < $1.key }) {
      // A copy still waiting to be uploaded again after an earlier deletion was acknowledged there: it goes too.
      if zoneDeletion.dropsLocalData(after: reason), record.recordChangeTag != nil || disk.reuploaded.contains(id) {
        disk.reuploaded.remove(id)
        disk.records[id] = nil
        syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
      } else {
        reupload(id, &syncEngine)
      }
    }
    if !disk.records.isEmpty { syncEngine.add(pendingDatabaseChanges: [.saveZone(zoneID)]) }
    disk.newRecordsHandedOut = []
    disk.savesInDoubt = []
    disk.lateCreateCopies = []
    for (id, deletion) in lateDeleted {
      disk.deletedLocally[id] = deletion
      disk.lateCreateCopies.insert(id)
    }
  }

  /// Merges a server version with the local copy by the rules.
  ///
  /// Apple's sample: last writer wins, whole record, by the device-written date — the server's record when its date
  /// is at least the local one, else the local values on the server's system fields.
  ///
  /// Reconcile's: a copy with no unsent change takes the server's version; the version the unsent edits were made on
  /// changes nothing; a replacement overwrites what it replaces; otherwise the resolver merges (client: the local copy,
  /// ancestor: the last server version known, server: this one) and the result stays pending when it differs from the
  /// server's. A conflict with a newer app's record (the schema's check halts), or one the resolver refuses, halts the
  /// delegate with the local copy and its pending change kept.
  private mutating func merge(server: Record, local: Record?, _ syncEngine: inout SyncEngine.State) -> Record {
    switch rules {
    case .appleSample:
      guard let local, Self.modifiedAt(local) > Self.modifiedAt(server) else { return server }
      return Self.values(of: local, on: server)
    case .reconcile:
      let id = server.recordID
      if var clock = disk.clock {
        try? bookkeeping.observeStamps(of: server, clock: &clock, at: server.modificationDate ?? .distantPast)
        disk.clock = clock
      }
      // The version merged becomes the ancestor of the next merge; one the delegate halted on was not merged, so the
      // user's change still stands on the version before it.
      var halted = false
      var undecided = false
      defer {
        if halted {
          disk.heldBack[id] = server
        } else if !undecided {
          disk.ancestors[id] = server
          disk.heldBack[id] = nil
        }
      }
      // A copy from a zone since deleted, not yet uploaded again, is the user's data still: it merges with the new
      // zone's version even with no edit unsent.
      let pending = syncEngine.pendingRecordZoneChanges.contains(.saveRecord(id))
      guard let local, pending || disk.reuploaded.contains(id) else { return server }
      // The very version the unsent edits were made on: nothing new to merge.
      if let tag = local.recordChangeTag, tag == server.recordChangeTag {
        disk.reuploaded.remove(id)
        return local
      }
      if let replaced = disk.replacing[id] {
        // A record the server created after the user deleted the one replaced (whose creation the server never
        // confirmed), while a save of the replacement is in doubt, is that save landed unanswered (and perhaps edited
        // since): it merges as this record's own version.
        let ownLanded =
          replaced.creationDate == nil && disk.savesInDoubt.contains(id)
          && (server.creationDate.map { $0 > replaced.deletedAt } ?? false)
        if !ownLanded && (replaced.creationDate == nil || replaced.creationDate == server.creationDate) {
          return replacement(local, over: server, &syncEngine)
        }
        // The record it was to replace is gone; this one was created anew elsewhere: merge as two creates do.
        disk.replacing[id] = nil
        disk.replacementKeys[id] = nil
      }
      let resolver = schema.map { setupResolver.guarded(by: $0) } ?? setupResolver
      let reuploaded = disk.reuploaded.remove(id) != nil
      var ancestor =
        reuploaded
        ? disk.ancestors[id].map { $0.sharedPast(with: server) }
        : local.recordChangeTag == nil ? nil : disk.ancestors[id]
      // (A copy uploaded again after its zone went meets the new zone's record under another creation date: that is
      // the zone's doing, not a user's.)
      if !reuploaded, let known = local.creationDate, let created = server.creationDate, known != created {
        // Created anew — by a user elsewhere, or by a device uploading its copy again after the zone went. Which one
        // decides what the unsent edits are, and the database feed says: nothing is sent until the next fetch has
        // read it (a zone deletion it reports starts the zone over; otherwise the decision below is made then).
        guard disk.recreatedWhileUnsent.removeValue(forKey: id) == true else {
          disk.recreatedWhileUnsent[id] = false
          undecided = true
          return local
        }
        // A user created it anew elsewhere: the unsent edits were to the deleted one, which `.deleteWins` lets go;
        // `.editWins` merges them into the new record as a create would.
        guard deletePolicy == .editWins else {
          syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
          return server
        }
        ancestor = nil
      }
      let merged: Record
      do {
        merged = try resolver.resolve(Conflict(client: local, ancestor: ancestor, server: server))
      } catch let halt as SchemaHalt {
        // A newer app's record: this one must not merge into it. The user's change waits, unsent, for an upgrade. So
        // does a copy from a zone since deleted: queued, it meets this version again as a conflict once upgraded.
        disk.halt = .schema(halt)
        halted = true
        if reuploaded {
          disk.reuploaded.insert(id)
          if !pending { syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)]) }
        }
        return local
      } catch {
        disk.halt = .unresolvableConflict(id, "\(error)")
        halted = true
        return local
      }
      if merged.changedKeys.isEmpty {
        syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
      } else if !pending {
        syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
      }
      return merged
    }
  }

  /// A record created again after a deletion here replaces the server's version whole: every key takes the new
  /// record's value or goes, except keys this app does not know (a newer app wrote them).
  private func replacement(_ local: Record, over server: Record, _ syncEngine: inout SyncEngine.State) -> Record {
    var replaced = server
    let unknown = schema?.unknownKeys(in: server) ?? []
    let known = disk.replacementKeys[local.recordID]
    for key in Set(server.allKeys).union(local.allKeys).sorted()
    where !unknown.contains(key) && (known?.contains(key) ?? true) || local.changedKeys.contains(key) {
      // The user's record defines the keys it set or left out; a value it holds only because an earlier merge kept
      // the server's (a key the app did not know then) is the server's to change.
      guard local.changedKeys.contains(key) || !local.allKeys.contains(key) else { continue }
      replaced.takeValue(of: key, from: local)
    }
    if replaced.changedKeys.isEmpty { syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(local.recordID)]) }
    return replaced
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
  /// A ``SimulatedSyncEngine`` with the ``ExampleSyncDelegate`` under Reconcile's rules (script name `sync-engine`):
  /// the run's resolver, delete policy and schema.
  public static let syncEngine = ClientUnderTest(name: "sync-engine") { setup in try ExampleSyncEngine(setup: setup) }

  /// A ``SimulatedSyncEngine`` with the ``ExampleSyncDelegate`` under Apple's sample's rules (script name
  /// `sync-engine-sample`): whole-record last-writer-wins on a device-written date, whatever the run's resolver.
  /// Its rule promises no more than server last-writer-wins, so its runs name `server-lww` and no other resolver.
  public static let syncEngineSample = ClientUnderTest(name: "sync-engine-sample", ownRule: "server-lww") { setup in
    SimulatedSyncEngine(delegate: ExampleSyncDelegate(setup: setup, rules: .appleSample), setup: setup)
  }
}
