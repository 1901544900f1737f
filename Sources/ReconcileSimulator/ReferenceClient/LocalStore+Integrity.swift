import Foundation
package import Reconcile

extension LocalStore {
  /// Damages the stored copy of `id` without resealing it (see `SimulatedDevice.corruptStoredRecord(_:)`).
  /// - Returns: Whether the store held such a record.
  @discardableResult
  package mutating func corruptStoredRecord(_ id: RecordID) -> Bool {
    guard storage.records[id] != nil else { return false }
    storage.records[id]?.corruptWithoutResealing()
    mayHoldDamage = true
    return true
  }

  /// Throws away every damaged record among `ids` (the whole store when `nil`) and, when there was one, starts the
  /// zone's fetch again from the beginning so the server's copies come back.
  /// - Returns: Whether anything was thrown away.
  @discardableResult
  package mutating func discardDamagedRecords(among ids: [RecordID]? = nil) -> Bool {
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
    storage.fullFetchAwaitsFeed = false
    refetchRequested = true
    return true
  }

  /// Throws away record `id` if its copy is damaged, without refetching (the caller holds the server's version).
  /// - Returns: Whether it was damaged.
  package mutating func discardIfDamaged(_ id: RecordID) -> Bool {
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
        local.replacedDeletion
          ?? Tombstone(
            recordID: id, recordType: local.current.recordType, deletedAt: .distantPast, deletedBy: name,
            creationDate: local.replacedCreationDate))
    } else if storage.pending[id] == .save {
      storage.pending.remove(id)
    }
    if let local, !local.replacesDeleted, !local.replacesDiscardedCopy, local.lastKnownServer != nil || local.sent {
      storage.discardedServerCopies[id] = .some(local.lastKnownServer?.creationDate)
    }
    storage.damagedRecordsDiscarded += 1
    discardNotice = "storage corruption: the stored copy of \(id) was damaged; discarded, fetching it again"
  }
}
