import Foundation

extension ZoneReplica {
  /// One page of fetched changes: each version merges with the local copy (or a pending deletion stands against it),
  /// and each deletion removes the local copy unless the delete policy keeps its unsent edits.
  mutating func apply(_ changes: SyncEngine.FetchedRecordZoneChanges, _ syncEngine: inout SyncEngine.State) {
    if recordsDecisions {
      let zone = zoneID
      let fetched = SyncDecision.fetched(
        saved: changes.modifications.map(\.recordID).filter { $0.zoneID == zone },
        deleted: changes.deletions.map(\.recordID).filter { $0.zoneID == zone })
      decide(fetched)
    }
    for server in changes.modifications where server.recordID.zoneID == zoneID {
      metadata.zone.listingSeen?.insert(server.recordID)
      if store[server.recordID] == nil, let deleted = metadata[server.recordID].localDeletion,
        server.modifiedByDevice == configuration.deviceName, rules.sendsDeletionsOfCreatesHandedOut
      {
        // A copy of this device's own save, landed after the user deleted the record here: delete it again.
        metadata[server.recordID].localDeletion = nil
        metadata[server.recordID].deletion = deleted
        syncEngine.add(pendingRecordZoneChanges: [.deleteRecord(server.recordID)])
        continue
      }
      if store[server.recordID] == nil,
        syncEngine.pendingRecords.contains(.deleteRecord(server.recordID)),
        deletionStands(against: server)
      {
        decide(.deletion(server.recordID, .deletionStands))
        continue
      }
      if deletionOwed(of: server.recordID) != nil {
        metadata[server.recordID].deletion = nil
        metadata[server.recordID].flags.remove(.deletionAwaitsFetch)
        if store[server.recordID] == nil { decide(.deletion(server.recordID, .deletionCancelled)) }
        syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(server.recordID)])
      }
      put(merge(server: server, local: store[server.recordID], &syncEngine), at: server.recordID)
    }
    for deletion in changes.deletions where rules.appliesFetchedDeletions {
      if deletionOwed(of: deletion.recordID) != nil {
        metadata[deletion.recordID].deletion = nil
        if store[deletion.recordID] == nil {
          // The record this device deleted is gone already: its own deletion is moot, and sent later it could only
          // delete a record created anew under the same ID.
          syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(deletion.recordID)])
          metadata[deletion.recordID].flags.remove(.deletionAwaitsFetch)
        }
      }
      applyDeletion(of: deletion.recordID, &syncEngine)
    }
  }

  /// A fetch brings a record the user deleted here before the deletion was sent. The deletion stands against the very
  /// record deleted (this device's own save, or one written elsewhere since, as the delete policy says); a record
  /// created anew since (another creation date) is another record, which the deletion must not touch.
  func deletionStands(against server: Record) -> Bool {
    let id = server.recordID
    let pending =
      deletionOwed(of: id)
      ?? Tombstone(
        recordID: id, recordType: server.recordType, deletedAt: .distantPast, deletedBy: configuration.deviceName)
    if let deletedCreation = pending.creationDate, let created = server.creationDate, deletedCreation != created {
      return false
    }
    // This device's own save of a copy the server had not acknowledged, landed after the user deleted it here: the
    // user saw what it carried, so it is no concurrent edit, whatever the policy.
    if !rules.ownSaveKeepsDeletion, configuration.deletePolicy == .editWins { return false }
    if server.modifiedByDevice == configuration.deviceName, pending.recordChangeTag == nil { return true }
    if case .deleted = configuration.deletePolicy.resolvePendingDeletion(pending, against: server) { return true }
    return false
  }

  /// The server deleted a record. A local record without system fields was created here since (the deletion is of an
  /// older one with its ID) and stays; an acknowledged one goes, unless it has unsent edits under `.editWins`, which
  /// upload it again.
  mutating func applyDeletion(of id: RecordID, _ syncEngine: inout SyncEngine.State) {
    if isWaiting(id) { metadata[id].serverDeletedTheRecord() }
    guard let local = store[id], local.recordChangeTag != nil else { return }
    if revivingPolicy == .editWins || !rules.respectsServerDeletions,
      syncEngine.pendingRecords.contains(.saveRecord(id))
    {
      put(local.withoutSystemFields, at: id)
      decide(.deletion(id, .revivedByUnsentEdits))
      return
    }
    put(nil, at: id)
    syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
    decide(.deletion(id, .removedLocally))
  }

  /// The end of a fetch from the beginning: acknowledged records it did not bring were deleted meanwhile.
  mutating func finishFullFetch(_ syncEngine: inout SyncEngine.State) {
    guard let seen = metadata.zone.listingSeen else { return }
    metadata.zone.listingSeen = nil
    // Answering a deletion standing for the user's, what the listing left out goes: handed to the app first.
    let dropReason = metadata.zone.listingDrops
    metadata.zone.listingDrops = nil
    // Kept only when a hand-over may follow: the listing's end rewrites the records, which would copy them.
    let held = dropReason == nil ? [:] : store.snapshot
    defer { if let dropReason { handOver(.zoneDeletion(dropReason), goneFrom: held) } }
    let reupload = metadata.zone.listingReuploadsUnseen
    metadata.zone.listingReuploadsUnseen = false
    for id in store.recordIDs.sorted() where !seen.contains(id) {
      let reuploaded = flagsLookedFor(of: id).contains(.reuploaded)
      if reupload, store[id]?.recordChangeTag != nil || reuploaded {
        self.reupload(id, &syncEngine)
      } else if reuploaded, store[id]?.recordChangeTag == nil {
        // A copy waiting to be uploaded again after an earlier deletion: not in the new zone yet, it still goes up.
        continue
      } else {
        let copy = store[id]
        applyDeletion(of: id, &syncEngine)
        // Until the next read of the database feed says the zone did not go meanwhile.
        if store[id] == nil, let copy, copy.recordChangeTag != nil { metadata[id].droppedByListing = copy }
      }
    }
    forgetWhatTheListingLeftOut(seen: seen, &syncEngine)
  }

  /// What waits on a version the listing from the beginning left out is moot: the server no longer has it.
  private mutating func forgetWhatTheListingLeftOut(seen: Set<RecordID>, _ syncEngine: inout SyncEngine.State) {
    // A version held back that the listing left out is gone from the server: nothing of it is left to delete.
    for id in metadata.waiting(where: { $0.heldBack != nil }) where !seen.contains(id) { metadata[id].heldBack = nil }
    // A record created anew that the listing left out is gone too: a deletion of the stale copy has nothing to
    // settle against.
    for id in metadata.waiting(where: { $0.recreation?.version != nil }) where !seen.contains(id) {
      metadata[id].recreation?.version = nil
      if store[id] == nil { metadata[id].recreation = nil }
    }
    // A deletion of a record the server no longer has is moot: sent later, it could only delete a record created
    // anew under the same ID. Unless this device's save of it is still in doubt: a copy may land yet, so the deletion
    // is remembered, to delete that copy once fetched (or to be replaced by a record the user creates again).
    for id in metadata.waiting(where: { $0.deletion != nil }) where !seen.contains(id) && store[id] == nil {
      metadata[id].deletionSettled()
      metadata[id].flags.remove(.deletionAwaitsFetch)
      syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(id)])
    }
  }

  /// Queues the copy of `id` to be uploaded as a new record, its zone having gone. A copy the server had acknowledged
  /// keeps the last version it knew as the ancestor of its first merge (``Disk/reuploaded``), so the user's unsent
  /// edits stand as changes.
}
