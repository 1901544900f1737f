package import Foundation
import Reconcile

// The app's requests: what to send next, in what order, and when to wait. The batches themselves are the replica's.
extension SimulatedDevice {
  /// The request the device wants to send now, if any: nothing while halted, offline, waiting, or with a request in
  /// flight. Starts a sync when one was requested.
  /// - Parameter now: True (virtual) time.
  /// - Returns: The request and its ID; hand the answer to ``receive(_:for:at:)`` with that ID.
  package mutating func nextRequest(at now: Date) -> OutgoingRequest? {
    guard !isHalted || configuration.defects.contains(.sendWhileHalted), isOnline, session.inFlight == nil else {
      return nil
    }
    // Nothing to do is the common answer to a poll.
    if session.phase == .idle, !session.syncRequested, !session.sendRequested { return nil }
    if session.pacing.isWaiting(at: now) { return nil }
    // Each pass either sends, ends a phase or returns: a few passes move through a whole sync.
    for _ in 0..<16 {
      if session.phase == .idle {
        // A device that never read the database feed fetches before its first send, as CKSyncEngine does at its first
        // launch: otherwise a zone deleted and created again before it first fetched hides its reason.
        if session.sendRequested, storage.databaseToken == nil { session.syncRequested = true }
        if session.syncRequested {
          // Each sync starts by checking the store, as an app verifies its database when it opens it.
          discardDamagedRecords()
          session.syncRequested = false
          session.sendRequested = false
          session.phase = .fetchingDatabase
          deliver(.willFetchChanges)
        } else if session.sendRequested {
          session.sendRequested = false
          guard pendingChangeCount > 0 else { return nil }
          startSend()
        } else {
          return nil
        }
      }
      if let request = makeRequest() {
        storage.requestSerial += 1
        let flight = InFlight(id: storage.requestSerial, request: request, sentAt: now, listing: session.listing)
        session.inFlight = flight
        if case .modifyRecords = request { session.readded = [] }
        return OutgoingRequest(id: flight.id, request: request)
      }
    }
    return nil
  }

  /// When the device next wants attention without an answer arriving: the end of a wait, or the moment a request in
  /// flight counts as lost. `nil` when only an answer or a new sync request can move it.
  package var nextWakeTime: Date? {
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
    receive(.failure(.networkFailure(retryAfter: nil)), for: flight.id, at: now)
  }

  /// Begins sending the queue.
  mutating func startSend() {
    session.phase = .sending
    session.sendContext = SyncEngine.SendChangesContext(reason: .scheduled, maximumItems: session.pacing.batchLimit)
    deliver(.willSendChanges(session.sendContext))
  }

  /// The request the phase asks for next, or `nil` when the phase ended (and the next one began).
  private mutating func makeRequest() -> ServerRequest? {
    let zone = configuration.zoneID
    switch session.phase {
    case .idle:
      return nil
    case .fetchingDatabase:
      if storage.databaseToken == nil, session.listedFromStart == nil { session.listedFromStart = false }
      return .fetchDatabaseChanges(DatabaseChangesRequest(since: storage.databaseToken))
    case .fetchingZone:
      guard storage.zoneNeedsFetch else {
        finishFetch()
        return nil
      }
      if !session.zoneFetchStarted {
        session.zoneFetchStarted = true
        deliver(.willFetchRecordZoneChanges(zone))
      }
      return .fetchZoneChanges(
        ZoneChangesRequest(zoneID: zone, since: storage.zoneToken, resultsLimit: configuration.fetchPageSize))
    case .sending:
      return nextSend()
    }
  }

  /// The fetch is over: what it settles is the replica's, and the send begins.
  mutating func finishFetch() {
    deliver(.didFetchChanges)
    session.phase = .idle
    startSend()
  }

  /// The zone to create, then the replica's next batch of record changes; `nil` when nothing can go now, which ends
  /// the send.
  private mutating func nextSend() -> ServerRequest? {
    let zones = storage.queue.pendingDatabaseChanges
    if !zones.isEmpty {
      var saving: [RecordZone] = []
      var deleting: [ZoneID] = []
      for change in zones {
        switch change {
        case .saveZone(let zone): saving.append(RecordZone(zoneID: zone))
        case .deleteZone(let zone): deleting.append(zone)
        }
      }
      return .modifyZones(ModifyZonesRequest(saving: saving, deleting: deleting))
    }
    // Never send a damaged copy: the check comes before the replica reads the rows.
    discardDamagedRecords()
    session.sendContext.maximumItems = session.pacing.batchLimit
    guard storage.queue.pendingRecords.count != 0,
      let batch = storage.withReplica({ [context = session.sendContext] replica, queue in
        replica.nextRecordZoneChangeBatch(context, syncEngine: &queue)
      })
    else {
      // What is queued waits: a deletion or a refused save for a fetch that starts after it, a missing zone for the
      // database feed. One more sync gives it that fetch; a second empty batch after it leaves the rest for the next
      // reason to sync.
      if pendingChangeCount > 0, !session.heldBackAfterFetch {
        session.heldBackAfterFetch = true
        session.syncRequested = true
      }
      endRound(nil)
      return nil
    }
    session.heldBackAfterFetch = false
    var saving = Array(batch.recordsToSave.prefix(session.pacing.batchLimit))
    let deleting = Array(batch.recordIDsToDelete.prefix(max(0, session.pacing.batchLimit - saving.count)))
    for id in deleting {
      if let save = storage.savesBesideDeletes[id] { saving.append(save) }
    }
    // Atomic, as a CKModifyRecordsOperation is by default: one refused item fails its siblings (`batchRequestFailed`).
    return .modifyRecords(ModifyRecordsRequest(saving: saving, deleting: deleting))
  }

  /// Ends the fetch or send under way after `error` (`nil` when it simply has nothing left), with the events a
  /// CKSyncEngine ends one with: a zone whose fetch had begun hears `didFetchRecordZoneChanges` with the error, then
  /// the fetch `didFetchChanges`; a send `didSendChanges`.
  mutating func endRound(_ error: CloudKitError?) {
    switch session.phase {
    case .fetchingDatabase, .fetchingZone:
      if session.phase == .fetchingZone, session.zoneFetchStarted {
        session.zoneFetchStarted = false
        deliver(
          .didFetchRecordZoneChanges(
            configuration.zoneID, error: (error ?? .networkFailure(retryAfter: nil)).asReported))
      }
      session.listedFromStart = nil
      deliver(.didFetchChanges)
    case .sending:
      deliver(.didSendChanges(session.sendContext))
    case .idle:
      break
    }
    session.phase = .idle
  }
}
