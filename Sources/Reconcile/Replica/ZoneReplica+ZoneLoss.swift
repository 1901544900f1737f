import Foundation

extension ZoneReplica {
  /// Queues the copy of `id` to be uploaded as a new record, its zone having gone. A copy the server had acknowledged
  /// keeps the last version it knew as the ancestor of its first merge (``ReplicaMetadata/reuploaded``), so the user's unsent
  /// edits stand as changes.
  mutating func reupload(_ id: RecordID, _ syncEngine: inout SyncEngine.State) {
    guard let record = store[id] else { return }
    put(record.withoutSystemFields, at: id)
    if record.recordChangeTag != nil { metadata[id].flags.formUnion([.reuploaded, .uploadedAfterZoneLoss]) }
    syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
  }

  /// An error says the zone is gone (`userDeletedZone`: the user purged it; `zoneNotFound`: a client deleted it): the
  /// database feed's report decides what to keep; until then, or when it does not say, the error's reason stands — a
  /// purge over a client's deletion.
  mutating func zoneGone(_ code: CloudKitError.Code?) {
    if code == .userDeletedZone { metadata.zone.missing = .purged }
    if code == .zoneNotFound, metadata.zone.missing == nil { metadata.zone.missing = .deleted }
  }

  /// The account changed (the engine has reset its state and cleared what was pending). A sign-out or switch deletes
  /// the previous account's local data, as Apple asks; a sign-in from no account uploads what the app holds, made
  /// while signed out, to the account (Apple's sample does the same).
  /// The fetch under way shows the zone there: a zone found missing is there again, and the engine lists it from its
  /// beginning (a token of the old zone expires), so the listing, not the error, says what went. Settled now, not when
  /// the fetch ends: a crash may end it before `didFetchChanges`, and the next fetch's feed need not list the zone again.
  mutating func sawZoneListed() {
    zoneListed = true
    metadata.zone.missing = nil
  }

  /// The zone is gone: what the server had acknowledged is dropped when the deletion stands for the user deleting it
  /// (``ZoneLossPolicy/dropsLocalData(after:)``), else everything held is uploaded again into a re-created zone.
  /// When the feed reports the zone created again since (`recreated`), this device may already have fetched from or
  /// saved into the new zone, so it lists the zone from the beginning instead, and the acknowledged records the
  /// listing leaves out are the ones that went: dropped, or uploaded again, as the reason says.
  mutating func zoneWasDeleted(
    _ reason: SyncEngine.ZoneDeletion.Reason, recreated: Bool = false, _ syncEngine: inout SyncEngine.State
  ) {
    // What a deletion standing for the user's takes is handed to the app first (the hook before deletion).
    let held = store.snapshot
    metadata.zone.listingDrops = recreated && dropsLocalData(after: reason) ? reason : nil
    defer {
      handOver(.zoneDeletion(reason), goneFrom: held)
      if recordsDecisions {
        let queued = Set(syncEngine.pendingRecords.map(\.recordID))
        let records = store
        let lost = SyncDecision.zoneLost(
          reason, dropped: held.keys.filter { records[$0] == nil }.count,
          uploadedAgain: held.keys.filter { records[$0]?.recordChangeTag == nil && queued.contains($0) }.count)
        decide(lost)
      }
    }
    metadata.zone.missing = nil
    metadata.changeWaitingRecords { _, state in state.recreation = nil }
    metadata.zone.listAgain()
    if recreated {
      zoneWasDeletedAndCreatedAgain(reason, &syncEngine)
      return
    }
    metadata.zone.created = false
    // Deleted records went with the zone: their deletions have nothing left to delete.
    syncEngine.remove(
      pendingRecordZoneChanges: syncEngine.pendingRecords.filter {
        if case .deleteRecord = $0 { return true }
        return false
      })
    metadata.changeEveryRecord { id, state in
      // A record the user deleted whose save may still land (in doubt, or a late copy of its create) may land in the
      // zone created again: its deletion is remembered, to delete that copy again.
      let late = state.saveMayLandLate ? (store[id] == nil ? state.deletion : nil) ?? state.localDeletion : nil
      state.zoneWent()
      if let late {
        state.localDeletion = late
        state.flags.insert(.lateCreateMayLand)
      }
    }
    for record in store.records {
      let id = record.recordID
      // A copy still waiting to be uploaded again after an earlier deletion was acknowledged there: it goes too.
      if !rules.keepsUnacknowledgedOnZoneLoss
        || dropsLocalData(after: reason)
          && (record.recordChangeTag != nil || flagsLookedFor(of: id).contains(.reuploaded))
      {
        metadata[id].flags.remove(.reuploaded)
        put(nil, at: id)
        syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
      } else {
        reupload(id, &syncEngine)
      }
    }
    if !store.recordIDs.isEmpty { syncEngine.add(pendingDatabaseChanges: [.saveZone(zoneID)]) }
  }

  /// The feed reports the zone deleted and created again since: under a deletion standing for the user's, the copies
  /// uploaded again into the zone that went go from the server too, and those waiting to be uploaded go; the listing
  /// to come decides the rest (``ZoneSyncState/listingReuploadsUnseen``).
  private mutating func zoneWasDeletedAndCreatedAgain(
    _ reason: SyncEngine.ZoneDeletion.Reason, _ syncEngine: inout SyncEngine.State
  ) {
    if dropsLocalData(after: reason) {
      for id in metadata.waiting(where: { $0.flags.contains(.uploadedAfterZoneLoss) })
      where store[id]?.recordChangeTag != nil {
        try? delete(id, at: store[id]?.modificationDate ?? .distantPast, syncEngine: &syncEngine)
      }
      // A copy still waiting to be uploaded again after an earlier deletion was acknowledged there: it goes with
      // this one.
      for id in metadata.waiting(where: { $0.flags.contains(.reuploaded) }) where store[id]?.recordChangeTag == nil {
        metadata[id].flags.remove(.reuploaded)
        put(nil, at: id)
        syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
      }
    }
    metadata.changeWaitingRecords { _, state in state.flags.remove(.uploadedAfterZoneLoss) }
    metadata.zone.listingReuploadsUnseen = !dropsLocalData(after: reason)
    if metadata.zone.listingReuploadsUnseen {
      // Copies from the old zone are uploaded again, not replaced by a user's new record: their unsent edits merge
      // with the new zone's version, over the last version they knew.
      for record in store.records where record.recordChangeTag != nil {
        metadata[record.recordID].flags.insert(.reuploaded)
      }
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
}
