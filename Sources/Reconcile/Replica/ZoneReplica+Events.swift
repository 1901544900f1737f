import Foundation

extension ZoneReplica {
  /// Handles one engine event: fetched versions merge, sent results settle what was in doubt, zone deletions and
  /// account changes keep or drop what their reason says. Persist ``metadata`` and the store afterwards.
  /// - Parameters:
  ///   - event: The event.
  ///   - syncEngine: The engine's state, whose pending changes the rules add and remove.
  public mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    if !launchChecked {
      switch event {
      case .accountChange:
        // The engine was reset for another account: what this one left unsent is not to be re-added.
        launchChecked = true
      case .willFetchChanges, .willSendChanges:
        requeueUnsent(&syncEngine)
      default:
        break
      }
    }
    if case .accountChanged = metadata.halt {
      // The user has not said whether these records go with the account signed in now: nothing fetched for it
      // reaches the store until they do.
      switch event {
      case .stateUpdate(let serialization): metadata.stateSerialization = serialization
      case .accountChange(let change): accountChangedWhileAsking(change, &syncEngine)
      default: break
      }
      return
    }
    switch event {
    case .stateUpdate(let serialization):
      metadata.stateSerialization = serialization
    case .willFetchChanges:
      fetchCovers = Set(metadata.waiting { !$0.flags.isDisjoint(with: [.deletionAwaitsFetch, .saveAwaitsFetch]) })
      zoneListed = false
    case .fetchedDatabaseChanges(let changes):
      fetched(changes, &syncEngine)
    case .didFetchChanges:
      fetchEnded(&syncEngine)
    case .willFetchRecordZoneChanges(let zone) where zone == zoneID:
      // A fetch from the beginning already under way (a crash struck between its pages) goes on collecting.
      if metadata.zone.fetchStartsOver {
        metadata.zone.fetchStartsOver = false
        metadata.zone.listingSeen = []
      }
    case .didFetchRecordZoneChanges(let zone, let error) where zone == zoneID:
      zoneFetchEnded(error, &syncEngine)
    case .fetchedRecordZoneChanges(let changes):
      apply(changes, &syncEngine)
    case .sentDatabaseChanges(let sent):
      if sent.savedZones.contains(zoneID) { metadata.zone.created = true }
    case .sentRecordZoneChanges(let sent):
      settle(sent, &syncEngine)
    case .accountChange(let change):
      accountChanged(change, &syncEngine)
    case .willFetchRecordZoneChanges, .didFetchRecordZoneChanges, .willSendChanges,
      .didSendChanges:
      break
    }
  }

  /// The database feed of a fetch: a zone deletion it reports (or, listing every zone, implies) is answered by its
  /// reason; a zone it shows there settles what waited on it.
  private mutating func fetched(_ changes: SyncEngine.FetchedDatabaseChanges, _ syncEngine: inout SyncEngine.State) {
    let listing = metadata.databaseListingStartsOver
    metadata.databaseListingStartsOver = false
    // What the last listing of the zone left out went with the zone when the feed reports it deleted since: the
    // listing was of the zone created again. Those copies come back, for the deletion's policy to answer.
    let zoneWent =
      changes.deletions.contains(where: { $0.zoneID == zoneID })
      || (listing && metadata.zone.created && !changes.modifications.contains(zoneID))
    for id in metadata.waiting(where: { $0.droppedByListing != nil }) {
      let copy = metadata[id].droppedByListing
      metadata[id].droppedByListing = nil
      if zoneWent, store[id] == nil { put(copy, at: id) }
    }
    if listing, metadata.zone.created, !changes.modifications.contains(zoneID),
      !changes.deletions.contains(where: { $0.zoneID == zoneID })
    {
      // A fetch with no database token lists every zone there is and reports no deletion: the zone it leaves out
      // went while this device was not listening, for a reason no one can tell now. A save's error may have said;
      // else it is taken for a client's deletion, which the zone-loss policy answers.
      zoneWasDeleted(metadata.zone.missing ?? .deleted, &syncEngine)
      return
    }
    if changes.modifications.contains(zoneID) {
      sawZoneListed()
      metadata.zone.created = true
    } else {
      // Nothing changed in the zone since the last fetch: nothing was created anew under a deleted ID.
      fetchShowedTheZone()
    }
    if let deletion = changes.deletions.last(where: { $0.zoneID == zoneID }) {
      zoneWasDeleted(deletion.reason, recreated: changes.modifications.contains(zoneID), &syncEngine)
    } else {
      // No deletion since the copies uploaded again landed: they are the zone's records now.
      for id in metadata.waiting(where: { $0.flags.contains(.uploadedAfterZoneLoss) })
      where store[id]?.recordChangeTag != nil {
        metadata[id].flags.remove(.uploadedAfterZoneLoss)
      }
    }
  }

  /// A fetch ended: a zone loss the feed did not explain takes the error's reason, unless the zone was listed; records
  /// found created anew are now known to be users' doing.
  private mutating func fetchEnded(_ syncEngine: inout SyncEngine.State) {
    // The feed did not say why the zone went (its history was compacted). When the zone is there again, the engine
    // lists it from its beginning (a token of the old zone expires), and the listing leaves out what went; else the
    // error's reason stands.
    if let reason = metadata.zone.missing {
      if zoneListed {
        metadata.zone.missing = nil
      } else {
        zoneWasDeleted(reason, &syncEngine)
      }
    }
    // The feed reported no zone deletion: records found created anew were created by users; the next merge decides.
    for id in metadata.waiting(where: { $0.recreation != nil }) {
      if store[id] == nil, metadata[id].recreation?.version != nil {
        // The user deleted the stale copy while the decision waited: the deletion was of the record gone.
        showRecreatedVersion(of: id, &syncEngine)
      } else if store[id] == nil {
        metadata[id].recreation = nil
      } else {
        metadata[id].recreation?.feedRead = true
      }
    }
  }

  /// A fetch of the zone ended, with `error` or without: a success shows the zone there and ends a listing from its
  /// beginning.
  private mutating func zoneFetchEnded(_ error: CloudKitError?, _ syncEngine: inout SyncEngine.State) {
    if let error {
      // A transient error (the network, throttling) or a signed-out or refused database leaves the engine's token,
      // and the next fetch goes on from it (a listing under way goes on collecting); any other error — an expired
      // token, a missing zone — makes the engine fetch the zone from its beginning.
      if !error.isTransient, error.code != .notAuthenticated, error.code != .badDatabase {
        metadata.zone.fetchStartsOver = true
      }
      zoneGone(error.code)
      return
    }
    // A fetch of the zone that succeeds shows it there.
    sawZoneListed()
    finishFullFetch(&syncEngine)
    fetchShowedTheZone()
  }

  /// A fetch that started after the changes it covers showed the zone unchanged, or fetched it: a deletion it covers
  /// deletes no record created anew, and a save refused without the server's record has met that version.
  private mutating func fetchShowedTheZone() {
    for id in fetchCovers where !flagsLookedFor(of: id).isDisjoint(with: [.deletionAwaitsFetch, .saveAwaitsFetch]) {
      metadata[id].flags.subtract([.deletionAwaitsFetch, .saveAwaitsFetch])
    }
  }
}
