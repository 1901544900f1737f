import Foundation

extension ZoneReplica {
  /// The account changed (the engine has reset its state and cleared what was pending); the policy decides:
  /// - ``AccountChangePolicy/deleteLocalData``: a sign-out or switch deletes the previous account's records, as Apple
  ///   asks; a sign-in from no account uploads what was made while signed out (Apple's sample does the same);
  /// - ``AccountChangePolicy/keepForSameAccount``: records stay while signed out and sync again with the same
  ///   account; another account's sign-in deletes them first;
  /// - ``AccountChangePolicy/ask``: everything stays and sending pauses (``SyncHalt/accountChanged(_:)``) until the
  ///   app resolves it, except a first sign-in with records nobody owns, which are uploaded.
  mutating func accountChanged(_ change: SyncEngine.AccountChange, _ syncEngine: inout SyncEngine.State) {
    // The engine starts with no tokens: its first database fetch lists every zone.
    metadata.databaseListingStartsOver = true
    let owner = metadata.accountOwner ?? change.previousUser
    switch configuration.accountChange {
    case .deleteLocalData:
      if change.previousUser != nil, !rules.accountSwitchDeletesData {
        uploadAsNew(for: change.currentUser, &syncEngine)
      } else if change.previousUser != nil, !rules.accountSwitchDeletesUnsent {
        // Only what the server has goes; the unsent rest waits for whichever account signs in.
        for record in store.records where !record.hasUnsentChanges {
          put(nil, at: record.recordID)
        }
        resetBookkeeping()
        uploadAsNew(for: change.currentUser, &syncEngine)
      } else if change.previousUser != nil {
        deleteLocalData(change)
      } else {
        uploadAsNew(for: change.currentUser, &syncEngine)
      }
    case .keepForSameAccount:
      guard let current = change.currentUser else {
        // Signed out: the records wait for their account.
        metadata.accountOwner = owner
        return
      }
      if owner == nil {
        uploadAsNew(for: current, &syncEngine)
      } else if owner == current {
        metadata.accountOwner = current
        resumeForOwnAccount(&syncEngine)
      } else {
        deleteLocalData(change)
        metadata.accountOwner = current
      }
    case .ask:
      if change.previousUser == nil, owner == nil {
        uploadAsNew(for: change.currentUser, &syncEngine)
      } else {
        metadata.accountOwner = owner
        metadata.halt = .accountChanged(change)
      }
    }
  }

  /// The user answered the question an account change asked (``SyncHalt/accountChanged(_:)``): keep the records for
  /// the account signed in now (they are uploaded to it as new records), or delete them (handed to the app first).
  /// Syncing resumes. Fetches made while the question was open were set aside, not applied: replace the engine by one
  /// started from no state serialization afterwards (as for a forced resync) so the account's records are fetched
  /// again.
  /// - Parameters:
  ///   - keepingData: `true` to keep the records for the current account, `false` to delete them.
  ///   - syncEngine: The engine's state.
  /// - Returns: `false` when no account change was waiting for an answer (nothing changed).
  @discardableResult
  public mutating func resolveAccountChange(keepingData: Bool, syncEngine: inout SyncEngine.State) -> Bool {
    guard case .accountChanged(let change) = metadata.halt else { return false }
    metadata.halt = nil
    if keepingData, let current = change.currentUser {
      // Kept for another account: nothing of the previous account's sync state applies to it.
      if metadata.accountOwner != current { resetBookkeeping() }
      uploadAsNew(for: current, &syncEngine)
    } else if keepingData {
      // Signed out and kept: the records wait, unowned, for whichever account signs in next.
      metadata.accountOwner = nil
    } else {
      deleteLocalData(change)
      metadata.accountOwner = change.currentUser
    }
    metadata.listEverythingAgain()
    return true
  }

  /// Deletes every record and the bookkeeping of the previous account, handing the records to the app first. The
  /// device's clock is not the account's data: stamps made from now on must still come after its earlier ones.
  private mutating func deleteLocalData(_ change: SyncEngine.AccountChange) {
    handOver(.accountChange(change), store.records)
    for id in store.recordIDs { put(nil, at: id) }
    resetBookkeeping()
  }

  /// Forgets every record's sync state — deletions owed, saves in doubt, ancestors, tokens of the zone — keeping the
  /// engine's state, the device's clock, and the store writes the metadata carries (the removals just made among
  /// them: a crash before the store is saved must not bring the previous account's records back).
  private mutating func resetBookkeeping() {
    var fresh = ReplicaMetadata()
    fresh.stateSerialization = metadata.stateSerialization
    fresh.clock = metadata.clock
    fresh.unsavedStoreWrites = metadata.unsavedStoreWrites
    metadata = fresh
  }

  /// An account change while the question of an earlier one is open: back to the records' own account, the question
  /// is moot and syncing resumes; to any other, the question is about the latest change.
  mutating func accountChangedWhileAsking(_ change: SyncEngine.AccountChange, _ syncEngine: inout SyncEngine.State) {
    metadata.databaseListingStartsOver = true
    guard let owner = metadata.accountOwner, change.currentUser == owner else {
      metadata.halt = .accountChanged(change)
      return
    }
    metadata.halt = nil
    resumeForOwnAccount(&syncEngine)
  }

  /// The records' own account is back: they still have their system fields there, so the zone is listed from its
  /// beginning and what was unsent is pending again on the reset engine.
  private mutating func resumeForOwnAccount(_ syncEngine: inout SyncEngine.State) {
    metadata.listEverythingAgain()
    requeueUnsent(&syncEngine)
  }

  /// Uploads every record as new to the account signed in now (records made signed out, or kept from another account).
  private mutating func uploadAsNew(for account: String?, _ syncEngine: inout SyncEngine.State) {
    // Records nobody owned were made while no account was signed in: none of their saves left this device, so a
    // version of one of their IDs fetched for this account is another record, never one to delete again.
    let unowned = metadata.accountOwner == nil
    metadata.accountOwner = account
    metadata.zone.created = false
    metadata.changeEveryRecord { _, state in
      if unowned { state.localDeletion = nil }
      state.serverVersion = nil
      state.unacknowledged = UnacknowledgedSaves()
    }
    for record in store.records {
      let id = record.recordID
      put(record.withoutSystemFields, at: id)
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }
    if !store.recordIDs.isEmpty { syncEngine.add(pendingDatabaseChanges: [.saveZone(zoneID)]) }
  }

  /// Hands the app the copies a wholesale deletion of local data takes (``ZoneReplica/discarded``), before they go.
  mutating func handOver(_ cause: DiscardedRecords.Cause, _ records: [Record]) {
    guard !records.isEmpty else { return }
    discarded.append(DiscardedRecords(cause: cause, records: records))
  }

  /// Hands the app the copies of `held` (what the app held before a wholesale deletion) that are gone now.
  mutating func handOver(_ cause: DiscardedRecords.Cause, goneFrom held: [RecordID: Record]) {
    handOver(cause, held.filter { store[$0.key] == nil }.map(\.value))
  }
}
