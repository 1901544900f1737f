package import Foundation
package import Reconcile

// The user's side of the reference app: it checks what it is about to store, then the replica's rules take each
// action.
extension SimulatedDevice {
  /// The app creates a record. It is queued to save; the resolver's bookkeeping fields and the schema's version field
  /// are written.
  /// - Parameters:
  ///   - record: The new record, without a change tag.
  ///   - now: True (virtual) time; the device's clock reads it with its offset.
  /// - Throws: ``DeviceError/recordExists(_:)``, ``DeviceError/invalidRecord(_:)``, ``DeviceError/schema(_:)`` or
  ///   ``DeviceError/bookkeeping(_:_:)``; nothing is stored then.
  package mutating func create(_ record: Record, at now: Date) throws(DeviceError) {
    let id = record.recordID
    var created = record
    if configuration.defects.contains(.recreateRestoresDeletedFields), let old = storage.deletedCopies[id] {
      for key in old.allKeys where created[key] == nil { created[key] = old[key] }
    }
    do { try created.validate() } catch { throw .invalidRecord(error) }
    try applyUserAction(at: now) { (replica, queue, time) throws(ReplicaError) in
      try replica.create(created, at: time, syncEngine: &queue)
    }
    storage.deletedCopies[id] = nil
    changedByUser(id)
  }

  /// The app edits a record: `changes` sets (or, with `nil`, removes) plain values. The record is queued to save.
  /// - Parameters:
  ///   - id: The record.
  ///   - changes: New values by key; `nil` removes a key.
  ///   - now: True (virtual) time.
  /// - Throws: ``DeviceError/recordNotFound(_:)``, ``DeviceError/recordDamaged(_:)`` (the stored copy was corrupt; it
  ///   is thrown away), ``DeviceError/invalidRecord(_:)``, ``DeviceError/schema(_:)`` (a record from a newer app this
  ///   one must not change) or ``DeviceError/bookkeeping(_:_:)``; nothing else changes then.
  package mutating func edit(_ id: RecordID, setting changes: [String: FieldValue?], at now: Date) throws(DeviceError) {
    try edit(id, at: now) { record in
      for (key, value) in changes { record[key] = value }
    }
  }

  /// The app edits a record with a closure that may change anything but its identity. The record is queued to save.
  /// - Parameters:
  ///   - id: The record.
  ///   - now: True (virtual) time.
  ///   - change: Edits the record; keys it writes are marked changed.
  /// - Throws: As ``edit(_:setting:at:)``.
  /// The user edits a record's plain and encrypted values; see ``UserOperation/edit(_:values:encrypted:)``.
  package mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], encrypting encrypted: [String: FieldValue?], at now: Date
  ) throws(DeviceError) {
    guard !encrypted.isEmpty else { return try edit(id, setting: values, at: now) }
    try edit(id, at: now) { record in
      for (key, value) in values { record[key] = value }
      for (key, value) in encrypted { record.encryptedValues[key] = value }
    }
  }

  package mutating func edit(_ id: RecordID, at now: Date, _ change: (inout Record) -> Void) throws(DeviceError) {
    if storage.records.damaged.contains(id), discardDamagedRecords() { throw .recordDamaged(id) }
    guard var preview = record(id) else { throw .recordNotFound(id) }
    change(&preview)
    do { try preview.validate() } catch { throw .invalidRecord(error) }
    let edited = preview
    // The preview is the stored record changed: the replica takes it whole rather than making the change again.
    try applyUserAction(at: now) { (replica, queue, time) throws(ReplicaError) in
      try replica.edit(id, at: time, syncEngine: &queue) { $0 = edited }
    }
    changedByUser(id)
  }

  /// The app deletes a record: it leaves the store at once, and its deletion is queued to be sent after a fetch that
  /// starts after it (a deletion carries no change tag). A record the server cannot have is deleted here only.
  /// - Parameters:
  ///   - id: The record.
  ///   - now: True (virtual) time.
  /// - Throws: ``DeviceError/recordNotFound(_:)``.
  package mutating func delete(_ id: RecordID, at now: Date) throws(DeviceError) {
    guard let copy = record(id) else { throw .recordNotFound(id) }
    try applyUserAction(at: now) { (replica, queue, time) throws(ReplicaError) in
      try replica.delete(id, at: time, syncEngine: &queue)
    }
    if configuration.defects.contains(.recreateRestoresDeletedFields) { storage.deletedCopies[id] = copy }
    if configuration.defects.contains(.saveAndDeleteTogether), !copy.changedKeys.isEmpty, copy.recordChangeTag != nil {
      storage.savesBesideDeletes[id] = copy
    }
    changedByUser(id)
  }

  /// **Simulator only**: damages the device's stored copy of `id` behind its back, as a failing disk, a torn write or
  /// a bad migration would. One value becomes ``StorageDamage/garbage`` and the row's seal breaks.
  ///
  /// The app checks the seals before the replica reads its rows: when a sync starts, before each answer is handled,
  /// before a batch is built, before an edit, at launch (``crash()``) and on ``restart()``. A damaged row is thrown
  /// away — its unsent edits cannot be trusted, so they are lost (`ZoneReplica.discardUnreadable(_:syncEngine:)`) —
  /// and the zone is listed again from its beginning to fetch the server's copy. Garbage is never uploaded.
  /// - Parameter id: The record to damage.
  /// - Returns: Whether the device held such a record.
  @discardableResult
  package mutating func corruptStoredRecord(_ id: RecordID) -> Bool { storage.replica.store.damage(id) }

  /// Throws away every damaged row, unless the app skips its check; when the server may hold one of them, the zone is
  /// listed again from its beginning to bring it back.
  /// - Returns: Whether anything was thrown away.
  @discardableResult
  mutating func discardDamagedRecords() -> Bool {
    let damaged = storage.records.damaged
    guard !damaged.isEmpty, !configuration.defects.contains(.skipStorageCheck) else { return false }
    var refetch = false
    for id in damaged.sorted() {
      if storage.withReplica({ replica, queue in replica.discardUnreadable(id, syncEngine: &queue) }) { refetch = true }
      storage.damagedRecordsDiscarded += 1
      session.lastError = "storage corruption: the stored copy of \(id) was damaged; discarded, fetching it again"
    }
    if refetch {
      storage.withReplica { replica, _ in replica.zoneWillBeListedFromBeginning() }
      storage.zoneToken = nil
      storage.zoneNeedsFetch = true
      session.listing += 1
      session.zoneFetchStarted = false
      session.syncRequested = true
    }
    return true
  }

  /// Runs one user action on the replica at the device's time, in one write; the replica's error becomes the device's.
  private mutating func applyUserAction(
    at now: Date,
    _ action: (inout ZoneReplica<SealedStore>, inout SyncEngine.State, Date) throws(ReplicaError) -> Void
  ) throws(DeviceError) {
    let time = deviceTime(at: now)
    do {
      try storage.withReplica { (replica, queue) throws(ReplicaError) in try action(&replica, &queue, time) }
    } catch {
      throw DeviceError(error)
    }
  }

  /// A change the user made to `id`: it stays queued even if a batch in flight carried an older one, and the send
  /// tries again.
  private mutating func changedByUser(_ id: RecordID) {
    if case .modifyRecords(let batch)? = session.inFlight?.request,
      batch.saving.contains(where: { $0.recordID == id }) || batch.deleting.contains(id)
    {
      session.readded.insert(id)
    }
    session.heldBackAfterFetch = false
  }
}
