import Foundation

extension ZoneReplica {
  /// The result of one sent batch: saved records take their new system fields (and become the ancestor), failed ones
  /// are settled by their error, and deletions the server confirmed are over.
  mutating func settle(_ sent: SyncEngine.SentRecordZoneChanges, _ syncEngine: inout SyncEngine.State) {
    for saved in sent.savedRecords {
      guard let local = store[saved.recordID] else {
        // Deleted while its save was in flight: the deletion saw this save, and now knows which record it deletes.
        settleSaveOfRecordGone(saved)
        metadata[saved.recordID].saveAnswered()
        continue
      }
      // Edits made while the save was in flight stay on top of the new system fields (their save is pending).
      put(!rules.keepsEditsMadeDuringSave ? saved : Self.values(of: local, on: saved), at: saved.recordID)
      if !rules.keepsEditsMadeDuringSave { syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(saved.recordID)]) }
      metadata[saved.recordID].saveLanded(saved, known: configuration.rule == .resolver)
    }
    for failure in sent.failedRecordSaves { settleAttempt(failure, &syncEngine) }
    for failure in sent.failedRecordSaves { handleFailedSave(failure, &syncEngine) }
    for id in sent.deletedRecordIDs {
      // A save of the record still in doubt may land after the deletion: remembered, a copy of it fetched later
      // (this device's own) is deleted again.
      metadata[id].deletionConfirmed(recordGone: store[id] == nil)
    }
    // A deletion whose answer went missing may have landed: before it is sent again, a fetch shows whether the
    // record was created anew since (then the retry would delete another device's record).
    for (id, error) in sent.failedRecordDeletes
    where error.code == .networkFailure || error.code == .serverResponseLost {
      metadata[id].flags.insert(.deletionAwaitsFetch)
    }
    // A deletion the engine retries is still pending; one it gave up on is over.
    for id in sent.failedRecordDeletes.keys where !syncEngine.pendingRecords.contains(.deleteRecord(id)) {
      metadata[id].deletion = nil
    }
  }

  /// A save answered for a record no longer in the store. Deleted while its save was in flight: the deletion saw this
  /// save, and now knows which record it deletes. Otherwise the copy went unreadable meanwhile
  /// (``discardUnreadable(_:syncEngine:)``): the server holds this version, which the app's refetch brings back; a
  /// deletion made before then must reach it.
  private mutating func settleSaveOfRecordGone(_ saved: Record) {
    let id = saved.recordID
    guard var deletion = metadata[id].deletion else {
      metadata[id].heldBack = .init(version: saved, byHalt: false)
      return
    }
    if deletion.creationDate == nil { deletion.creationDate = saved.creationDate }
    deletion.recordChangeTag = saved.recordChangeTag
    metadata[id].deletion = deletion
    if configuration.rule == .resolver { metadata[id].serverVersion = saved }
  }

  mutating func handleFailedSave(_ failure: SyncEngine.FailedRecordSave, _ syncEngine: inout SyncEngine.State) {
    let id = failure.record.recordID
    switch failure.error.code {
    case .serverRecordChanged:
      guard let local = store[id] else { return }
      guard let server = failure.error.conflict?.server else {
        // Refused, with no server record to merge with: the change stays pending, held until a fetch brings the
        // version that refused it (sent again before that, it would only be refused again).
        syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
        metadata[id].flags.insert(.saveAwaitsFetch)
        return
      }
      // The save was refused: its changes are still this device's own, pending, to merge as unsent.
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
      let merged = merge(server: server, local: local, &syncEngine)
      put(merged, at: id)
      if Self.sameValues(merged, server) || !rules.resendsMerges {
        syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
      }
    case .zoneNotFound, .userDeletedZone:
      // The zone is gone, and why decides what to keep: the save waits for the database feed to say.
      zoneGone(failure.error.code)
      if store[id] != nil { syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)]) }
    case .unknownItem:
      guard let local = store[id] else { return }
      // Gone: deleted by a user, or with its zone (then to be uploaded again): the database feed says, so the change
      // waits for a fetch that reads it.
      if local.recordChangeTag != nil, rules.respectsServerDeletions, unknownItemWaitsForTheFeed(id) {
        syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
        return
      }
      if revivingPolicy == .deleteWins, rules.respectsServerDeletions {
        put(nil, at: id)
      } else {
        put(local.withoutSystemFields, at: id)
        syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
      }
    default:
      // Transient errors and batchRequestFailed are retried by the engine; anything else is logged and dropped.
      break
    }
  }

  /// What a failed save says about whether it landed: an unanswered one (`networkFailure`, `serverResponseLost`) may
  /// have; any other answer, a conflict included, says this attempt did not (its version is noted refused). For a new
  /// record: When no attempt
  /// is in doubt, nothing of the record reached the server: it is no longer handed out, and a deletion the user made
  /// of it since has nothing to delete.
  mutating func settleAttempt(_ failure: SyncEngine.FailedRecordSave, _ syncEngine: inout SyncEngine.State) {
    let id = failure.record.recordID
    let unanswered = failure.error.code == .networkFailure || failure.error.code == .serverResponseLost
    // Answered (a conflict, a missing record or zone): the version sent did not land.
    if !unanswered { metadata[id].unacknowledged.noteRefused(failure.record) }
    guard flagsLookedFor(of: id).contains(.createHandedOut), failure.record.recordChangeTag == nil else { return }
    if unanswered {
      metadata[id].flags.formUnion([.createInDoubt, .lateCreateMayLand])
    } else {
      guard !flags(of: id).contains(.createInDoubt) else { return }
      metadata[id].flags.remove(.createHandedOut)
      if store[id] == nil, let deletion = deletionOwed(of: id), deletion.creationDate == nil {
        metadata[id].localDeletion = deletion
        metadata[id].deletion = nil
        metadata[id].flags.remove(.deletionAwaitsFetch)
        syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(id), .saveRecord(id)])
      }
    }
  }

  /// A fetch brings a record the user deleted here before the deletion was sent. The deletion stands against the very
  /// record deleted (this device's own save, or one written elsewhere since, as the delete policy says); a record
  /// created anew since (another creation date) is another record, which the deletion must not touch.
}

extension ZoneReplica {
  /// A save of acknowledged record `id` found it gone (`unknownItem`): deleted by a user, or with its zone (then to be
  /// uploaded again). The database feed says which, so the change waits for a fetch that reads it — unless such a
  /// fetch already found the record created anew, and the feed said nothing of its zone.
  /// - Returns: Whether the change waits.
  mutating func unknownItemWaitsForTheFeed(_ id: RecordID) -> Bool {
    let recreation = metadata[id].recreation
    guard recreation?.feedRead != true else {
      metadata[id].recreation = nil
      return false
    }
    metadata[id].recreation = .init(feedRead: false, version: recreation?.version)
    return true
  }
}
