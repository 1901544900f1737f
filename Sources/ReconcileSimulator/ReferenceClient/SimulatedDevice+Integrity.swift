public import Reconcile

extension SimulatedDevice {
  /// **Simulator only**: damages the device's stored copy of `id` behind its back, as a failing disk, a torn write or
  /// a bad migration would. One value becomes ``StorageDamage/garbage`` and the record's seal goes stale.
  ///
  /// The device checks a record's seal whenever it reads the record to change or send it: before an edit, before it
  /// puts the record in a batch, before it merges a fetched or conflicting server version, and before it takes a save's
  /// answer. It checks the whole store when a sync starts, when it launches (``crash()``) and on ``restart()``. A
  /// damaged record is thrown away — its unsent edits cannot be trusted, so they are lost — and the server's copy is
  /// fetched again. Garbage is never uploaded.
  /// - Parameter id: The record to damage.
  /// - Returns: Whether the device held such a record.
  @discardableResult
  public mutating func corruptStoredRecord(_ id: RecordID) -> Bool {
    guard storage.records[id] != nil else { return false }
    storage.records[id]?.corruptWithoutResealing()
    mayHoldDamage = true
    return true
  }

  /// Throws away every damaged record among `ids` (the whole store when `nil`) and, when there was one, starts the
  /// zone's fetch again from the beginning so the server's copies come back.
  /// - Returns: Whether anything was thrown away.
  @discardableResult
  mutating func discardDamagedRecords(among ids: [RecordID]? = nil) -> Bool {
    if configuration.defects.contains(.skipStorageCheck) || !mayHoldDamage { return false }
    // Sort only what is damaged: this runs at every sync start, over the whole store.
    let damaged =
      ids?.filter { storage.records[$0].map { !$0.isIntact } ?? false }
      ?? storage.records.filter { !$0.value.isIntact }.keys.sorted()
    // A check of the whole store leaves nothing damaged behind.
    if ids == nil { mayHoldDamage = false }
    guard !damaged.isEmpty else { return false }
    for id in damaged { discardDamaged(id) }
    storage.zoneToken = nil
    storage.fullFetchSeen = nil
    session.listing += 1
    session.syncRequested = true
    return true
  }

  /// Throws away record `id` if its copy is damaged, without refetching (the caller holds the server's version).
  /// - Returns: Whether it was damaged.
  mutating func discardIfDamaged(_ id: RecordID) -> Bool {
    if configuration.defects.contains(.skipStorageCheck) || !mayHoldDamage { return false }
    guard let local = storage.records[id], !local.isIntact else { return false }
    discardDamaged(id)
    return true
  }

  private mutating func discardDamaged(_ id: RecordID) {
    let local = storage.records.removeValue(forKey: id)
    if let local, local.replacesDiscardedCopy {
      // It replaced a damaged copy thrown away before: the server still holds that record, and nothing was deleted.
      storage.pending.remove(id)
      storage.discardedServerCopies[id] = .some(local.replacedCreationDate)
    } else if let local, local.replacesDeleted {
      // A re-created record lost to damage still owes the server the deletion it replaced.
      storage.pending.enqueue(id, .delete)
      storage.tombstones.insert(
        Tombstone(
          recordID: id, recordType: local.current.recordType, deletedAt: .distantPast, deletedBy: name,
          creationDate: local.replacedCreationDate))
    } else if storage.pending[id] == .save {
      storage.pending.remove(id)
    }
    if let local, !local.replacesDeleted, !local.replacesDiscardedCopy, local.lastKnownServer != nil || local.sent {
      storage.discardedServerCopies[id] = .some(local.lastKnownServer?.creationDate)
    }
    storage.damagedRecordsDiscarded += 1
    session.lastError = "storage corruption: the stored copy of \(id) was damaged; discarded, fetching it again"
  }
}
