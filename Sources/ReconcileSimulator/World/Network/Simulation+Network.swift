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
      for index in devices.indices where devices.isRunning(index) {
        if let time = devices.clients[index].nextWakeTime, wake.map({ time < $0 }) ?? true { wake = time }
      }
      let nextTime = Self.earlier(Self.earlier(network.nextDelivery, wake), server.nextQuotaFreed)
      guard let nextTime, nextTime <= target else { break }
      if nextTime > now { server.advanceClock(to: nextTime) }
      server.freeQuotasDue()
      while let message = network.popDue(at: now) { deliver(message) }
      for index in devices.indices where devices.isRunning(index) { devices.clients[index].handle(.timerFired(now)) }
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

  private mutating func sendReadyRequests() {
    // An app that is not running sends nothing.
    for index in devices.indices where devices.isRunning(index) {
      guard let outgoing = devices.clients[index].nextRequest(at: now) else { continue }
      statistics.requests += 1
      let name = devices.names[index]
      devices.counts[index].sent(at: now)
      auditor.requestSent(by: index, name, outgoing.request, halted: devices.clients[index].isHalted, at: now)
      let isSave: Bool
      if case .modifyRecords = outgoing.request { isSave = true } else { isSave = false }
      let fate = network.fate(ofRequestFrom: name, isSave: isSave)
      if fate.lost {
        auditor.requestLost(by: name, outgoing.request)
        statistics.lostMessages += 1
        traceEntries.append(.note("network lost \(name)'s \(outgoing.request)"))
        continue
      }
      if fate.disconnects {
        devices.setNetwork(of: index, online: false)
        traceEntries.append(.note("\(name) lost its network after sending a save"))
      }
      var deliverAt = now.addingTimeInterval(Self.latency)
      if fate.delay != 0 { deliverAt = deliverAt.addingTimeInterval(fate.delay) }
      for copy in 0..<fate.copies {
        // A duplicate arrives later than the original, as a retried packet does.
        network.send(
          .request(
            id: outgoing.id, outgoing.request, loseResponse: fate.loseAnswer, failAnswer: fate.failAnswer,
            account: devices.hosts.accounts[name]),
          device: index,
          at: deliverAt.addingTimeInterval(TimeInterval(copy) * Self.duplicateLag))
      }
    }
  }

  private mutating func deliver(_ message: Network.Message) {
    let index = message.device
    switch message.payload {
    case .request(let id, let request, let loseResponse, let failAnswer, let account):
      // Sent with the credentials of the account signed in at the time.
      let identity = ClientIdentity(userRecordName: account, deviceName: devices.names[index])
      let answer = server.handle(request, from: identity)
      count(answer)
      observeServer()
      var saving: [RecordID] = []
      if case .modifyRecords(let modify) = request { saving = modify.saving.map(\.recordID) }
      let name = devices.names[index]
      auditor.serverAnswered(name, answer)
      if let failAnswer {
        auditor.answerLost(to: name, saving: saving, answer)
        devices.counts[index].lostAnswers += 1
        statistics.transientErrors += 1
        traceEntries.append(.note("network lost the answer to \(devices.names[index])'s \(request): networkFailure"))
        network.send(
          .response(id: id, .failure(failAnswer), saving: []), device: index, at: now.addingTimeInterval(Self.latency))
        return
      }
      if loseResponse {
        auditor.answerLost(to: name, saving: saving, answer)
        devices.counts[index].lostAnswers += 1
        statistics.lostMessages += 1
        traceEntries.append(.note("network lost the answer to \(devices.names[index])'s \(request)"))
        return
      }
      network.send(.response(id: id, answer, saving: saving), device: index, at: now.addingTimeInterval(Self.latency))
    case .response(let id, let answer, let saving):
      let name = devices.names[index]
      let before = devices.clients[index].persistedZoneToken
      let wasHalted = devices.clients[index].isHalted
      let afterWrites = devices.hosts.tornCrash(on: name)
      let receipt = devices.clients[index].receive(answer, for: id, at: now, crashingAfterWrites: afterWrites)
      if receipt.wasAwaited { devices.counts[index].took(answer, at: now) }
      auditor.answerDelivered(
        to: index, name, requestID: id, answer, saving: saving, awaited: receipt.wasAwaited, at: now)
      if afterWrites != nil, receipt.tornCrash {
        devices.hosts.tornCrashStruck(on: name)
        statistics.tornCrashes += 1
        traceEntries.append(.note("\(name) crashed between two persistence writes"))
        // The crash took the answer with it before every save in it was kept: as for a lost answer, the device
        // cannot know which of them landed.
        let lost = receipt.wasAwaited ? (saved: saving, deleted: AnswerLedger.deleted(in: answer)) : nil
        auditor.crashed(index, name, lostAnswer: lost)
      }
      for decision in receipt.decisions {
        // A fetched copy of a record the device deleted, kept from coming back.
        if case .deletion(_, .deletionStands) = decision { statistics.resurrectionsBlocked += 1 }
        traceEntries.append(.decision(name, decision))
      }
      auditor.tokenMoved(on: name, from: before, to: devices.clients[index].persistedZoneToken)
      if !wasHalted, let reason = devices.clients[index].haltReason {
        statistics.halts += 1
        auditor.halted(name)
        traceEntries.append(.note("\(name) halted: \(reason.code)"))
      }
    }
  }

  private mutating func count(_ answer: Result<ServerReply, CloudKitError>) {
    switch answer {
    case .failure(let error):
      if error.isTransient { statistics.transientErrors += 1 }
      if error.code == .limitExceeded { statistics.limitExceeded += 1 }
      if error.code == .changeTokenExpired { statistics.tokenExpiries += 1 }
    case .success(.modifyRecords(let reply)):
      for error in reply.failures.values {
        switch error.code {
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

  /// Reports new server events to the auditor and the trace.
  mutating func observeServer() {
    let events = server.events
    guard serverEventsReported < events.count else { return }
    for event in events[serverEventsReported...] {
      traceEntries.append(.event(event))
      statistics.serverChanges += 1
      auditor.serverChanged(event)
    }
    serverEventsReported = events.count
  }
}
