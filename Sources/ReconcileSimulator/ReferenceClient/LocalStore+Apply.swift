package import Foundation
package import Reconcile

extension LocalStore {
  /// Applies one page of fetched changes. Every record is checked against the app's schema first; a halt leaves the
  /// rest of the page unapplied (and the device leaves the token uncommitted).
  /// - Returns: Why the device must halt, or `nil` when the whole page was applied.
  package mutating func apply(_ changes: ZoneChanges, at now: Date) -> HaltReason? {
    if let schema = configuration.schema {
      for record in changes.changed {
        do {
          _ = try schema.check(record)
        } catch {
          return .schema(error)
        }
      }
    }
    decisions.append(
      .fetched(saved: changes.changed.map(\.recordID), deleted: changes.deleted.map(\.recordID)))
    for record in Self.parentsFirst(changes.changed) {
      if let upload = storage.uploadsToWithdraw.removeValue(forKey: record.recordID),
        upload.tag == record.recordChangeTag
          || configuration.deletePolicy == .deleteWins && upload.created != nil && upload.created == record.creationDate
      {
        // This device's own upload of an old copy, landed after the user deleted their data (and under `.deleteWins`
        // any edit of it since, which the deletion beats): it goes.
        storage.pending.enqueue(record.recordID, .delete)
        storage.fullFetchSeen?.insert(record.recordID)
        continue
      }
      if let reason = applyFetched(record) { return reason }
      storage.fullFetchSeen?.insert(record.recordID)
    }
    if !configuration.defects.contains(.ignoreFetchedDeletions) {
      for deletion in changes.deleted { applyFetchedDeletion(deletion, at: now) }
    }
    return nil
  }

  /// Orders records so that a parent in the same page comes before its children.
  static func parentsFirst(_ records: [Record]) -> [Record] {
    let ids = Set(records.map(\.recordID))
    guard records.contains(where: { $0.parent.map { ids.contains($0.recordID) } ?? false }) else { return records }
    var byID = Dictionary(records.map { ($0.recordID, $0) }, uniquingKeysWith: { a, _ in a })
    var ordered: [Record] = []
    func visit(_ id: RecordID, depth: Int) {
      guard depth < records.count, let record = byID.removeValue(forKey: id) else { return }
      if let parent = record.parent?.recordID { visit(parent, depth: depth + 1) }
      ordered.append(record)
    }
    for record in records { visit(record.recordID, depth: 0) }
    return ordered
  }

  private mutating func applyFetched(_ server: Record) -> HaltReason? {
    let id = server.recordID
    observeStamps(of: server)
    storage.discardedServerCopies[id] = nil
    // A damaged copy is replaced by the server's, never merged.
    _ = discardIfDamaged(id)
    if storage.pending[id] == .delete, storage.records[id] == nil {
      if let deleted = storage.tombstones[id]?.creationDate, let created = server.creationDate, deleted != created,
        server.modifiedByDevice != configuration.name
      {
        // The record this device deleted is gone already; this one was created anew since, elsewhere: keep it. (One
        // this device last saved is its own replacement, landed unheard of: the user deleted that too.)
        storage.pending.remove(id)
        storage.tombstones.remove(id)
        storage.records[id] = LocalRecord(lastKnownServer: server, current: server)
        decisions.append(.deletion(id, .deletionCancelled))
        return nil
      }
      var pending =
        storage.tombstones[id] ?? Tombstone(recordID: id, recordType: server.recordType, deletedAt: .distantPast)
      if configuration.defects.contains(.ownSaveCancelsDeletion) {
        pending.deletedBy = nil
        pending.recordChangeTag = nil
      }
      if case .keep(let kept) = configuration.deletePolicy.resolvePendingDeletion(pending, against: server) {
        storage.pending.remove(id)
        storage.tombstones.remove(id)
        storage.records[id] = LocalRecord(lastKnownServer: server, current: kept)
        decisions.append(.deletion(id, .deletionCancelled))
      } else {
        storage.resurrectionsBlocked += 1
        decisions.append(.deletion(id, .deletionStands))
      }
      return nil
    }
    guard let local = storage.records[id] else {
      if configuration.defects.contains(.dropUnacknowledgedDeletes) {
        storage.records[id] = LocalRecord(lastKnownServer: server, current: server)
        return nil
      }
      // A copy of the very record this device deleted (not one created anew since) must not come back: under
      // `.deleteWins` the deletion is sent again.
      if storage.tombstones[id]?.creationDate != nil, storage.tombstones.blocks(server),
        configuration.deletePolicy == .deleteWins
      {
        storage.pending.enqueue(id, .delete)
        storage.resurrectionsBlocked += 1
        decisions.append(.deletion(id, .deletionStands))
        return nil
      }
      // This device's own save, delayed past its deletion here (it was last written by this device, which deleted
      // it since and has not created it again): the user's deletion stands, whatever the policy. That holds whether
      // or not the deleted record had been acknowledged: a stale copy of a save the device retried lands as a record
      // created anew.
      if storage.tombstones[id] != nil, server.modifiedByDevice == configuration.name {
        storage.pending.enqueue(id, .delete)
        storage.resurrectionsBlocked += 1
        decisions.append(.deletion(id, .deletionStands))
        return nil
      }
      storage.tombstones.remove(id)
      storage.records[id] = LocalRecord(lastKnownServer: server, current: server)
      return nil
    }
    if local.lastKnownServer?.recordChangeTag == server.recordChangeTag, server.recordChangeTag != nil { return nil }
    // A copy from a zone since deleted, not yet uploaded again, is the user's data still: it merges with the new
    // zone's version even with no edit unsent.
    guard local.hasUnsentChanges || local.reuploadAncestor != nil else {
      var updated = local
      updated.lastKnownServer = server
      updated.current = server
      updated.reuploadAncestor = nil
      updated.uploadedAgain = false
      updated.mergedUploadPending = false
      storage.records[id] = updated
      return nil
    }
    if configuration.defects.contains(.overwriteUnsentEdits) {
      replaceUnsent(local, with: server)
      return nil
    }
    return resolveConflict(id, server: server)
  }

  private mutating func applyFetchedDeletion(_ deletion: DeletedRecord, at now: Date) {
    let id = deletion.recordID
    storage.discardedServerCopies[id] = nil
    let tombstone = Tombstone(
      recordID: id, recordType: deletion.recordType, deletedAt: deviceTime(at: now), deletedBy: nil)
    if storage.pending[id] == .delete, storage.records[id] == nil {
      storage.pending.remove(id)
      storage.tombstones.insert(storage.tombstones[id] ?? tombstone)
      return
    }
    _ = discardIfDamaged(id)
    guard let local = storage.records[id] else {
      storage.tombstones.insert(tombstone)
      return
    }
    // A record created here and never acknowledged is taken for a new record: a deletion in the feed is of an older
    // one with the same ID. When its save went unanswered the feed cannot tell (the deletion may be of this very save,
    // landed and deleted elsewhere); keeping the user's new record is the choice that loses nothing.
    if local.lastKnownServer == nil { return }
    // A record the user created again after deleting it here replaces the one the feed says is deleted — often by
    // this device's own deletion, landing late — and is not acknowledged yet: the user's new record stays, to be
    // saved as new.
    if local.replacesDeleted {
      var created = local.current
      for key in created.allKeys { created.markChanged(key) }
      settle(.recreate(created.withoutSystemFields), for: local)
      return
    }
    if !local.hasUnsentChanges {
      storage.records[id] = nil
      storage.pending.remove(id)
      var known = tombstone
      known.creationDate = local.current.creationDate
      storage.tombstones.insert(known)
      decisions.append(.deletion(id, .removedLocally))
      return
    }
    var edited = local.current
    if local.lastKnownServer == nil { for key in edited.allKeys { edited.markChanged(key) } }
    if configuration.defects.contains(.resaveDeleted) {
      settle(.recreate(edited.withoutSystemFields), for: local)
      return
    }
    let resolution = revivingPolicy.resolveFetchedDeletion(tombstone, of: edited)
    settle(resolution, for: local)
    switch resolution {
    case .deleted: decisions.append(.deletion(id, .removedLocally))
    case .recreate: decisions.append(.deletion(id, .revivedByUnsentEdits))
    case .keep: break
    }
  }

  /// The delete policy for an edit meeting a deletion (``ClientDefect/dropRevivingEdits`` ignores `.editWins`).
  var revivingPolicy: DeletePolicy {
    configuration.defects.contains(.dropRevivingEdits) ? .deleteWins : configuration.deletePolicy
  }

  /// Carries out what the delete policy decided for a record the server deleted while this device edited it: drop it
  /// and keep the tombstone, or queue it to be saved again as a new record. `.keep` leaves the store as it is.
  package mutating func settle(_ resolution: DeleteResolution, for local: LocalRecord) {
    let id = local.current.recordID
    switch resolution {
    case .deleted(let tombstone):
      storage.records[id] = nil
      storage.pending.remove(id)
      storage.tombstones.insert(tombstone)
    case .recreate(let record):
      // A damaged copy is never saved anew: a recreation would seal its garbage as sound.
      if discardDamagedRecords(among: [id]) { return }
      var recreated = LocalRecord(lastKnownServer: nil, current: record)
      recreated.generation = local.generation + 1
      storage.records[id] = recreated
      storage.pending.enqueue(id, .save)
    case .keep:
      break
    }
  }

  /// After a fetch from the beginning (a token expired, or the zone was re-created elsewhere), records the device knew
  /// from the server but did not see are gone: deleted while the history was forgotten, or with the old zone.
  package mutating func finishFullFetch(at now: Date) {
    let seen = storage.fullFetchSeen ?? []
    let gone = storage.records.filter { $0.value.lastKnownServer != nil && !seen.contains($0.key) }
    for (id, local) in gone.sorted(by: { $0.key < $1.key }) {
      if storage.reuploadUnseen {
        reupload(id)
      } else {
        applyFetchedDeletion(DeletedRecord(recordID: id, recordType: local.current.recordType), at: now)
      }
    }
    storage.reuploadUnseen = false
    // A queued deletion of a record the server no longer has is moot: sent later, it could only delete a record
    // created anew under the same ID after this fetch.
    for (id, kind) in storage.pending.entries where kind == .delete && !seen.contains(id) && storage.records[id] == nil
    {
      storage.pending.remove(id)
      storage.deletesOfUnconfirmed[id] = nil
    }
    storage.fullFetchSeen = nil
    storage.uploadsToWithdraw.removeAll()
  }

  /// Queues the device's copy of `id` to be uploaded as a new record, its zone having gone: the last server version
  /// known stays the ancestor of its first merge, so the user's unsent edits stand as changes.
  package mutating func reupload(_ id: RecordID) {
    guard let local = storage.records[id] else { return }
    var reset = LocalRecord(lastKnownServer: nil, current: local.current.withoutSystemFields)
    reset.generation = local.generation + 1
    reset.reuploadAncestor = local.lastKnownServer?.withoutSystemFields ?? local.reuploadAncestor
    storage.records[id] = reset
    storage.pending.enqueue(id, .save)
  }

  /// Merges the device's copy of `id` with a newer server version through the resolver (guarded by the schema), and
  /// keeps the result queued when it differs from the server's.
  /// - Returns: A halt reason when the merge is refused.
  package mutating func resolveConflict(_ id: RecordID, server: Record) -> HaltReason? {
    if discardIfDamaged(id) {
      storage.records[id] = LocalRecord(lastKnownServer: server, current: server)
      return nil
    }
    guard var local = storage.records[id] else { return nil }
    observeStamps(of: server)
    if local.reuploadAncestor == nil, let known = local.lastKnownServer?.creationDate,
      let created = server.creationDate,
      known != created
    {
      // The record was deleted and created anew elsewhere: this device's edits were to the deleted one.
      if configuration.deletePolicy == .deleteWins || !local.hasUnsentChanges {
        replaceUnsent(local, with: server)
        return nil
      }
      local.lastKnownServer = nil
    }
    let resolver: any ConflictResolver =
      configuration.schema.map { configuration.resolver.guarded(by: $0) } ?? configuration.resolver
    if local.replacesDeleted, let deleted = local.replacedCreationDate, let created = server.creationDate,
      deleted != created
    {
      // The record it was to replace is gone already; this is another device's record, created since: merge with it
      // as two creates do.
      local.replacesDeleted = false
      local.replacesDiscardedCopy = false
    }
    if local.replacesDeleted {
      // A record re-created after a deletion here replaces whatever the server holds under its ID, whole, until the
      // replacement lands: every key takes the new record's value or goes.
      var replaced = server
      // Keys this app does not know stay: a newer app wrote them, and this one must not remove them.
      let unknown = configuration.schema?.unknownKeys(in: server) ?? []
      for key in Set(server.allKeys).union(local.current.allKeys).sorted() where !unknown.contains(key) {
        // The user's record defines the keys it set or left out; a value it holds only because an earlier merge kept
        // the server's (a key the app did not know then, known since an upgrade) is the server's to change.
        guard local.current.changedKeys.contains(key) || !local.current.allKeys.contains(key) else { continue }
        replaced.takeValue(of: key, from: local.current)
      }
      local.lastKnownServer = server
      local.current = replaced
      local.generation += 1
      storage.records[id] = local
      if replaced.changedKeys.isEmpty { storage.pending.remove(id) } else { storage.pending.enqueue(id, .save) }
      return nil
    }
    let merged: Record
    let ancestor =
      local.reuploadAncestor.map { $0.sharedPast(with: server) }
      ?? local.unacknowledgedSaves.ancestor(known: local.lastKnownServer, server: server, device: configuration.name)
    do {
      if configuration.defects.contains(.mergeWithoutAncestor) {
        merged = Self.twoWayMerge(client: local.current, server: server)
      } else {
        merged = try resolver.resolve(Conflict(client: local.current, ancestor: ancestor, server: server))
      }
    } catch let halt as SchemaHalt {
      return .schema(halt)
    } catch {
      return .unresolvableConflict(id, "\(error)")
    }
    decisions.append(
      .merged(SyncDecision.Merge(client: local.current, ancestor: ancestor, server: server, result: merged)))
    local.lastKnownServer = server
    // An old copy merged into the new zone's version is still an upload of that copy until it lands.
    local.mergedUploadPending = local.reuploadAncestor != nil && !merged.changedKeys.isEmpty
    local.reuploadAncestor = nil
    local.uploadedAgain = false
    local.current = merged
    local.generation += 1
    storage.records[id] = local
    if merged.changedKeys.isEmpty || configuration.defects.contains(.resolveWithoutResend) {
      storage.pending.remove(id)
    } else {
      storage.pending.enqueue(id, .save)
    }
    return nil
  }

  /// The server's version replaces the device's copy and its unsent edits, which leave the queue.
  private mutating func replaceUnsent(_ local: LocalRecord, with server: Record) {
    var replaced = local
    replaced.lastKnownServer = server
    replaced.current = server
    replaced.generation += 1
    storage.records[server.recordID] = replaced
    storage.pending.remove(server.recordID)
  }

  /// ``ClientDefect/mergeWithoutAncestor``: with no ancestor to tell who changed what, every key the two sides
  /// disagree on takes the client's value.
  static func twoWayMerge(client: Record, server: Record) -> Record {
    var merged = server
    for key in Set(client.allKeys).union(server.allKeys).sorted() where !client.hasSameValue(forKey: key, as: server) {
      merged.takeValue(of: key, from: client)
      merged.markChanged(key)
    }
    return merged
  }

  /// Moves the device's hybrid logical clock past the stamps of a record it received. A stamp too far ahead is not
  /// observed (the clock keeps its drift cap); the record is still applied.
  package mutating func observeStamps(of record: Record) {
    guard configuration.bookkeeping.fieldStampsKey != nil else { return }
    try? configuration.bookkeeping.observeStamps(
      of: record, clock: &storage.clock, at: record.modificationDate ?? .distantPast)
  }
}
