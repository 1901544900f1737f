public import Foundation
import Reconcile

extension SimulatedDevice {
  /// The request the device wants to send now, if any: nothing while halted, offline, waiting, or with a request in
  /// flight. Starts a sync when one was requested.
  /// - Parameter now: True (virtual) time.
  /// - Returns: The request and its ID; hand the answer to ``receive(_:for:at:)`` with that ID.
  public mutating func nextRequest(at now: Date) -> OutgoingRequest? {
    guard !isHalted || configuration.defects.contains(.sendWhileHalted), isOnline, session.inFlight == nil else {
      return nil
    }
    if session.pacing.isWaiting(at: now) { return nil }
    while true {
      if session.phase == .idle {
        // A deletion is sent only after a fetch: deletes carry no change tag, so one aimed at a record since deleted and
        // created anew would delete the new one.
        if !session.syncRequested, session.sendRequested, storage.zoneCreated,
          !storage.pending.containsDeletes || configuration.defects.contains(.sendDeletionsWithoutFetch)
        {
          session.sendRequested = false
          if storage.pending.isEmpty { return nil }
          session.phase = .sending
        } else {
          guard session.syncRequested || session.sendRequested else { return nil }
          // Each sync starts by checking the store, as an app verifies its database when it opens it.
          discardDamagedRecords()
          session.syncRequested = false
          session.sendRequested = false
          session.phase = storage.zoneCreated ? .fetchingDatabase : .creatingZone
        }
      }
      if let request = makeRequest() {
        storage.requestSerial += 1
        let flight = InFlight(
          id: storage.requestSerial, request: request.request, sentAt: now, sentSaves: request.saves,
          sentDeletes: request.deletes, listing: session.listing)
        for (id, save) in request.saves { storage.records[id]?.noteSent(save.record) }
        session.inFlight = flight
        return OutgoingRequest(id: flight.id, request: request.request)
      }
      // Nothing left to send: the sync is complete.
      session.phase = .idle
      session.lastCompletedOperation = .syncComplete
      if !session.syncRequested && !session.sendRequested { return nil }
    }
  }

  /// When the device next wants attention without an answer arriving: the end of a wait, or the moment a request in
  /// flight counts as lost. `nil` when only an answer or a new sync request can move it.
  public var nextWakeTime: Date? {
    if isHalted || !isOnline { return nil }
    if let flight = session.inFlight { return RequestPacing.deadline(sentAt: flight.sentAt, configuration.retry) }
    if let until = session.pacing.waitUntil, session.phase != .idle || session.syncRequested || session.sendRequested {
      return until
    }
    return nil
  }

  /// Counts a request in flight for too long as lost (`networkFailure`), so the device retries it.
  /// - Parameter now: True (virtual) time.
  package mutating func checkTimeout(at now: Date) {
    guard let flight = session.inFlight,
      RequestPacing.hasTimedOut(sentAt: flight.sentAt, at: now, configuration.retry)
    else { return }
    markInFlightSavesInDoubt()
    receive(.failure(.networkFailure(retryAfter: nil)), for: flight.id, at: now)
  }

  private struct Built {
    var request: ServerRequest
    var saves: [RecordID: (generation: Int, record: Record)] = [:]
    var deletes: Set<RecordID> = []
  }

  private mutating func makeRequest() -> Built? {
    let zone = configuration.zoneID
    switch session.phase {
    case .idle: return nil
    case .creatingZone:
      return Built(request: .modifyZones(ModifyZonesRequest(saving: [RecordZone(zoneID: zone)])))
    case .fetchingDatabase:
      return Built(request: .fetchDatabaseChanges(DatabaseChangesRequest(since: storage.databaseToken)))
    case .fetchingZone:
      // A fetch from the beginning lists the zone anew: what an interrupted one saw before it kept a token proves
      // nothing now (the zone may have been deleted and created again since), so the listing starts empty.
      if storage.zoneToken == nil { storage.fullFetchSeen = [] }
      return Built(
        request: .fetchZoneChanges(
          ZoneChangesRequest(zoneID: zone, since: storage.zoneToken, resultsLimit: configuration.fetchPageSize)))
    case .sending:
      // Never send a damaged copy: throw it away and fetch the zone again first.
      let queued = storage.pending.prefix(session.pacing.batchLimit)
      if mayHoldDamage, discardDamagedRecords(among: queued.map(\.recordID)) {
        session.phase = .fetchingZone
        return makeRequest()
      }
      // Deletions queued since the last fetch wait for the next one.
      if !storage.deletesAwaitingFetch.isEmpty, !configuration.defects.contains(.sendDeletionsWithoutFetch) {
        session.syncRequested = true
      }
      return makeBatch(of: queued)
    }
  }

  /// The next batch from the head of the queue: at most the batch limit and 2 MB, queue order, saves of current values
  /// and deletes by ID.
  private func makeBatch(of queued: [(recordID: RecordID, kind: PendingQueue.Kind)]) -> Built? {
    var saving: [Record] = []
    var deleting: [RecordID] = []
    var built = Built(request: .modifyRecords(ModifyRecordsRequest()))
    var bytes = 0
    batch: for (id, kind) in queued {
      switch kind {
      case .save:
        guard let local = storage.records[id] else { continue }
        let size = local.current.dataSize
        // Stop at the first record that does not fit, so nothing jumps the queue.
        if !saving.isEmpty, bytes + size > 2 * 1_048_576 { break batch }
        bytes += size
        var record = local.current
        if configuration.defects.contains(.stripUnknownKeys), let schema = configuration.schema {
          for key in schema.unknownKeys(in: record).sorted() { record[key] = nil }
        }
        saving.append(record)
        built.saves[id] = (local.generation, record)
      case .delete:
        if storage.deletesAwaitingFetch.contains(id), !configuration.defects.contains(.sendDeletionsWithoutFetch) {
          continue
        }
        if let save = storage.savesBesideDeletes[id] { saving.append(save) }
        deleting.append(id)
        built.deletes.insert(id)
      }
    }
    guard !saving.isEmpty || !deleting.isEmpty else { return nil }
    built.request = .modifyRecords(ModifyRecordsRequest(saving: saving, deleting: deleting))
    return built
  }

  /// Hands the device the answer to request `id`. Answers to requests it no longer waits for (timed out, sent before a
  /// crash, duplicates) are ignored.
  /// - Parameters:
  ///   - response: The server's answer.
  ///   - id: The ID from ``OutgoingRequest/id``.
  ///   - now: True (virtual) time.
  public mutating func receive(_ response: Result<ServerReply, ServerError>, for id: Int, at now: Date) {
    handle(response, for: id, at: now)
  }

  /// Hands the device an answer, and crashes it between two of the persistence writes that handling the answer makes
  /// — after applying a fetched page but before committing its token, or after taking some of a save's results but not
  /// the rest — as an app killed mid-transaction would be.
  /// - Parameters:
  ///   - response: The server's answer.
  ///   - id: The ID from ``OutgoingRequest/id``.
  ///   - now: True (virtual) time.
  ///   - writes: How many persistence writes complete before the crash, at least 1; `nil` handles the answer whole.
  /// - Returns: Whether the crash landed between two writes; when the answer needed fewer writes it is handled
  ///   whole and the device does not crash.
  @discardableResult
  public mutating func receive(
    _ response: Result<ServerReply, ServerError>, for id: Int, at now: Date, crashingAfterWrites writes: Int?
  ) -> Bool {
    session.writes.arm(crashingAfter: writes)
    handle(response, for: id, at: now)
    let torn = session.writes.disarm()
    if torn { crash() }
    return torn
  }

  /// Counts one persistence write made while handling an answer; `true` when an armed torn crash strikes now and the
  /// handler must stop.
  mutating func persisted() -> Bool { session.writes.wrote() }

  private mutating func handle(_ response: Result<ServerReply, ServerError>, for id: Int, at now: Date) {
    guard let flight = session.inFlight, flight.id == id, !isHalted else { return }
    session.inFlight = nil
    switch response {
    case .failure(let error):
      session.lastCompletedOperation = .answered(flight.request, error: error)
      // Every failure grows the throttle, and the next operation waits at least that long (seed 004).
      session.throttle = configuration.retry.grown(session.throttle)
      session.pacing.waitUntil = now.addingTimeInterval(session.throttle)
      handleOperationError(error, flight: flight, at: now)
    case .success(let reply):
      session.lastCompletedOperation = .answered(flight.request, error: nil)
      session.pacing.retryCount = 0
      if case .modifyRecords(let result) = reply, result.failures.values.contains(where: Self.growsThrottle) {
        session.throttle = configuration.retry.grown(session.throttle)
      } else {
        session.throttle = configuration.retry.shrunk(session.throttle)
      }
      session.pacing.waitUntil = now.addingTimeInterval(session.throttle)
      if case .modifyRecords(let result) = reply, result.failures.isEmpty {
        // A batch limit halved by `limitExceeded` doubles back after ten clean saves in a row, so a passing spike of
        // large records does not shrink batches for good, and a real server limit is not hit on every other save.
        session.cleanSaves += 1
        if session.cleanSaves >= 10, session.pacing.batchLimit < configuration.batchLimit {
          session.pacing.batchLimit = min(max(1, configuration.batchLimit), session.pacing.batchLimit * 2)
          session.cleanSaves = 0
        }
      }
      handleReply(reply, flight: flight, at: now)
    }
  }

  private mutating func handleReply(_ reply: ServerReply, flight: InFlight, at now: Date) {
    switch reply {
    case .modifyZones:
      storage.zoneCreated = true
      session.phase = .fetchingDatabase
    case .databaseChanges(let changes):
      let zone = configuration.zoneID
      let reason = changes.zoneDeletions.first { $0.zoneID == zone }?.reason
      // Reported deleted, the zone is gone now (a listing from the beginning reports a zone deleted only when it does
      // not exist): whatever this device knew of it, it starts over as the reason says.
      if let reason {
        zoneWasDeleted(reason, recreated: changes.changedZones.contains(zone))
        storage.databaseToken = changes.token
        return
      }
      if let implied = session.zoneMissing, changes.changedZones.contains(zone) {
        // The zone is there again and the feed does not say why it went (its history was compacted): the error's
        // reason stands, and this device may have fetched or saved into the new zone already.
        zoneWasDeleted(implied, recreated: true)
        storage.databaseToken = changes.token
        return
      }
      storage.databaseToken = changes.token
      if !changes.moreComing {
        session.databaseReads += 1
        session.phase = .fetchingZone
        if storage.fullFetchAwaitsFeed {
          // The feed names no deletion of the zone: what the listing left out was deleted.
          storage.fullFetchAwaitsFeed = false
          if storage.fullFetchSeen != nil { finishFullFetch(at: now) }
        }
      }
    case .zoneChanges(let changes):
      // The device restarted its listing while this page was on its way (it threw a damaged copy away, a token
      // expired, the zone was deleted): the page continues a listing it no longer follows — even when both began from
      // the start — and its token would skip what it must fetch again.
      if flight.listing != session.listing { return }
      let pageHasChanges = !changes.changed.isEmpty || !changes.deleted.isEmpty
      if configuration.defects.contains(.commitTokenBeforePage) {
        commitZoneToken(changes.token)
        if pageHasChanges, persisted() { return }
        guard apply(changes, at: now) else { return }
      } else {
        guard apply(changes, at: now) else { return }
        // The page is applied; its token is a second write.
        if pageHasChanges, persisted() { return }
        commitZoneToken(changes.token)
      }
      if !changes.moreComing || configuration.defects.contains(.ignoreMoreComing) {
        if let seen = storage.fullFetchSeen {
          // Acknowledged records the listing left out went with their zone if it was deleted and created again since
          // the feed was last read: read it first, so they are uploaded again if the reason asks.
          if !storage.reuploadUnseen,
            storage.records.contains(where: { $0.value.lastKnownServer != nil && !seen.contains($0.key) })
          {
            storage.fullFetchAwaitsFeed = true
            session.phase = .fetchingDatabase
            return
          }
          finishFullFetch(at: now)
        }
        storage.deletesAwaitingFetch.removeAll()
        storage.lastSuccessfulFetch = now
        session.phase = .sending
      }
    case .modifyRecords(let result):
      handleSaveReply(result, flight: flight, at: now)
    case .fetchRecords, .query:
      break
    }
  }

  private mutating func commitZoneToken(_ token: ZoneChangeToken) {
    if storage.zoneToken == nil || storage.firstZoneToken?.incarnation != token.incarnation {
      storage.firstZoneToken = token
    }
    storage.zoneToken = token
  }

  private mutating func handleOperationError(_ error: ServerError, flight: InFlight, at now: Date) {
    session.lastError = error.description
    // A definite refusal: none of the request's saves landed.
    for id in flight.sentSaves.keys { notLanded(id, flight: flight) }
    if error != .serverResponseLost { noteRefused(flight) }
    let retry = configuration.retry
    switch error {
    case _ where error.isTransient || error == .serverResponseLost:
      // A save that may or may not have landed: fetch before sending again, so a record this device created is not
      // created a second time after another device deleted it.
      if case .modifyRecords = flight.request, session.phase == .sending, storage.zoneCreated {
        session.phase = .fetchingZone
      }
      session.pacing.retryCount += 1
      guard session.pacing.retryCount <= retry.maximumRetries else {
        // Give up on this sync; the next sync request starts again.
        session.pacing.retryCount = 0
        session.phase = .idle
        session.pacing.waitUntil = now.addingTimeInterval(max(error.retryAfter ?? 0, session.throttle))
        return
      }
      let wait = error.retryAfter ?? retry.backoff(attempt: session.pacing.retryCount)
      session.pacing.waitUntil = now.addingTimeInterval(max(wait, session.throttle))
      applyRetryDefects()
    case .limitExceeded:
      guard !configuration.defects.contains(.neverHalveBatch) else { break }
      session.pacing.halveBatch()
      session.cleanSaves = 0
    case .changeTokenExpired:
      if session.phase == .fetchingDatabase {
        storage.databaseToken = nil
      } else {
        restartZoneListing()
        // The zone's history was compacted — or the zone was deleted and created again, which the database feed
        // reports with its reason: read it before listing the zone from the beginning drops what it leaves out.
        session.phase = .fetchingDatabase
      }
    case .zoneNotFound: zoneMissing(.deleted)
    case .userDeletedZone: zoneMissing(.purged)
    case .notAuthenticated: halt(.notAuthenticated)
    case .badDatabase(let reason): halt(.badDatabase(reason))
    case .quotaExceeded: halt(.quotaExceeded)
    default: halt(.rejected(error))
    }
  }

  /// Forgets the zone token: the next fetch lists the zone from its beginning, and a page still on its way for the
  /// listing before continues one the device no longer follows.
  mutating func restartZoneListing() {
    storage.zoneToken = nil
    storage.fullFetchSeen = nil
    storage.fullFetchAwaitsFeed = false
    session.listing += 1
  }

  /// A save found the record gone or created anew while it carried unsent changes: whether a user did that or the
  /// zone went (and the record is to be uploaded again) decides what the changes become, and the database feed says.
  /// Returns `true` while the device must read the feed first (the change stays queued and the device reads it
  /// next); `false` once it has been read since, and the record's own evidence decides.
  mutating func awaitFeed(_ id: RecordID) -> Bool {
    if let asked = session.goneAwaitingFeed[id], session.databaseReads > asked {
      session.goneAwaitingFeed[id] = nil
      return false
    }
    if session.goneAwaitingFeed[id] == nil { session.goneAwaitingFeed[id] = session.databaseReads }
    session.phase = .fetchingDatabase
    return true
  }

  /// The server does not have the zone (`zoneNotFound`), or the user purged it (`userDeletedZone`). Why it went
  /// decides what to keep, and the database feed says (a client, the user in Settings, an encrypted-data reset): the
  /// device reads it first, so it handles the feed's report once. Asked once; when the feed does not say, the error's
  /// reason stands.
  mutating func zoneMissing(_ implied: SyncEngine.ZoneDeletion.Reason) {
    if let reason = session.zoneMissing {
      // Read since, the feed did not say why: the error's reason stands. (Until then, the read is on its way.)
      if session.databaseReads > session.zoneMissingReads { zoneWasDeleted(reason) }
    } else {
      session.zoneMissing = implied
      session.zoneMissingReads = session.databaseReads
      session.phase = .fetchingDatabase
    }
  }

  /// The zone is gone: create it again. When the deletion stands for the user deleting all their data — a purge in
  /// Settings, or a client's deletion under `ZoneDeletionResponse.dropLocalData` — every record the server had
  /// acknowledged is dropped, and only records never acknowledged (created here, unconfirmed) are uploaded as new.
  /// Otherwise — an encrypted-data reset, or a client's deletion under `ZoneDeletionResponse.reuploadLocalData` —
  /// every local record is uploaded as new.
  ///
  /// When the feed reports the zone created again since (`recreated`), this device may already have fetched from or
  /// saved into the new zone (the report can reach it after that), so it does not drop or upload blindly: it lists
  /// the zone from the beginning, and the acknowledged records the listing leaves out are the ones that went.
  mutating func zoneWasDeleted(_ reason: SyncEngine.ZoneDeletion.Reason, recreated: Bool = false) {
    session.zoneMissing = nil
    session.goneAwaitingFeed.removeAll()
    // A damaged copy must not be uploaded as new; it is lost with the zone.
    discardDamagedRecords()
    // What a deletion standing for the user's takes is handed to the app first (the hook before deletion).
    let held = storage.records
    storage.listingDrops = nil
    defer { handOver(.zoneDeletion(reason), goneFrom: held) }
    restartZoneListing()
    storage.staleSavesInDoubt.removeAll()
    if configuration.defects.contains(.dropDataOnZoneNotFound) {
      storage.records.removeAll()
      storage.pending = PendingQueue()
    }
    let drops =
      (configuration.zoneDeletion.dropsLocalData(after: reason)
        && !(configuration.defects.contains(.reuploadAfterPurge) && reason == .purged))
      || (configuration.defects.contains(.resetTreatedAsPurge) && reason == .encryptedDataReset)
    // Damaged copies thrown away were of records the zone took: they owe the server no deletion.
    storage.discardedServerCopies.removeAll()
    if recreated {
      // Records fetched or saved into the new zone are current, and so are their deletions: the listing from the
      // beginning says what went, and what it leaves out is dropped or uploaded again as the reason says.
      storage.reuploadUnseen = !drops
      // The listing from the beginning says what else went: handed over then.
      storage.listingDrops = drops ? reason : nil
      if drops {
        // Copies from an older zone this device uploaded again raced this deletion, which stands for the user's: they
        // go, from the server too when an upload of them landed in the zone created since (the listing says).
        for (id, local) in storage.records
        where local.reuploadAncestor != nil || local.uploadedAgain || local.mergedUploadPending {
          storage.records[id] = nil
          storage.pending.remove(id)
          if local.uploadedAgain, let known = local.lastKnownServer, let tag = known.recordChangeTag {
            storage.uploadsToWithdraw[id] = DeviceStorage.Upload(tag: tag, created: known.creationDate)
          }
        }
      } else {
        // Copies from the old zone go up again, not replaced by a user's new record: their unsent edits merge with the
        // new zone's version, over the last version they knew.
        for (id, local) in storage.records {
          if let known = local.lastKnownServer {
            storage.records[id]?.reuploadAncestor = known.withoutSystemFields
            storage.records[id]?.uploadedAgain = false
          }
        }
      }
      session.phase = .fetchingZone
      return
    }
    // Deleted records went with the zone: their deletions have nothing left to delete.
    for (id, kind) in storage.pending.entries where kind == .delete { storage.pending.remove(id) }
    storage.zoneCreated = false
    if drops {
      // A copy still waiting to be uploaded again after an earlier deletion was acknowledged there: it goes too.
      for (id, local) in storage.records where local.lastKnownServer != nil || local.reuploadAncestor != nil {
        storage.records[id] = nil
        storage.pending.remove(id)
      }
    }
    for id in storage.records.keys.sorted() { store.reupload(id) }
    session.phase = .creatingZone
  }

  // MARK: Save replies

  private mutating func handleSaveReply(_ reply: ModifyRecordsReply, flight: InFlight, at now: Date) {
    if !reply.saved.isEmpty || !reply.deleted.isEmpty { storage.lastSuccessfulSave = now }
    for (index, saved) in reply.saved.enumerated() {
      acceptSaved(saved, flight: flight)
      // Each saved record is its own write.
      if index < reply.saved.count - 1 || !reply.deleted.isEmpty || !reply.failures.isEmpty, persisted() { return }
    }
    for id in reply.deleted where flight.sentDeletes.contains(id) && storage.pending[id] == .delete {
      storage.pending.remove(id)
      storage.deletesOfUnconfirmed[id] = nil
    }
    var haltWith: HaltReason?
    for id in reply.failures.keys.sorted() {
      guard let error = reply.failures[id] else { continue }
      if let reason = handleItemError(error, for: id, flight: flight, at: now), haltWith == nil { haltWith = reason }
    }
    if let haltWith { halt(haltWith) }
  }

  /// The server saved a record: it becomes the last known version; edits made while the save was in flight are kept
  /// on top of it and stay queued.
  private mutating func acceptSaved(_ saved: Record, flight: InFlight) {
    let id = saved.recordID
    if discardIfDamaged(id) {
      // The server's version, just saved, replaces the damaged copy: whatever the copy owed the server (the deletion
      // of a record it replaced, which this very save has replaced) is settled.
      storage.records[id] = LocalRecord(lastKnownServer: saved, current: saved)
      storage.pending.remove(id)
      storage.tombstones.remove(id)
      return
    }
    guard var local = storage.records[id], let sent = flight.sentSaves[id] else {
      // Deleted here while its save was on the way: the save landed, so the queued deletion now has a record to
      // delete, whatever later answers say about this device's other saves.
      if storage.records[id] == nil, flight.sentSaves[id] != nil {
        storage.deletesOfUnconfirmed[id] = nil
        // The deletion saw this save: a fetch bringing it back does not cancel the deletion under `.editWins`.
        if var tombstone = storage.tombstones[id] {
          tombstone.recordChangeTag = saved.recordChangeTag
          storage.tombstones.insert(tombstone)
        }
      }
      return
    }
    observeStamps(of: saved)
    storage.staleSavesInDoubt.remove(id)
    if local.reuploadAncestor != nil || local.mergedUploadPending {
      // Landed in the zone created since: the new zone's version is the one its next merge starts from.
      local.uploadedAgain = true
      local.reuploadAncestor = nil
      local.mergedUploadPending = false
    }
    local.unacknowledgedSaves = UnacknowledgedSaves()
    local.replacesDeleted = false
    local.replacesDiscardedCopy = false
    if local.generation == sent.generation || configuration.defects.contains(.dropEditsDuringSave) {
      local.current = saved
      local.lastKnownServer = saved
      storage.records[id] = local
      storage.pending.remove(id)
      return
    }
    var rebased = saved
    for key in local.current.changedKeys.union(local.current.allKeys)
    where !local.current.hasSameValue(forKey: key, as: sent.record) {
      rebased.takeValue(of: key, from: local.current)
    }
    local.lastKnownServer = saved
    local.current = rebased
    storage.records[id] = local
    if rebased.changedKeys.isEmpty { storage.pending.remove(id) }
  }

  /// Handles one failed item; returns a halt reason when the device must stop.
  private mutating func handleItemError(_ error: ServerError, for id: RecordID, flight: InFlight, at now: Date)
    -> HaltReason?
  {
    // Whatever the error, this item was not applied.
    noteRefused(flight, id)
    switch error {
    case .serverRecordChanged(_, _, let server):
      if storage.records[id] == nil { notLanded(id, flight: flight) }
      guard let server else {
        // Refused without the server's record: the change stays queued, and the zone is fetched before anything is
        // sent again, so the version that refused it arrives and merges with it as a fetched conflict.
        if storage.records[id] != nil { session.phase = .fetchingDatabase }
        return nil
      }
      if let local = storage.records[id], local.hasUnsentChanges,
        let known = local.lastKnownServer?.creationDate, let created = server.creationDate, known != created,
        awaitFeed(id)
      {
        return nil
      }
      return resolveConflict(id, server: server)
    case .unknownItem:
      if flight.sentDeletes.contains(id) {
        storage.pending.remove(id)
        return nil
      }
      guard let local = storage.records[id] else { return nil }
      if local.replacesDeleted {
        // A record the user created again after deleting it here: the deletion that removed the server's copy is
        // the one it replaces, so it is saved anew whatever the delete policy (the user's last act was the create).
        settle(.recreate(local.current.withoutSystemFields), for: local)
        return nil
      }
      if configuration.defects.contains(.resaveDeleted) {
        settle(.recreate(local.current.withoutSystemFields), for: local)
        return nil
      }
      // Deleted by a user, or gone with its zone (then to be uploaded again): the feed says, read first.
      if local.lastKnownServer != nil, awaitFeed(id) { return nil }
      settle(store.revivingPolicy.resolveUnknownItem(for: local.current, at: deviceTime(at: now)), for: local)
      return nil
    case .batchRequestFailed:
      notLanded(id, flight: flight)
      return nil
    case .zoneNotFound:
      zoneMissing(.deleted)
      return nil
    case .userDeletedZone:
      zoneMissing(.purged)
      return nil
    case .quotaExceeded:
      return .quotaExceeded
    case _ where error.isTransient:
      if case .networkFailure = error {
        // The item's answer was lost, not the item refused: its save may have landed.
        noteInDoubt(id)
      } else {
        notLanded(id, flight: flight)
      }
      let until = now.addingTimeInterval(error.retryAfter ?? configuration.retry.backoff(attempt: 1))
      // Several items may ask for a wait: the longest stands.
      session.pacing.wait(until: until)
      applyRetryDefects()
      return nil
    default:
      return .rejected(error)
    }
  }

  /// ``ClientDefect/ignoreRetryAfter`` and ``ClientDefect/retryEarly`` bend the wait just set.
  private mutating func applyRetryDefects() {
    if configuration.defects.contains(.ignoreRetryAfter) { session.pacing.waitUntil = nil }
    if configuration.defects.contains(.retryEarly), let wait = session.pacing.waitUntil {
      session.pacing.waitUntil = wait.addingTimeInterval(-1)
    }
  }

  /// The server answered the saves of `flight` (of `id` only, when given) with an error: they did not land, unless a
  /// duplicated copy did first (`UnacknowledgedSaves.noteRefused(_:)`).
  private mutating func noteRefused(_ flight: InFlight, _ id: RecordID? = nil) {
    for (saved, sent) in flight.sentSaves where id == nil || saved == id {
      storage.records[saved]?.unacknowledgedSaves.noteRefused(sent.record)
    }
  }

  /// An item of `flight` was refused. For a save, unless an earlier one went unanswered, the record is not on the
  /// server; a refused deletion stays queued.
  private mutating func notLanded(_ id: RecordID, flight: InFlight) {
    guard flight.sentSaves[id] != nil else { return }
    if storage.records[id] == nil, storage.pending[id] == .delete, storage.deletesOfUnconfirmed[id] == false {
      // The user deleted a record whose only save was just refused: there is nothing of it to delete.
      storage.pending.remove(id)
      storage.deletesOfUnconfirmed[id] = nil
      return
    }
    guard let local = storage.records[id], local.lastKnownServer == nil, local.sent, !local.inDoubt else { return }
    // The values sent stay known: should a copy of the request land after all, they are this device's own.
    storage.records[id]?.sent = false
  }

  /// Whether a failed item means the server is unwell (grow the throttle); a conflict, and the atomic siblings it
  /// fails, are ordinary answers.
  static func growsThrottle(_ error: ServerError) -> Bool {
    switch error {
    case .serverRecordChanged, .batchRequestFailed, .unknownItem: false
    default: true
    }
  }
}
