package import Foundation
import Reconcile
import ReconcileSimulator

/// One request a device sent and what came back, for `show log`.
package struct LogEntry: Sendable, Hashable, Encodable {
  /// Virtual seconds since the session started.
  package var time: TimeInterval
  /// The device that sent it.
  package var device: String
  /// The request, summarised.
  package var request: String
  /// The answer, summarised: `ok: …`, an error name, or that it was lost.
  package var answer: String
}

extension PlaygroundSession {
  /// The most requests one `sync` may send, so a device that never settles still ends.
  static let requestLimit = 10_000
  /// The most rounds of `sync all`.
  static let roundLimit = 10

  mutating func sync(_ name: String) throws(ScriptError) -> String {
    let index = try index(of: name)
    guard devices[index].isOnline else { return "\(name) is offline; nothing sent" }
    guard !devices[index].isHalted else {
      return
        "\(name) is halted; nothing sent (`\(name) restart` clears the halt): \(devices[index].haltReason?.description ?? "")"
    }
    let before = counters[name, default: DeviceCounts()]
    let began = server.now
    _ = drive(index)
    clearIntentsIfConverged()
    return summary(of: index, since: before, began: began)
  }

  mutating func syncAll() -> String {
    var rounds = 0
    var requests = 0
    while rounds < Self.roundLimit {
      rounds += 1
      var wrote = false
      for index in devices.indices where devices[index].isOnline && !devices[index].isHalted {
        let result = drive(index)
        requests += result.requests
        wrote = wrote || result.wrote
      }
      if !wrote { break }
    }
    let problem = convergenceProblem()
    if problem == nil { intentsAreSettled = true }
    let state = problem.map { "not converged: \($0)" } ?? "converged"
    return "sync all: \(rounds) round\(rounds == 1 ? "" : "s"), \(requests) requests; \(state)"
  }

  /// Runs device `index` against the server until it is idle, halted, offline or out of requests, moving virtual
  /// time through its waits and springing the faults waiting for it.
  /// - Returns: How many requests it sent and whether any of them changed the server.
  private mutating func drive(_ index: Int) -> (requests: Int, wrote: Bool) {
    let name = devices[index].name
    var counter = counters[name, default: DeviceCounts()]
    defer { counters[name] = counter }
    var faults = networkFaults[name, default: NetworkFaults()]
    defer { networkFaults[name] = faults }
    devices[index].requestSync()
    var sent = 0
    var wrote = false
    while sent < Self.requestLimit {
      if let outgoing = devices[index].nextRequest(at: server.now) {
        sent += 1
        counter.requests += 1
        let answer = server.handle(outgoing.request, from: devices[index].identity)
        if case .success(.modifyRecords(let reply)) = answer, !reply.saved.isEmpty || !reply.deleted.isEmpty {
          wrote = true
        }
        let isSave = if case .modifyRecords = outgoing.request { true } else { false }
        if faults.disconnectAfterSave && isSave {
          faults.disconnectAfterSave = false
          counter.lostAnswers += 1
          record(name, outgoing.request, "lost: \(name) went offline before the answer arrived")
          devices[index].goOffline()
          break
        }
        if faults.loseResponses > 0 {
          faults.loseResponses -= 1
          counter.lostAnswers += 1
          record(name, outgoing.request, "lost (the server handled it; \(name) will time out)")
          continue
        }
        record(name, outgoing.request, Self.describe(answer))
        counter.countErrors(in: answer)
        devices[index].receive(answer, for: outgoing.id, at: server.now)
        continue
      }
      guard let wake = devices[index].nextWakeTime, devices[index].status != .idle else { break }
      counter.waited += max(0, wake.timeIntervalSince(server.now))
      server.advanceClock(to: wake)
      devices[index].checkTimeout(at: server.now)
    }
    return (sent, wrote)
  }

  private mutating func record(_ device: String, _ request: ServerRequest, _ answer: String) {
    log.append(LogEntry(time: elapsed, device: device, request: request.description, answer: answer))
  }

  static func describe(_ answer: Result<ServerReply, ServerError>) -> String {
    switch answer {
    case .failure(let error):
      if let wait = error.retryAfter { return "\(error.name) (retry after \(DurationSyntax.render(wait)))" }
      return error.name
    case .success(let reply):
      switch reply {
      case .modifyRecords(let result):
        var text = "ok: saved \(result.saved.count), deleted \(result.deleted.count)"
        if !result.failures.isEmpty {
          let names = Dictionary(grouping: result.failures.values, by: \.name).map { "\($0.key) ×\($0.value.count)" }
          text += ", failed " + names.sorted().joined(separator: ", ")
        }
        return text
      case .modifyZones: return "ok: zone ready"
      case .zoneChanges(let changes):
        return "ok: \(changes.changed.count) changed, \(changes.deleted.count) deleted"
          + (changes.moreComing ? ", more coming" : "")
      case .databaseChanges(let changes): return "ok: \(changes.changedZones.count) zone(s) changed"
      case .fetchRecords: return "ok"
      case .query: return "ok"
      }
    }
  }

  private func summary(of index: Int, since before: DeviceCounts, began: Date) -> String {
    let device = devices[index]
    let now = counters[device.name, default: DeviceCounts()]
    var text = "\(device.name) synced: \(now.requests - before.requests) requests"
    let took = server.now.timeIntervalSince(began)
    if took > 0 { text += " over \(DurationSyntax.render(took))" }
    var notes: [String] = []
    for (name, total) in now.errors.sorted(by: { $0.key < $1.key }) {
      let new = total - (before.errors[name] ?? 0)
      if new > 0 { notes.append("\(name) ×\(new)") }
    }
    if now.lostAnswers > before.lostAnswers { notes.append("answers lost ×\(now.lostAnswers - before.lostAnswers)") }
    if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
    if let reason = device.haltReason { return text + "; HALTED: \(reason)" }
    return text + "; \(device.status), \(device.storage.pending.count) queued"
  }

  // MARK: Faults

  mutating func inject(_ fault: ScriptFault) throws(ScriptError) -> String {
    switch fault {
    case .loseRequest, .duplicate, .delay, .transient, .itemTransient, .tornCrash, .expireDatabaseTokens, .quotaFull,
      .deleteZone:
      throw Self.simulatorOnly("this fault")
    case .disconnectAfterSave(let name):
      _ = try index(of: name)
      networkFaults[name, default: NetworkFaults()].disconnectAfterSave = true
      return "\(name)'s next save will reach the server, then \(name) loses its network before the answer"
    case .loseResponses(let name, let count):
      _ = try index(of: name)
      guard count >= 1 else { throw ScriptError("fault \(name) lose-response \(count): at least 1") }
      networkFaults[name, default: NetworkFaults()].loseResponses += count
      return "the answers to \(name)'s next \(count) request\(count == 1 ? "" : "s") will be lost"
    case .corruptStorage(let name, let path):
      let index = try index(of: name)
      guard devices[index].corruptStoredRecord(try Self.recordID(path)) else {
        throw ScriptError("\(name) holds no \(path) to damage")
      }
      return "\(name)'s stored copy of \(path) is damaged; \(name) finds out at its next check and fetches it again"
    case .throttle(let seconds):
      server.throttle(for: seconds)
      return "the server answers serviceUnavailable for \(DurationSyntax.render(seconds))"
    case .error(let error, let count, let device):
      if let device { _ = try index(of: device) }
      server.injectFailure(error, count: count, device: device)
      return
        "the next \(count) request\(count == 1 ? "" : "s")\(device.map { " from \($0)" } ?? "") fail with \(error.name)"
    case .expireTokens:
      for user in Set(devices.compactMap(\.configuration.userRecordName)).sorted() {
        server.expireChangeTokens(in: Simulation.zoneID, ownedBy: user)
      }
      return "the server compacted its history; old change tokens have expired"
    case .clear:
      server.clearFaults()
      networkFaults.removeAll()
      return "all faults cleared"
    }
  }
}
