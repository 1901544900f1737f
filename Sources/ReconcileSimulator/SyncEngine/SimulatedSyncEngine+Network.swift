package import Foundation
package import Reconcile

extension SimulatedSyncEngine {
  /// The next request: nothing while halted, offline, waiting or with a request in flight.
  package mutating func nextRequest(at now: Date) -> OutgoingRequest? {
    guard haltReason == nil, isOnline, session.inFlight == nil else { return nil }
    if session.pacing.isWaiting(at: now) { return nil }
    var guardCount = 0
    while guardCount < 1_000 {
      guardCount += 1
      if session.phase == .idle {
        if session.fetchRequested {
          session.fetchRequested = false
          session.phase = .fetchingDatabase
          guard emit(.willFetchChanges) else { return nil }
        } else if pendingChangeCount > 0, !session.nothingToSend {
          session.phase = .sending
          session.sendContext = SyncEngine.SendChangesContext(
            reason: session.explicitSendRequested ? .explicit : .scheduled, maximumItems: session.pacing.batchLimit)
          session.explicitSendRequested = false
          guard emit(.willSendChanges(session.sendContext)) else { return nil }
        } else {
          session.explicitSendRequested = false
          return nil
        }
      }
      if let request = makeRequest(at: now) { return request }
    }
    return nil
  }

  private mutating func makeRequest(at now: Date) -> OutgoingRequest? {
    switch session.phase {
    case .idle:
      return nil
    case .fetchingDatabase:
      return send(.fetchDatabaseChanges(DatabaseChangesRequest(since: tokens.database)), at: now)
    case .fetchingZones:
      guard let zone = session.zonesToFetch.first else {
        session.phase = .idle
        session.nothingToSend = false
        _ = emit(.didFetchChanges)
        return nil
      }
      if !session.zoneFetchStarted {
        session.zoneFetchStarted = true
        guard emit(.willFetchRecordZoneChanges(zone)) else { return nil }
      }
      let since = tokens.zones[zone]
      return send(.fetchZoneChanges(ZoneChangesRequest(zoneID: zone, since: since)), at: now)
    case .sending:
      if !state.pendingDatabaseChanges.isEmpty {
        var saving: [RecordZone] = []
        var deleting: [ZoneID] = []
        for change in state.pendingDatabaseChanges {
          switch change {
          case .saveZone(let zone): saving.append(RecordZone(zoneID: zone))
          case .deleteZone(let id): deleting.append(id)
          }
        }
        return send(.modifyZones(ModifyZonesRequest(saving: saving, deleting: deleting)), at: now)
      }
      session.sendContext.maximumItems = session.pacing.batchLimit
      let batch =
        state.pendingRecords.count == 0
        ? nil : delegate.nextRecordZoneChangeBatch(session.sendContext, syncEngine: &state)
      persistStateIfChanged()
      guard let batch else {
        // The delegate holds back what is pending: the send ends, and the changes wait for a reason to try again.
        session.nothingToSend = state.pendingRecords.count != 0
        session.phase = .idle
        _ = emit(.didSendChanges(session.sendContext))
        return nil
      }
      let saving = Array(batch.recordsToSave.prefix(session.pacing.batchLimit))
      let deleting = Array(batch.recordIDsToDelete.prefix(max(0, session.pacing.batchLimit - saving.count)))
      session.readded = []
      return send(
        .modifyRecords(ModifyRecordsRequest(saving: saving, deleting: deleting, isAtomic: batch.atomicByZone)), at: now)
    }
  }

  private mutating func send(_ request: ServerRequest, at now: Date) -> OutgoingRequest? {
    session.serial += 1
    let id = launches * 1_000_000 + session.serial
    session.inFlight = InFlight(id: id, request: request, sentAt: now)
    return OutgoingRequest(id: id, request: request)
  }

  /// When a wait ends or the request in flight times out.
  package var nextWakeTime: Date? {
    guard haltReason == nil, isOnline else { return nil }
    if let flight = session.inFlight { return RequestPacing.deadline(sentAt: flight.sentAt, retry) }
    if let until = session.pacing.waitUntil,
      session.phase != .idle || session.fetchRequested || (pendingChangeCount > 0 && !session.nothingToSend)
    {
      return until
    }
    return nil
  }

  /// Times out the request in flight: it counts as a network failure, retried after a backoff.
  package mutating func wake(at now: Date) {
    guard let flight = session.inFlight, RequestPacing.hasTimedOut(sentAt: flight.sentAt, at: now, retry) else {
      return
    }
    // Not `receive`: the decisions wait for the next answer's receipt.
    _ = handle(.failure(.networkFailure(retryAfter: nil)), for: flight.id, at: now, crashingAfterWrites: nil)
  }

  /// Hands the engine the answer to request `id`; events go to the delegate, and a torn crash stops them after
  /// `writes` events. The receipt carries the delegate's decisions since the last answer.
  @discardableResult
  package mutating func receive(
    _ answer: Result<ServerReply, CloudKitError>, for id: Int, at now: Date, crashingAfterWrites writes: Int?
  ) -> AnswerReceipt {
    let awaited = session.inFlight?.id == id
    let torn = handle(answer, for: id, at: now, crashingAfterWrites: writes)
    return AnswerReceipt(wasAwaited: awaited, tornCrash: torn, decisions: delegate.takeDecisions())
  }

  private mutating func handle(
    _ answer: Result<ServerReply, CloudKitError>, for id: Int, at now: Date, crashingAfterWrites writes: Int?
  ) -> Bool {
    guard let flight = session.inFlight, flight.id == id, haltReason == nil else { return false }
    session.inFlight = nil
    self.writes.arm(crashingAfter: writes)
    stopped = false
    switch answer {
    case .failure(let error): handleFailure(error, flight: flight, at: now)
    case .success(let reply):
      session.pacing.retryCount = 0
      handleReply(reply, flight: flight, at: now)
    }
    let torn = self.writes.disarm()
    stopped = false
    if torn { crash() }
    return torn
  }

  // MARK: Answers

  private mutating func wait(_ error: CloudKitError?, at now: Date) {
    let seconds = error?.retryAfter ?? retry.backoff(attempt: max(1, session.pacing.retryCount))
    let until = now.addingTimeInterval(max(seconds, retry.minimumInterval))
    session.pacing.wait(until: until)
  }

  /// Tells the delegate every save and deletion of `request` failed with `error` (`sentRecordZoneChanges`); `false`
  /// when a torn crash struck.
  mutating func reportEveryItem(of request: ModifyRecordsRequest, failedWith error: CloudKitError) -> Bool {
    emit(.sentRecordZoneChanges(SyncEngine.SentRecordZoneChanges(everyItemOf: request, failedWith: error)))
  }

  private mutating func handleFailure(_ error: CloudKitError, flight: InFlight, at now: Date) {
    switch error.code {
    case _ where error.isTransient || error.code == .serverResponseLost || error.code == .quotaExceeded:
      session.pacing.retryCount += 1
      if case .modifyRecords(let request) = flight.request {
        // Every change of the batch failed with the error and stays pending, to be retried: the delegate hears of
        // it as CKSyncEngine reports a retryable failure (a `networkFailure` may still have landed; the rest did not).
        guard reportEveryItem(of: request, failedWith: error) else { return }
      }
      // Full storage has no retry-after: the user must free space, so wait a minute between tries.
      if error.code == .quotaExceeded {
        session.pacing.waitUntil = now.addingTimeInterval(60)
      } else {
        wait(error, at: now)
      }
      if session.pacing.retryCount > retry.maximumRetries {
        // Give up on this round; try again later.
        session.pacing.retryCount = 0
        abandonRound(error)
      }
    case .limitExceeded:
      // Too many items or bytes for one request: every change of the batch failed with the error, as Apple documents
      // for a batch too large, and stays pending; the next batch is half the size.
      if case .modifyRecords(let request) = flight.request {
        guard reportEveryItem(of: request, failedWith: error) else { return }
      }
      session.pacing.halveBatch()
    case .changeTokenExpired:
      if session.phase == .fetchingDatabase {
        updateTokens { $0.database = nil }
      } else if let zone = session.zonesToFetch.first {
        // The zone's fetch ends with the error and starts over from the beginning, announced again. Apple does not
        // say how CKSyncEngine tells a delegate that a zone's token expired; the error of the zone's
        // `didFetchRecordZoneChanges` event is the one place its API has for it, so the stand-in reports it there,
        // before the state without the token is persisted: a crash between the two fetches with the expired token
        // again, and the delegate hears it again.
        updateTokens { $0.zones[zone] = nil }
        session.zoneFetchStarted = false
        // The database feed is read again first: an expired zone token can mean the zone was deleted and created
        // again, which the feed reports with its reason (Apple is silent on what CKSyncEngine does here).
        session.phase = .fetchingDatabase
        _ = emit(.didFetchRecordZoneChanges(zone, error: CloudKitError.changeTokenExpired.asReported))
        return
      }
      persistStateIfChanged()
    case .notAuthenticated:
      haltReason = .notAuthenticated
      abandonRound(error)
    case .badDatabase:
      haltReason = .badDatabase(error.message ?? "")
      abandonRound(error)
    default:
      switch flight.request {
      case .modifyRecords(let request):
        // The whole batch failed: each save and delete fails with the error, for the delegate to settle.
        var failures: [RecordID: CloudKitError] = [:]
        for id in request.saving.map(\.recordID) + request.deleting { failures[id] = error }
        handleReply(.modifyRecords(ModifyRecordsReply(failures: failures)), flight: flight, at: now)
      case .modifyZones(let request):
        // Every zone change failed: none stays pending, and the delegate decides what to add again.
        let reported = error.asReported
        let saves = Dictionary(request.saving.map { ($0.zoneID, reported) }, uniquingKeysWith: { a, _ in a })
        let deletes = Dictionary(request.deleting.map { ($0, reported) }, uniquingKeysWith: { a, _ in a })
        state.remove(
          pendingDatabaseChanges: request.saving.map { .saveZone($0.zoneID) } + request.deleting.map { .deleteZone($0) }
        )
        guard
          emit(
            .sentDatabaseChanges(
              SyncEngine.SentDatabaseChanges(
                savedZones: [], failedZoneSaves: saves, deletedZoneIDs: [], failedZoneDeletes: deletes)))
        else { return }
      case .fetchZoneChanges(let request):
        updateTokens { $0.zones[request.zoneID] = nil }
        session.zonesToFetch.removeFirst(min(1, session.zonesToFetch.count))
        session.zoneFetchStarted = false
        guard emit(.didFetchRecordZoneChanges(request.zoneID, error: error.asReported)) else { return }
      default:
        abandonRound(error)
      }
    }
  }

  /// Ends the fetch or send under way after `error`, with the events CKSyncEngine ends it with: a zone whose fetch
  /// had begun hears `didFetchRecordZoneChanges` with the error, then the fetch `didFetchChanges`; a send
  /// `didSendChanges`.
  private mutating func abandonRound(_ error: CloudKitError) {
    switch session.phase {
    case .fetchingDatabase, .fetchingZones:
      if session.phase == .fetchingZones, session.zoneFetchStarted, let zone = session.zonesToFetch.first {
        session.zoneFetchStarted = false
        guard emit(.didFetchRecordZoneChanges(zone, error: error.asReported)) else { return }
      }
      session.phase = .idle
      session.zonesToFetch = []
      session.zoneFetchStarted = false
      _ = emit(.didFetchChanges)
    case .sending:
      session.phase = .idle
      _ = emit(.didSendChanges(session.sendContext))
    case .idle: break
    }
  }

  private mutating func handleReply(_ reply: ServerReply, flight: InFlight, at now: Date) {
    switch reply {
    case .databaseChanges(let changes):
      var deletions = changes.zoneDeletions
      var gone = Set(deletions.map(\.zoneID))
      if case .fetchDatabaseChanges(let request) = flight.request, request.since == nil {
        // A listing from the beginning names the zones there are, not those deleted before it began. Apple does not
        // say what CKSyncEngine does with a zone it knew that such a listing leaves out; the stand-in reports it
        // deleted, as the delegate must hear to drop what it holds of it.
        var listed = session.listedFromStart ?? []
        listed.formUnion(changes.changedZones)
        session.listedFromStart = changes.moreComing ? listed : nil
        if !changes.moreComing {
          let unlisted = tokens.knownZones.filter { !listed.contains($0) && !gone.contains($0) }.sorted()
          deletions += unlisted.map { SyncEngine.ZoneDeletion(zoneID: $0, reason: .deleted) }
          gone.formUnion(unlisted)
        }
      }
      guard
        emit(
          .fetchedDatabaseChanges(
            SyncEngine.FetchedDatabaseChanges(modifications: changes.changedZones, deletions: deletions)))
      else { return }
      // The new database token and the zones it leaves to fetch are one write: a crash after it fetches them still.
      updateTokens { tokens in
        for zone in gone {
          tokens.zones[zone] = nil
          tokens.savedZones?.remove(zone)
        }
        tokens.zonesNeedingFetch.removeAll { gone.contains($0) }
        // A zone reported both deleted and changed was created again since: it is fetched from its beginning.
        for zone in changes.changedZones where !tokens.zonesNeedingFetch.contains(zone) {
          tokens.zonesNeedingFetch.append(zone)
        }
        tokens.database = changes.token
      }
      for zone in tokens.zonesNeedingFetch where !session.zonesToFetch.contains(zone) {
        session.zonesToFetch.append(zone)
      }
      guard persistStateIfChanged() else { return }
      if !changes.moreComing { session.phase = .fetchingZones }
    case .zoneChanges(let changes):
      guard let zone = session.zonesToFetch.first else { return }
      guard
        emit(
          .fetchedRecordZoneChanges(
            SyncEngine.FetchedRecordZoneChanges(modifications: changes.changed, deletions: changes.deleted)))
      else { return }
      updateTokens { tokens in
        tokens.zones[zone] = changes.token
        if !changes.moreComing { tokens.zonesNeedingFetch.removeAll { $0 == zone } }
      }
      guard persistStateIfChanged() else { return }
      if !changes.moreComing {
        session.zonesToFetch.removeFirst()
        session.zoneFetchStarted = false
        guard emit(.didFetchRecordZoneChanges(zone, error: nil)) else { return }
      }
    case .modifyZones(let result):
      state.remove(
        pendingDatabaseChanges: result.saved.map { .saveZone($0.zoneID) } + result.deleted.map { .deleteZone($0) })
      // The zones it saved persist with the pending changes they leave: one write.
      updateTokens { tokens in
        tokens.savedZones = (tokens.savedZones ?? []).union(result.saved.map(\.zoneID)).subtracting(result.deleted)
      }
      guard
        emit(
          .sentDatabaseChanges(
            SyncEngine.SentDatabaseChanges(savedZones: result.saved.map(\.zoneID), deletedZoneIDs: result.deleted)))
      else { return }
    case .modifyRecords(let result):
      handleSent(result, flight: flight, at: now)
    case .fetchRecords, .query:
      break
    }
  }

  private mutating func handleSent(_ result: ModifyRecordsReply, flight: InFlight, at now: Date) {
    var settled: [SyncEngine.PendingRecordZoneChange] = []
    var failedSaves: [SyncEngine.FailedRecordSave] = []
    var failedDeletes: [RecordID: CloudKitError] = [:]
    let sentRecords = Dictionary(
      flight.request.savedRecords.map { ($0.recordID, $0) }, uniquingKeysWith: { a, _ in a })
    for saved in result.saved where !session.readded.contains(saved.recordID) {
      settled.append(.saveRecord(saved.recordID))
    }
    for id in result.deleted where !session.readded.contains(id) { settled.append(.deleteRecord(id)) }
    for id in result.failures.keys.sorted() {
      guard let error = result.failures[id] else { continue }
      let retried = error.isTransient || error.code == .batchRequestFailed
      if retried { wait(error, at: now) }
      if let record = sentRecords[id] {
        failedSaves.append(SyncEngine.FailedRecordSave(record: record, error: error.asReported))
        if !retried && !session.readded.contains(id) { settled.append(.saveRecord(id)) }
      } else {
        failedDeletes[id] = error.asReported
        if !retried && !session.readded.contains(id) { settled.append(.deleteRecord(id)) }
      }
    }
    state.remove(pendingRecordZoneChanges: settled)
    guard
      emit(
        .sentRecordZoneChanges(
          SyncEngine.SentRecordZoneChanges(
            savedRecords: result.saved, failedRecordSaves: failedSaves, deletedRecordIDs: result.deleted,
            failedRecordDeletes: failedDeletes)))
    else { return }
  }
}

extension ServerRequest {
  /// The records a save request carries.
  fileprivate var savedRecords: [Record] {
    if case .modifyRecords(let request) = self { return request.saving }
    return []
  }
}
