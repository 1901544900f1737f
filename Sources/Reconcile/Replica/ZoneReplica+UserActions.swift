public import Foundation

extension ZoneReplica {
  /// The user creates a record: it is stored with every key changed, stamped, and queued (its zone too, the first
  /// time). Re-creating a record whose deletion is unsent replaces the deleted one whole instead of deleting it.
  /// - Parameters:
  ///   - record: The new record.
  ///   - now: The device's time.
  ///   - syncEngine: The engine's state.
  /// - Throws: ``ReplicaError/recordExists(_:)`` when the store has the ID; a schema or bookkeeping error when the
  ///   record cannot be stamped. Nothing changed then.
  public mutating func create(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State)
    throws(ReplicaError)
  {
    let id = record.recordID
    guard store[id] == nil else { throw .recordExists(id) }
    var new = record
    for key in new.allKeys { new.markChanged(key) }
    try stamp(&new, at: now)
    // A deletion remembered because a save of the deleted record was in doubt is one this record replaces too: that
    // save may land, and the user's latest word is this record.
    let knownKeys = configuration.schema?.recordSchemas[record.recordType]?.fields.keys
    let replaces = metadata[id].createAgain(knownKeys: knownKeys.map(Set.init))
    if replaces { syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(id)]) }
    put(new, at: id)
    if !metadata.zone.created { syncEngine.add(pendingDatabaseChanges: [.saveZone(zoneID)]) }
    syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
  }

  /// The user edits a record: the values are set (`nil` removes a key), the edit is stamped and the save queued.
  /// - Parameters:
  ///   - id: The record.
  ///   - values: The new values by key; `nil` removes the key.
  ///   - now: The device's time.
  ///   - syncEngine: The engine's state.
  /// - Throws: ``ReplicaError/recordNotFound(_:)``; ``ReplicaError/schema(_:)`` for a record from a newer app, which
  ///   this app shows but never changes. Nothing changed then.
  public mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws(ReplicaError) {
    try edit(id, at: now, syncEngine: &syncEngine) { record in
      for (key, value) in values { record[key] = value }
    }
  }

  /// The user edits a record through `change`, which may set plain and encrypted values but not the record's identity:
  /// every key it writes is marked changed; the edit is stamped and the save queued.
  /// - Parameters:
  ///   - id: The record.
  ///   - now: The device's time.
  ///   - syncEngine: The engine's state.
  ///   - change: Writes the new values.
  /// - Throws: As ``edit(_:setting:at:syncEngine:)``. Nothing changed then.
  public mutating func edit(
    _ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State, _ change: (inout Record) -> Void
  ) throws(ReplicaError) {
    guard var record = store[id] else { throw .recordNotFound(id) }
    if configuration.rule == .resolver, let schema = configuration.schema {
      // A record from a newer major version is this app's to show, never to change.
      do { _ = try schema.check(record) } catch { throw .schema(error) }
    }
    let recordType = record.recordType
    change(&record)
    // Written back only when the change touched them: a write copies a record shared with the app's own copy.
    if record.recordID != id { record.recordID = id }
    if record.recordType != recordType { record.recordType = recordType }
    try stamp(&record, at: now)
    put(record, at: id)
    syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
  }

  /// The user deletes a record. Its deletion waits for a fetch that starts after it (a deletion carries no change
  /// tag); a new record the server cannot have is deleted here only.
  /// - Parameters:
  ///   - id: The record.
  ///   - now: The device's time, for the tombstone.
  ///   - syncEngine: The engine's state.
  /// - Throws: ``ReplicaError/recordNotFound(_:)``. Nothing changed then.
  public mutating func delete(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws(ReplicaError) {
    guard let deleted = removeStored(id) else { throw .recordNotFound(id) }
    // The ancestor and the saves sent unanswered stay while the deletion is owed: they tell the version the user
    // deleted, which a record created again before the deletion is sent merges from if an edit the deletion did not
    // see cancels it.
    let waiting = isWaiting(id)
    if waiting, let recreation = metadata[id].recreation, recreation.feedRead, recreation.version != nil {
      // The copy deleted is of a record the server no longer has: one created anew by a user elsewhere stands there.
      metadata[id].unacknowledged = UnacknowledgedSaves()
      showRecreatedVersion(of: id, &syncEngine)
      return
    }
    if waiting, metadata[id].deleteReplacement() {
      // A replacement deleted again: the record it replaced is still owed its deletion, and the replacement's save
      // may have landed.
      if !flagsLookedFor(of: id).contains(.createHandedOut) {
        syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
      }
      syncEngine.add(pendingRecordZoneChanges: [.deleteRecord(id)])
      return
    }
    // A server version held back is the record the deletion is of. It saw what the user saw: the version of a copy
    // the app discarded, but not one a halt kept from being shown.
    let held = waiting ? metadata[id].takeHeldBack() : nil
    let byHalt = held?.byHalt ?? false
    let heldBack = held?.version
    var tombstone = Tombstone(deleting: byHalt ? deleted : heldBack ?? deleted, at: now, by: configuration.deviceName)
    if tombstone.creationDate == nil { tombstone.creationDate = heldBack?.creationDate }
    if byHalt, let heldBack {
      // The held-back version meets the deletion as a fetch of it would: an edit the deletion did not see cancels
      // it (under `.editWins`), and the server's version stays.
      metadata[id].deletion = tombstone
      if !deletionStands(against: heldBack) {
        metadata[id].deletion = nil
        syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
        put(merge(server: heldBack, local: nil, &syncEngine), at: id)
        decide(.deletion(id, .deletionCancelled))
        return
      }
    }
    if deleted.recordChangeTag == nil,
      !flagsLookedFor(of: id).contains(.createHandedOut) || !rules.sendsDeletionsOfCreatesHandedOut,
      heldBack == nil
    {
      // The server never had it: nothing to delete there (a deletion could only hit another device's record).
      syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
      metadata[id].deletedHereOnly(tombstone)
      return
    }
    // With no server version known (its create's answer went missing), the copy deleted is the version the user saw.
    var seen = deleted
    seen.clearChangedKeys()
    metadata[id].deletionOwed(tombstone, seen: configuration.rule == .resolver ? seen : nil)
    syncEngine.add(pendingRecordZoneChanges: [.deleteRecord(id)])
  }

  /// The user deleted a stale copy of `id` while a record created anew elsewhere, fetched and left undecided, stands
  /// on the server: the deletion, which carries no change tag, would take that other record, so it is not sent (nor
  /// the stale copy's unsent edits); the new record is shown instead.
  mutating func showRecreatedVersion(of id: RecordID, _ syncEngine: inout SyncEngine.State) {
    let recreation = metadata[id].recreation
    metadata[id].recreation = nil
    guard let recreated = recreation?.version else { return }
    metadata[id].deletion = nil
    metadata[id].flags.remove(.deletionAwaitsFetch)
    syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id), .deleteRecord(id)])
    if configuration.rule == .resolver { metadata[id].serverVersion = recreated }
    put(recreated, at: id)
    decide(.deletion(id, .deletionCancelled))
  }

  /// Writes what the merge rule reads: the schema's version and the resolver's bookkeeping (or the sample's date).
  private mutating func stamp(_ record: inout Record, at time: Date) throws(ReplicaError) {
    switch configuration.rule {
    case .lastModifiedWins(let key):
      record.encryptedValues[key] = .timestamp(time)
    case .resolver:
      if let schema = configuration.schema {
        do {
          if case .newerMinor = try schema.check(record) {} else { try schema.stampVersion(&record) }
        } catch {
          throw .schema(error)
        }
      }
      if !configuration.bookkeeping.keys.isEmpty, var clock = metadata.clock {
        do {
          try configuration.bookkeeping.stampEdit(&record, clock: &clock, at: time)
        } catch {
          throw .bookkeeping(record.recordID, "\(error)")
        }
        metadata.clock = clock
      }
    }
  }
}
