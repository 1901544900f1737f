package import Foundation
package import Reconcile

extension LocalStore {
  /// The user creates a record: see `SimulatedDevice.create(_:at:)`.
  package mutating func create(_ record: Record, at now: Date) throws(DeviceError) {
    guard storage.records[record.recordID] == nil else { throw .recordExists(record.recordID) }
    var created = record
    if configuration.defects.contains(.recreateRestoresDeletedFields),
      let old = storage.deletedCopies.removeValue(forKey: record.recordID)
    {
      for key in old.allKeys where created[key] == nil { created[key] = old[key] }
    }
    for key in created.allKeys { created.markChanged(key) }
    try prepareEdit(&created, at: now)
    let deleted = storage.tombstones.remove(record.recordID)
    var local = LocalRecord(lastKnownServer: nil, current: created)
    // Only a deletion not yet sent leaves a record on the server for this one to replace. A damaged copy thrown away and
    // not yet fetched again leaves one too, which this one merges with when it comes back (the user never deleted
    // it), but which deleting this one must delete.
    let discarded = storage.discardedServerCopies.removeValue(forKey: record.recordID)
    // The deletion's answer does not end the doubt about an earlier unanswered save: its copy may land later.
    local.replacesDeleted =
      storage.pending[record.recordID] == .delete || storage.staleSavesInDoubt.contains(record.recordID)
    local.replacesDiscardedCopy = !local.replacesDeleted && discarded != nil
    local.replacedCreationDate =
      local.replacesDeleted ? deleted?.creationDate : local.replacesDiscardedCopy ? discarded ?? nil : nil
    local.replacedDeletion = local.replacesDeleted ? deleted : nil
    storage.records[record.recordID] = local
    storage.pending.enqueue(record.recordID, .save)
  }

  /// The user edits a record: see `SimulatedDevice.edit(_:setting:at:)`.
  package mutating func edit(_ id: RecordID, setting changes: [String: FieldValue?], at now: Date) throws(DeviceError) {
    try edit(id, at: now) { record in
      for (key, value) in changes { record[key] = value }
    }
  }

  /// The user edits a record with a closure: see `SimulatedDevice.edit(_:at:_:)`.
  package mutating func edit(_ id: RecordID, at now: Date, _ change: (inout Record) -> Void) throws(DeviceError) {
    if discardDamagedRecords(among: [id]) { throw .recordDamaged(id) }
    // One lookup: the position stays valid, since nothing below adds or removes a record before the write.
    guard let index = storage.records.index(forKey: id) else { throw .recordNotFound(id) }
    var record = storage.records.values[index].current
    let recordType = record.recordType
    change(&record)
    record.recordID = id
    record.recordType = recordType
    try prepareEdit(&record, at: now)
    storage.records.values[index].current = record
    storage.records.values[index].generation += 1
    storage.pending.enqueue(id, .save)
  }

  /// The user deletes a record: see `SimulatedDevice.delete(_:at:)`.
  package mutating func delete(_ id: RecordID, at now: Date) throws(DeviceError) {
    guard let local = storage.records.removeValue(forKey: id) else { throw .recordNotFound(id) }
    if configuration.defects.contains(.recreateRestoresDeletedFields) { storage.deletedCopies[id] = local.current }
    if configuration.defects.contains(.saveAndDeleteTogether), local.hasUnsentChanges, local.lastKnownServer != nil {
      storage.savesBesideDeletes[id] = local.current
    }
    var tombstone = Tombstone(deleting: local.current, at: deviceTime(at: now), by: name)
    if tombstone.creationDate == nil { tombstone.creationDate = local.replacedCreationDate }
    // Deleting a record created again here after a deletion deletes what that deletion aimed at, too: the version the
    // user saw then, which a refetch must not take for an edit the deletion never saw.
    if tombstone.recordChangeTag == nil, local.replacesDeleted {
      tombstone.recordChangeTag = local.replacedDeletion?.recordChangeTag
    }
    if local.inDoubt { storage.staleSavesInDoubt.insert(id) }
    // A record re-created here after a deletion still owes the server that deletion.
    let neverSent = !local.sent && !local.replacesDeleted && !local.replacesDiscardedCopy
    let unsent = neverSent || configuration.defects.contains(.dropUnacknowledgedDeletes)
    let localOnly = local.lastKnownServer == nil && local.current.recordChangeTag == nil
    // A record no save of which ever left the device (none sent, refused or unanswered) leaves no tombstone: no copy
    // of it can land, so a fetched record under its ID — even this device's own save from before its data was
    // deleted — is another record.
    let noSaveLeft = neverSent && !local.inDoubt && local.unacknowledgedSaves.isEmpty
    if !(localOnly && noSaveLeft) { storage.tombstones.insert(tombstone) }
    if localOnly && unsent {
      storage.pending.remove(id)
    } else {
      storage.pending.enqueue(id, .delete)
      storage.deletesAwaitingFetch.insert(id)
      if local.lastKnownServer == nil, !local.replacesDeleted, !local.replacesDiscardedCopy {
        storage.deletesOfUnconfirmed[id] = local.inDoubt
      }
    }
  }

  /// Writes the bookkeeping fields and the schema version, and checks the result, for an edit about to be stored.
  private mutating func prepareEdit(_ record: inout Record, at now: Date) throws(DeviceError) {
    let time = deviceTime(at: now)
    if let schema = configuration.schema {
      do {
        if case .newerMinor = try schema.check(record) {} else { try schema.stampVersion(&record) }
      } catch {
        throw .schema(error)
      }
    }
    // The resolver's bookkeeping comes last, so field stamps cover the schema's version field too. Without any, the
    // clock is left alone (this runs on every edit).
    let bookkeeping = configuration.bookkeeping
    if bookkeeping.editCountKey != nil || bookkeeping.modifiedAtKey != nil || bookkeeping.fieldStampsKey != nil {
      do {
        try bookkeeping.stampEdit(&record, clock: &storage.clock, at: time)
      } catch {
        throw .bookkeeping(record.recordID, "\(error)")
      }
    }
    do {
      try record.validate()
    } catch {
      throw .invalidRecord(error)
    }
  }
}
