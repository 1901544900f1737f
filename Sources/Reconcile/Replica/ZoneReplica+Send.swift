import Foundation

extension ZoneReplica {
  /// The result of one sent batch: saved records take their new system fields (and become the ancestor), failed ones
  /// are settled by their error, and deletions the server confirmed are over.
  mutating func settle(_ sent: SyncEngine.SentRecordZoneChanges, _ syncEngine: inout SyncEngine.State) {
    for saved in sent.savedRecords {
      guard let local = store[saved.recordID] else {
        // Deleted while its save was in flight: the deletion saw this save, and now knows which record it deletes.
        if var deletion = metadata.deletions[saved.recordID] {
          if deletion.creationDate == nil { deletion.creationDate = saved.creationDate }
          deletion.recordChangeTag = saved.recordChangeTag
          metadata.deletions[saved.recordID] = deletion
          if configuration.rule == .resolver { metadata.ancestors[saved.recordID] = saved }
        } else {
          // The copy went unreadable while its save was in flight (``discardUnreadable(_:syncEngine:)``): the server
          // holds this version, which the app's refetch brings back; a deletion made before then must reach it.
          metadata.heldBack[saved.recordID] = saved
          metadata.heldBackByHalt.remove(saved.recordID)
        }
        continue
      }
      // Edits made while the save was in flight stay on top of the new system fields (their save is pending).
      store[saved.recordID] = flawed(.dropEditsDuringSave) ? saved : Self.values(of: local, on: saved)
      if flawed(.dropEditsDuringSave) { syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(saved.recordID)]) }
      metadata.reuploaded.remove(saved.recordID)
      metadata.replacing[saved.recordID] = nil
      metadata.replacementKeys[saved.recordID] = nil
      // The server's record is this copy now: a version held back before is no longer what a deletion deletes.
      metadata.heldBack[saved.recordID] = nil
      if configuration.rule == .resolver { metadata.ancestors[saved.recordID] = saved }
    }
    for saved in sent.savedRecords {
      metadata.newRecordsHandedOut.remove(saved.recordID)
      metadata.savesInDoubt.remove(saved.recordID)
      metadata.unacknowledgedSaves[saved.recordID] = nil
    }
    for failure in sent.failedRecordSaves { settleAttempt(failure, &syncEngine) }
    for failure in sent.failedRecordSaves { handleFailedSave(failure, &syncEngine) }
    for id in sent.deletedRecordIDs {
      // A save of the record still in doubt may land after the deletion: remembered, a copy of it fetched later
      // (this device's own) is deleted again.
      let deletion = metadata.deletions.removeValue(forKey: id)
      if metadata.saveMayLandLate(id) { metadata.deletedLocally[id] = deletion }
      if store[id] == nil {
        metadata.ancestors[id] = nil
        metadata.unacknowledgedSaves[id] = nil
      }
    }
    // A deletion whose answer went missing may have landed: before it is sent again, a fetch shows whether the
    // record was created anew since (then the retry would delete another device's record).
    for (id, error) in sent.failedRecordDeletes
    where error.code == .networkFailure || error.code == .serverResponseLost {
      metadata.deletionsAwaitingFetch.insert(id)
    }
    // A deletion the engine retries is still pending; one it gave up on is over.
    for id in sent.failedRecordDeletes.keys where !syncEngine.pendingRecords.contains(.deleteRecord(id)) {
      metadata.deletions[id] = nil
    }
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
        metadata.savesAwaitingFetch.insert(id)
        return
      }
      // The save was refused: its changes are still this device's own, pending, to merge as unsent.
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
      let merged = merge(server: server, local: local, &syncEngine)
      store[id] = merged
      if Self.sameValues(merged, server) || flawed(.resolveWithoutResend) {
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
      if local.recordChangeTag != nil, !flawed(.resaveDeleted),
        metadata.recreatedWhileUnsent.removeValue(forKey: id) != true
      {
        metadata.recreatedWhileUnsent[id] = false
        syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
        return
      }
      if revivingPolicy == .deleteWins, !flawed(.resaveDeleted) {
        store[id] = nil
      } else {
        store[id] = local.withoutSystemFields
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
    if !unanswered { metadata.unacknowledgedSaves[id]?.noteRefused(failure.record) }
    guard metadata.newRecordsHandedOut.contains(id), failure.record.recordChangeTag == nil else { return }
    if unanswered {
      metadata.savesInDoubt.insert(id)
      metadata.lateCreateCopies.insert(id)
    } else {
      guard !metadata.savesInDoubt.contains(id) else { return }
      metadata.newRecordsHandedOut.remove(id)
      if store[id] == nil, let deletion = metadata.deletions[id], deletion.creationDate == nil {
        metadata.deletedLocally[id] = deletion
        metadata.deletions[id] = nil
        metadata.deletionsAwaitingFetch.remove(id)
        syncEngine.remove(pendingRecordZoneChanges: [.deleteRecord(id), .saveRecord(id)])
      }
    }
  }

  /// A fetch brings a record the user deleted here before the deletion was sent. The deletion stands against the very
  /// record deleted (this device's own save, or one written elsewhere since, as the delete policy says); a record
  /// created anew since (another creation date) is another record, which the deletion must not touch.
}
