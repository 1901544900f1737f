import Foundation
import Reconcile

extension Simulation {
  /// Lets devices send, delivers messages and wakes devices until `target`, then sets the clock to `target`.
  mutating func pump(until target: Date) {
    var guardCount = 0
    while guardCount < 1_000_000 {
      guardCount += 1
      sendReadyRequests()
      var wake: Date?
      for index in clients.indices {
        if let time = clients[index].nextWakeTime, wake.map({ time < $0 }) ?? true { wake = time }
      }
      let nextTime = Self.earlier(Self.earlier(network.nextDelivery, wake), quotaFreedAt)
      guard let nextTime, nextTime <= target else { break }
      if nextTime > now { server.advanceClock(to: nextTime) }
      if let freed = quotaFreedAt, now >= freed { freeQuota() }
      while let message = network.popDue(at: now) { deliver(message) }
      for index in clients.indices { clients[index].wake(at: now) }
    }
    server.advanceClock(to: target)
    observeServer()
  }

  /// The earlier of two moments; `nil` when neither is set.
  private static func earlier(_ a: Date?, _ b: Date?) -> Date? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
  }

  /// The user frees storage: saves are accepted again.
  mutating func freeQuota() {
    guard quotaFreedAt != nil else { return }
    server.setQuotaExceeded(false, for: Self.user)
    quotaFreedAt = nil
  }

  private mutating func sendReadyRequests() {
    for index in clients.indices {
      guard let outgoing = clients[index].nextRequest(at: now) else { continue }
      statistics.requests += 1
      let name = clients[index].name
      if clients[index].isHalted {
        liveViolations.append(InvariantViolation(.haltedDeviceSendsNothing, "halted \(name) sent \(outgoing.request)"))
      }
      if let wait = retryNotBefore[index] {
        if now < wait.until {
          let early = ServerError.seconds(wait.until.timeIntervalSince(now))
          liveViolations.append(
            InvariantViolation(
              .retryAfterHonoured,
              "\(name) sent \(outgoing.request) \(early) before the retry-after of \(wait.why) ended"))
        }
        retryNotBefore[index] = nil
      }
      var deliverAt = now.addingTimeInterval(Self.latency)
      var loseResponse = false
      var failAnswer: ServerError?
      var copies = 1
      if !answersLost.isEmpty, var errors = answersLost[name], !errors.isEmpty {
        failAnswer = errors.removeFirst()
        answersLost[name] = errors.isEmpty ? nil : errors
      }
      if !armed.isEmpty, var faults = armed[name], !faults.isEmpty {
        let fault = faults.removeFirst()
        armed[name] = faults.isEmpty ? nil : faults
        switch fault {
        case .loseRequest:
          if case .modifyRecords(let request) = outgoing.request {
            history.recordUnanswered(saved: request.saving.map(\.recordID), device: name)
          }
          statistics.lostMessages += 1
          traceEntries.append(.note("network lost \(name)'s \(outgoing.request)"))
          continue
        case .loseResponse: loseResponse = true
        case .duplicate: copies = 2
        case .delay(_, let seconds): deliverAt = deliverAt.addingTimeInterval(TimeInterval(seconds))
        default: break
        }
      }
      for copy in 0..<copies {
        // A duplicate arrives later than the original, as a retried packet does.
        network.send(
          .request(id: outgoing.id, outgoing.request, loseResponse: loseResponse, failAnswer: failAnswer),
          device: index,
          at: deliverAt.addingTimeInterval(TimeInterval(copy) * Self.duplicateLag))
      }
    }
  }

  private mutating func deliver(_ message: Network.Message) {
    let index = message.device
    switch message.payload {
    case .request(let id, let request, let loseResponse, let failAnswer):
      let answer = server.handle(request, from: clients[index].identity)
      count(answer)
      observeServer()
      var saving: [RecordID] = []
      if case .modifyRecords(let modify) = request { saving = modify.saving.map(\.recordID) }
      if case .success(.modifyRecords(let reply)) = answer, !reply.failures.isEmpty {
        // An item answered `networkFailure` was saved and its answer lost: the device never learns it landed.
        let lost = reply.failures.compactMap { id, error -> RecordID? in
          if case .networkFailure = error { return id }
          return nil
        }
        if !lost.isEmpty { history.recordUnanswered(saved: lost.sorted(), device: clients[index].name) }
      }
      if let failAnswer {
        history.recordUnanswered(saved: saving, deleted: Self.deleted(in: answer), device: clients[index].name)
        statistics.transientErrors += 1
        traceEntries.append(.note("network lost the answer to \(clients[index].name)'s \(request): networkFailure"))
        network.send(
          .response(id: id, .failure(failAnswer), saving: []), device: index, at: now.addingTimeInterval(Self.latency))
        return
      }
      if loseResponse {
        history.recordUnanswered(saved: saving, deleted: Self.deleted(in: answer), device: clients[index].name)
        statistics.lostMessages += 1
        traceEntries.append(.note("network lost the answer to \(clients[index].name)'s \(request)"))
        return
      }
      network.send(.response(id: id, answer, saving: saving), device: index, at: now.addingTimeInterval(Self.latency))
    case .response(let id, let answer, let saving):
      let awaited = clients[index].isAwaitingAnswer(to: id)
      let deleted = Self.deleted(in: answer)
      if !saving.isEmpty || !deleted.isEmpty {
        if awaited {
          answered[index, default: []].insert(id)
        } else if answered[index]?.contains(id) != true {
          // The device gave up on this request (timed out, went offline, crashed): it never learns what landed.
          history.recordUnanswered(saved: saving, deleted: deleted, device: clients[index].name)
        } else if case .success(.modifyRecords(let reply)) = answer {
          // A duplicate's copy landed saves or deletions after the device took the first copy's answer: it never
          // learns of them.
          history.recordUnanswered(
            saved: reply.saved.map(\.recordID), deleted: reply.deleted, device: clients[index].name)
        }
      }
      if awaited, let wait = Self.retryAfter(in: answer) {
        statistics.retryAftersHanded += 1
        let until = now.addingTimeInterval(wait.seconds)
        if until > retryNotBefore[index]?.until ?? .distantPast { retryNotBefore[index] = (until, wait.why) }
      }
      let before = clients[index].persistedZoneToken
      let wasHalted = clients[index].isHalted
      if !tornCrashArmed.isEmpty, let afterWrites = tornCrashArmed[clients[index].name] {
        if clients[index].receive(answer, for: id, at: now, crashingAfterWrites: afterWrites) {
          retryNotBefore[index] = nil
          tornCrashArmed[clients[index].name] = nil
          statistics.tornCrashes += 1
          traceEntries.append(.note("\(clients[index].name) crashed between two persistence writes"))
          // The crash took the answer with it before every save in it was kept: as for a lost answer, the device
          // cannot know which of them landed.
          if awaited {
            history.recordUnanswered(saved: saving, deleted: deleted, device: clients[index].name)
          }
        }
      } else {
        clients[index].receive(answer, for: id, at: now, crashingAfterWrites: nil)
      }
      checkTokenOrder(before: before, after: clients[index].persistedZoneToken, device: clients[index].name)
      if !wasHalted, let reason = clients[index].haltReason {
        statistics.halts += 1
        traceEntries.append(.note("\(clients[index].name) halted: \(reason.code)"))
      }
    }
  }

  /// The records an answer says were deleted.
  static func deleted(in answer: Result<ServerReply, ServerError>) -> [RecordID] {
    if case .success(.modifyRecords(let reply)) = answer { return reply.deleted }
    return []
  }

  /// The longest retry-after an answer carries, on the request or on one of its items, and the error that carries it.
  static func retryAfter(in answer: Result<ServerReply, ServerError>) -> (seconds: TimeInterval, why: String)? {
    var longest: (seconds: TimeInterval, why: String)?
    func consider(_ error: ServerError) {
      guard let seconds = error.retryAfter, seconds > 0, seconds > longest?.seconds ?? 0 else { return }
      longest = (seconds, "\(error.name) (\(ServerError.seconds(seconds)))")
    }
    switch answer {
    case .failure(.partialFailure(let failures)): failures.values.forEach(consider)
    case .failure(let error): consider(error)
    case .success(.modifyRecords(let reply)): reply.failures.values.forEach(consider)
    case .success: break
    }
    return longest
  }

  private mutating func count(_ answer: Result<ServerReply, ServerError>) {
    switch answer {
    case .failure(let error):
      if error.isTransient { statistics.transientErrors += 1 }
      if case .limitExceeded = error { statistics.limitExceeded += 1 }
      if error == .changeTokenExpired { statistics.tokenExpiries += 1 }
    case .success(.modifyRecords(let reply)):
      for error in reply.failures.values {
        switch error {
        case .serverRecordChanged: statistics.conflicts += 1
        case .batchRequestFailed: statistics.batchRequestFailed += 1
        case _ where error.isTransient: statistics.transientErrors += 1
        default: break
        }
      }
    case .success(.zoneChanges(let changes)):
      if changes.moreComing { statistics.moreComingPages += 1 }
    case .success(.databaseChanges(let changes)):
      if changes.moreComing { statistics.moreComingPages += 1 }
    default: break
    }
  }

  /// Within one zone incarnation a device's token never moves back across an answer or a crash; a token the device
  /// drops (`nil`, after an expiry, a zone deletion or damaged storage) starts afresh.
  mutating func checkTokenOrder(before: ZoneChangeToken?, after: ZoneChangeToken?, device: String) {
    guard let before, let after, before.zoneID == after.zoneID, before.incarnation == after.incarnation else { return }
    statistics.tokenChecks += 1
    guard after.sequence < before.sequence else { return }
    liveViolations.append(
      InvariantViolation(.serverInvariants, "\(device)'s zone token went backwards: \(before) → \(after)"))
  }

  /// Feeds new server events to the observer and the trace.
  mutating func observeServer() {
    let events = server.events
    guard observer.consumed < events.count else { return }
    for event in events[observer.consumed...] {
      traceEntries.append(.event(event))
      statistics.serverChanges += 1
      observer.observe(event, setup: setup, upgraded: upgraded)
    }
    observer.consumed = events.count
  }
}
