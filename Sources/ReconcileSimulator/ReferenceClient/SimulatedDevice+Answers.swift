package import Foundation
package import Reconcile

// The server's answers: the app's part (tokens, paging, waits, halts) here; what each answer means for the records is
// the replica's, told as the events a CKSyncEngine would deliver.
extension SimulatedDevice {
  /// Hands the device the answer to request `id`. Answers to requests it no longer waits for (timed out, sent before a
  /// crash, duplicates) are ignored.
  /// - Parameters:
  ///   - response: The server's answer.
  ///   - id: The ID from ``OutgoingRequest/id``.
  ///   - now: True (virtual) time.
  package mutating func receive(_ response: Result<ServerReply, CloudKitError>, for id: Int, at now: Date) {
    handle(response, for: id, at: now)
    session.stopped = false
  }

  /// Hands the device an answer, and crashes it between two of the persistence writes that handling the answer makes
  /// — after applying a fetched page but before committing its token, or after taking some of a save's results but not
  /// the rest — as an app killed mid-transaction would be.
  /// - Parameters:
  ///   - response: The server's answer.
  ///   - id: The ID from ``OutgoingRequest/id``.
  ///   - now: True (virtual) time.
  ///   - writes: How many persistence writes complete before the crash, at least 1; `nil` handles the answer whole.
  /// - Returns: Whether the device waited for the answer, whether the crash landed between two writes (when the
  ///   answer needed fewer writes it is handled whole and the device does not crash), and the replica's decisions
  ///   since the last answer.
  @discardableResult
  package mutating func receive(
    _ response: Result<ServerReply, CloudKitError>, for id: Int, at now: Date, crashingAfterWrites writes: Int?
  ) -> AnswerReceipt {
    let awaited = session.inFlight?.id == id
    session.writes.arm(crashingAfter: writes)
    handle(response, for: id, at: now)
    let torn = session.writes.disarm()
    session.stopped = false
    if torn { crash() }
    return AnswerReceipt(wasAwaited: awaited, tornCrash: torn, decisions: storage.replica.takeDecisions())
  }

  /// Hands the replica one event: one persistence write of the store, the replica's metadata and the queue. The app
  /// checks its rows first, so the replica never reads a damaged one. `false` when a torn crash struck (stop handling
  /// the answer).
  @discardableResult
  mutating func deliver(_ event: SyncEngine.Event) -> Bool {
    guard !session.stopped else { return false }
    discardDamagedRecords()
    storage.withReplica { replica, queue in replica.handleEvent(event, syncEngine: &queue) }
    return !persisted()
  }

  /// Counts one persistence write; `true` when an armed torn crash strikes now and the handler must stop.
  mutating func persisted() -> Bool {
    if session.writes.wrote() { session.stopped = true }
    return session.stopped
  }

  private mutating func handle(_ response: Result<ServerReply, CloudKitError>, for id: Int, at now: Date) {
    guard let flight = session.inFlight, flight.id == id,
      !isHalted || configuration.defects.contains(.sendWhileHalted)
    else { return }
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
    let zone = configuration.zoneID
    switch reply {
    case .databaseChanges(let changes):
      var deletions = changes.zoneDeletions.filter { $0.zoneID == zone }
      let changed = changes.changedZones.contains(zone)
      if let listed = session.listedFromStart {
        // A listing from the beginning names the zones there are, not those deleted before it began: a zone this app
        // saved or holds a token for that the whole listing leaves out is gone, for a reason no one can tell now.
        session.listedFromStart = listed || changed
        if !changes.moreComing, session.listedFromStart == false, deletions.isEmpty,
          storage.zoneToken != nil || storage.zoneSaved
        {
          deletions.append(SyncEngine.ZoneDeletion(zoneID: zone, reason: .deleted))
        }
        if !changes.moreComing { session.listedFromStart = nil }
      }
      guard
        deliver(
          .fetchedDatabaseChanges(
            SyncEngine.FetchedDatabaseChanges(modifications: changed ? [zone] : [], deletions: deletions)))
      else { return }
      // The new database token and whether the zone needs fetching are one write: a crash after it fetches it still.
      if !deletions.isEmpty {
        storage.zoneToken = nil
        storage.zoneSaved = false
        storage.zoneNeedsFetch = false
        session.zoneFetchStarted = false
        session.listing += 1
      }
      // A zone reported both deleted and changed was created again since: it is fetched from its beginning.
      if changed { storage.zoneNeedsFetch = true }
      storage.databaseToken = changes.token
      if persisted() { return }
      if !changes.moreComing { session.phase = .fetchingZone }
    case .zoneChanges(let changes):
      // The device restarted its listing while this page was on its way (it threw a damaged copy away, a token
      // expired, the zone was deleted): the page continues a listing it no longer follows.
      if flight.listing != session.listing { return }
      let page = SyncEngine.FetchedRecordZoneChanges(modifications: changes.changed, deletions: changes.deleted)
      let last = !changes.moreComing || configuration.defects.contains(.ignoreMoreComing)
      if configuration.defects.contains(.commitTokenBeforePage) {
        commitZoneToken(changes.token, last: last)
        if persisted() { return }
        guard deliver(.fetchedRecordZoneChanges(page)) else { return }
      } else {
        guard deliver(.fetchedRecordZoneChanges(page)) else { return }
        // A damaged copy found meanwhile started the listing over: this page's token would skip what it must fetch.
        if flight.listing != session.listing { return }
        // The page is applied; its token is a second write.
        commitZoneToken(changes.token, last: last)
        if persisted() { return }
      }
      if last {
        session.zoneFetchStarted = false
        guard deliver(.didFetchRecordZoneChanges(zone, error: nil)) else { return }
        storage.lastSuccessfulFetch = now
        finishFetch()
      }
    case .modifyZones(let result):
      storage.queue.remove(
        pendingDatabaseChanges: result.saved.map { .saveZone($0.zoneID) } + result.deleted.map { .deleteZone($0) })
      if result.saved.contains(where: { $0.zoneID == zone }) { storage.zoneSaved = true }
      deliver(
        .sentDatabaseChanges(
          SyncEngine.SentDatabaseChanges(savedZones: result.saved.map(\.zoneID), deletedZoneIDs: result.deleted)))
    case .modifyRecords(let result):
      handleSent(result, flight: flight, at: now)
    case .fetchRecords, .query:
      break
    }
  }

  private mutating func commitZoneToken(_ token: ZoneChangeToken, last: Bool) {
    if storage.zoneToken == nil || storage.firstZoneToken?.incarnation != token.incarnation {
      storage.firstZoneToken = token
    }
    storage.zoneToken = token
    if last { storage.zoneNeedsFetch = false }
  }

  // MARK: Saves

  /// A save's answer: saved records, deletions and refusals settle in the replica; what is retried stays queued. As
  /// a `CKModifyRecordsOperation` reports each record in its own callback, each item is its own event and its own
  /// persistence write, so a torn crash can strike between two of them.
  private mutating func handleSent(_ result: ModifyRecordsReply, flight: InFlight, at now: Date) {
    guard case .modifyRecords(let request) = flight.request else { return }
    if !result.saved.isEmpty || !result.deleted.isEmpty { storage.lastSuccessfulSave = now }
    var items: [(SyncEngine.SentRecordZoneChanges, SyncEngine.PendingRecordZoneChange?)] = []
    var haltWith: HaltReason?
    // The records sent, by ID, for the failures (most answers have none).
    let sent =
      result.failures.isEmpty
      ? [:] : Dictionary(request.saving.map { ($0.recordID, $0) }, uniquingKeysWith: { first, _ in first })
    let readded = session.readded
    for saved in result.saved {
      items.append(
        (
          SyncEngine.SentRecordZoneChanges(savedRecords: [saved]),
          readded.contains(saved.recordID) ? nil : .saveRecord(saved.recordID)
        ))
    }
    for id in result.deleted {
      storage.savesBesideDeletes[id] = nil
      items.append(
        (
          SyncEngine.SentRecordZoneChanges(savedRecords: [], deletedRecordIDs: [id]),
          readded.contains(id) ? nil : .deleteRecord(id)
        ))
    }
    for id in result.failures.keys.sorted() {
      guard let error = result.failures[id] else { continue }
      // Retried: the change stays queued. Full storage waits for the user, kept.
      let retried = error.isTransient || error.code == .batchRequestFailed || error.code == .quotaExceeded
      if error.isTransient { waitBeforeRetry(error, at: now) }
      if error.code == .quotaExceeded, haltWith == nil { haltWith = .quotaExceeded }
      let settles = !retried && !readded.contains(id)
      if let record = sent[id], !request.deleting.contains(id) {
        let failure = SyncEngine.FailedRecordSave(record: record, error: error.asReported)
        items.append(
          (
            SyncEngine.SentRecordZoneChanges(savedRecords: [], failedRecordSaves: [failure]),
            settles ? .saveRecord(id) : nil
          ))
      } else {
        items.append(
          (
            SyncEngine.SentRecordZoneChanges(savedRecords: [], failedRecordDeletes: [id: error.asReported]),
            settles ? .deleteRecord(id) : nil
          ))
      }
    }
    for (event, settled) in items {
      if let settled { storage.queue.remove(pendingRecordZoneChanges: [settled]) }
      guard deliver(.sentRecordZoneChanges(event)) else { return }
    }
    if let haltWith { halt(haltWith) }
  }

  /// Tells the replica every save and deletion of `request` failed with `error`, each staying queued to be retried.
  mutating func reportEveryItem(of request: ModifyRecordsRequest, failedWith error: CloudKitError) {
    deliver(.sentRecordZoneChanges(SyncEngine.SentRecordZoneChanges(everyItemOf: request, failedWith: error)))
  }

  /// Waits the retry-after `error` asks (else a backoff); ``ClientDefect/ignoreRetryAfter`` and
  /// ``ClientDefect/retryEarly`` bend the wait.
  private mutating func waitBeforeRetry(_ error: CloudKitError, at now: Date) {
    let seconds = error.retryAfter ?? configuration.retry.backoff(attempt: max(1, session.pacing.retryCount))
    // Several items may ask for a wait: the longest stands.
    session.pacing.wait(until: now.addingTimeInterval(max(seconds, session.throttle)))
    if configuration.defects.contains(.ignoreRetryAfter) { session.pacing.waitUntil = nil }
    if configuration.defects.contains(.retryEarly), let wait = session.pacing.waitUntil {
      session.pacing.waitUntil = wait.addingTimeInterval(-1)
    }
  }

  // MARK: Errors of a whole request

  private mutating func handleOperationError(_ error: CloudKitError, flight: InFlight, at now: Date) {
    session.lastError = error.traceText
    let zone = configuration.zoneID
    if case .modifyRecords(let request) = flight.request, !error.isTransient, error.code != .serverResponseLost,
      !Self.reportsAMissingZone(error)
    {
      // Refused whole (too large, full storage, signed out, …): no item landed. The replica hears it of each, so a
      // version it handed out is not taken later for a save of its own that landed — another device's equal counter
      // would then count once. (Errors that may hide a landing, and a missing zone, are reported below.)
      reportEveryItem(of: request, failedWith: error)
    }
    switch error.code {
    case _ where error.isTransient || error.code == .serverResponseLost:
      if case .modifyRecords(let request) = flight.request {
        // Each item may or may not have landed (`networkFailure`, a lost answer) or did not: the replica settles
        // which, and the change stays queued. The sync fetches before it sends again.
        reportEveryItem(of: request, failedWith: error)
        endRound(error)
        session.syncRequested = true
      }
      session.pacing.retryCount += 1
      guard session.pacing.retryCount <= configuration.retry.maximumRetries else {
        // Give up on this sync; the next sync request starts again.
        session.pacing.retryCount = 0
        endRound(error)
        session.pacing.waitUntil = now.addingTimeInterval(max(error.retryAfter ?? 0, session.throttle))
        return
      }
      waitBeforeRetry(error, at: now)
    case .limitExceeded:
      guard !configuration.defects.contains(.neverHalveBatch) else { break }
      session.pacing.halveBatch()
      session.cleanSaves = 0
    case .changeTokenExpired:
      if session.phase == .fetchingDatabase {
        storage.databaseToken = nil
        session.listedFromStart = false
      } else {
        // The zone's history was compacted — or the zone was deleted and created again, which the database feed
        // reports with its reason: the feed is read before the zone is listed from the beginning.
        storage.zoneToken = nil
        session.listing += 1
        session.zoneFetchStarted = false
        session.phase = .fetchingDatabase
        deliver(.didFetchRecordZoneChanges(zone, error: error.asReported))
      }
    case .notAuthenticated: halt(.notAuthenticated)
    case .badDatabase: halt(.badDatabase(error.message ?? ""))
    case .quotaExceeded: halt(.quotaExceeded)
    case .zoneNotFound, .userDeletedZone:
      switch flight.request {
      case .modifyRecords(let request):
        // Each item failed with the error: the replica waits for the database feed to say why the zone went.
        var failures: [RecordID: CloudKitError] = [:]
        for id in request.saving.map(\.recordID) + request.deleting { failures[id] = error }
        handleSent(ModifyRecordsReply(failures: failures), flight: flight, at: now)
        endRound(nil)
        session.syncRequested = true
      case .fetchZoneChanges:
        storage.zoneToken = nil
        storage.zoneNeedsFetch = false
        session.zoneFetchStarted = false
        guard deliver(.didFetchRecordZoneChanges(zone, error: error.asReported)) else { return }
        finishFetch()
      default:
        endRound(error)
        session.syncRequested = true
      }
    default:
      halt(.rejected(error.asReported))
    }
  }

  /// Whether `error` says the zone is gone (its items are reported as the zone-loss rules need).
  static func reportsAMissingZone(_ error: CloudKitError) -> Bool {
    switch error.code {
    case .zoneNotFound, .userDeletedZone: true
    default: false
    }
  }

  /// Whether a failed item means the server is unwell (grow the throttle); a conflict, and the atomic siblings it
  /// fails, are ordinary answers.
  static func growsThrottle(_ error: CloudKitError) -> Bool {
    switch error.code {
    case .serverRecordChanged, .batchRequestFailed, .unknownItem: false
    default: true
    }
  }
}
