import Foundation
import Reconcile

extension Simulation {
  /// Performs one step, then lets ``stepInterval`` of virtual time pass (a wait step lets its own time pass instead).
  /// - Parameter step: The step.
  public mutating func perform(_ step: SimulationStep) {
    steps.append(step)
    statistics.steps += 1
    traceEntries.append(.step(steps.count, step))
    if let problem = apply(step) {
      statistics.skippedSteps += 1
      traceEntries.append(.note("skipped: \(problem)"))
    }
    if case .advance(let seconds) = step {
      pump(until: now.addingTimeInterval(TimeInterval(max(0, seconds))))
    } else {
      pump(until: now.addingTimeInterval(Self.stepInterval))
    }
  }

  /// Applies a step; returns why it could not apply, if it could not.
  private mutating func apply(_ step: SimulationStep) -> String? {
    if let name = step.device, index(of: name) == nil { return "no device \(name)" }
    switch step {
    case .create(let name, let record, let values):
      guard let index = index(of: name), let id = try? RecordID(recordName: record, zoneID: Self.zoneID) else {
        return "invalid record name \(record)"
      }
      if let unknown = unknownKey(in: values.keys, device: name) { return unknown }
      var new = Record(recordType: "Note", recordID: id)
      for (key, value) in values { new[key] = value }
      do {
        try clients[index].create(new, at: now)
      } catch {
        return String(describing: error)
      }
      noteAction(.create(values), device: index, recordID: id, base: 0)
    case .edit(let name, let record, let values):
      guard let index = index(of: name), let id = try? RecordID(recordName: record, zoneID: Self.zoneID) else {
        return "invalid record name \(record)"
      }
      if let unknown = unknownKey(in: values.keys, device: name) { return unknown }
      let base = shownPosition(of: id, on: index)
      do {
        try clients[index].edit(id, setting: values, at: now)
      } catch {
        return String(describing: error)
      }
      noteAction(.edit(values), device: index, recordID: id, base: base)
    case .delete(let name, let record):
      guard let index = index(of: name), let id = try? RecordID(recordName: record, zoneID: Self.zoneID) else {
        return "invalid record name \(record)"
      }
      let base = shownPosition(of: id, on: index)
      do {
        try clients[index].delete(id, at: now)
      } catch {
        return String(describing: error)
      }
      noteAction(.delete, device: index, recordID: id, base: base)
    case .sync(let name): withDevice(name) { $0.requestSync() }
    case .crash(let name):
      guard let index = index(of: name) else { return nil }
      let before = clients[index].persistedZoneToken
      clients[index].crash()
      retryNotBefore[index] = nil
      checkTokenOrder(before: before, after: clients[index].persistedZoneToken, device: name)
    case .offline(let name): withDevice(name) { $0.goOffline() }
    case .online(let name): withDevice(name) { $0.goOnline() }
    case .clockJump(let name, let seconds): withDevice(name) { $0.jumpClock(by: TimeInterval(seconds)) }
    case .upgrade(let name):
      guard setup.schemas != .none else { return "the run has no schemas to upgrade" }
      upgraded.insert(name)
      let schema = AppSchemas.upgraded(setup.schemas)
      withDevice(name) { $0.upgrade(to: schema) }
    case .advance:
      break
    case .fault(let fault):
      inject(fault)
    }
    return nil
  }

  /// Why an app cannot write one of `keys`: a key its schema does not know (an app writes only fields it declares; a
  /// shrunk script may ask for one after dropping the upgrade step).
  func unknownKey(in keys: some Collection<String>, device: String) -> String? {
    guard let known = AppSchemas.knownKeys(upgraded: upgraded.contains(device), scenario: setup.schemas) else {
      return nil
    }
    return keys.sorted().first { !known.contains($0) }.map { "the app on \(device) does not know the key \($0)" }
  }

  /// The server history position of the version device `index` shows for `id` (0 when it shows none, or one without a
  /// change tag): what the device had seen of the record.
  func shownPosition(of id: RecordID, on index: Int) -> Int {
    clients[index].record(id)?.recordChangeTag.flatMap { observer.tagPosition[$0] } ?? 0
  }

  /// A user acted on device `index`: adds the action to the ground truth, with the edit count and stamps the device
  /// shows after it, and — when devices send after edits — asks the device to send.
  private mutating func noteAction(_ kind: UserHistory.Action.Kind, device index: Int, recordID: RecordID, base: Int) {
    if setup.sendsAfterEdits { clients[index].requestSend() }
    var action = UserHistory.Action(
      device: clients[index].name, time: now, recordID: recordID, kind: kind, base: base)
    action.knownKeys = AppSchemas.knownKeys(upgraded: isUpgraded(action.device), scenario: setup.schemas)
    if let shown = clients[index].record(recordID) {
      let bookkeeping = setup.resolver.bookkeeping
      if let key = bookkeeping.editCountKey, case .int64(let count)? = shown[key] { action.editCount = count }
      if let key = bookkeeping.fieldStampsKey {
        action.stamps = (try? HybridLogicalClockMerge(stampsKey: key).stamps(in: shown)) ?? [:]
      }
    }
    history.record(action)
  }

  private mutating func withDevice(_ name: String, _ body: (inout any SyncClient) -> Void) {
    guard let index = index(of: name) else { return }
    body(&clients[index])
  }

  private mutating func inject(_ fault: SimulationFault) {
    switch fault {
    case .loseRequest(let device), .loseResponse(let device), .duplicate(let device), .delay(let device, _):
      armed[device, default: []].append(fault)
    case .transient(let device, let name, let retryAfter):
      guard let error = SimulationFault.transientError(named: name, retryAfter: retryAfter) else { return }
      if case .networkFailure = error {
        // CloudKit's networkFailure means the request or its answer was lost: the device cannot tell which, so the
        // simulator takes the case no client may assume away — the server applied it, and the answer was lost.
        answersLost[device, default: []].append(error)
      } else {
        server.injectFailure(error, count: 1, device: device)
      }
    case .itemTransient(let device, let name, let retryAfter):
      if let error = SimulationFault.transientError(named: name, retryAfter: retryAfter) {
        server.injectItemFailure(error, device: device)
      }
    case .throttle(let seconds):
      server.throttle(for: TimeInterval(seconds))
    case .expireTokens:
      server.expireChangeTokens(in: Self.zoneID, ownedBy: Self.user)
    case .expireDatabaseTokens:
      server.expireDatabaseChangeTokens(ownedBy: Self.user)
    case .quotaFull(let seconds):
      server.setQuotaExceeded(true, for: Self.user)
      quotaFreedAt = now.addingTimeInterval(TimeInterval(seconds))
    case .deleteZone:
      var shown: [RecordID: Int] = [:]
      for index in clients.indices {
        for record in clients[index].records {
          let position = shownPosition(of: record.recordID, on: index)
          shown[record.recordID] = max(shown[record.recordID] ?? 0, position)
        }
      }
      let before = server.events.count
      server.deleteZone(Self.zoneID, ownedBy: Self.user)
      observeServer()
      if server.events.count > before {
        history.recordReset(UserHistory.ZoneReset(time: now, position: server.events.count, shown: shown))
      }
    case .tornCrash(let device, let afterWrites):
      tornCrashArmed[device] = max(1, afterWrites)
    case .corruptStorage(let device, let record):
      guard let id = try? RecordID(recordName: record, zoneID: Self.zoneID) else { return }
      var damaged = false
      withDevice(device) { damaged = $0.damageStoredRecord(id) }
      if damaged { history.recordDamage(device: device, recordID: id, time: now) }
    }
  }

  // MARK: Quiescence

  /// Ends every fault, brings every device online, restarts halted devices (upgrading those halted by a newer app's
  /// records), and syncs until a whole round changes nothing on the server with every device idle.
  ///
  /// A client that keeps sending without settling (a livelock) ends the run once it spends the request budget, as a
  /// liveness violation, instead of running on.
  /// - Parameters:
  ///   - maximumRounds: The liveness bound; 30 rounds unless given, each up to an hour of virtual time.
  ///   - requestBudget: Requests per device quiescence may take; 2,000 unless given.
  /// - Returns: Whether the world became quiescent within the bounds.
  public mutating func quiesce(maximumRounds: Int = 30, requestBudget: Int = 2_000) -> Bool {
    traceEntries.append(.quiesce)
    server.clearFaults()
    armed.removeAll()
    answersLost.removeAll()
    tornCrashArmed.removeAll()
    let budget = statistics.requests + requestBudget * max(1, clients.count)
    freeQuota()
    for index in clients.indices { clients[index].goOnline() }
    for round in 1...max(1, maximumRounds) {
      statistics.quiescenceRounds = round
      restartHaltedDevices()
      let before = server.events.count
      for index in clients.indices { clients[index].requestSync() }
      var waited = 0
      while waited < 3_600, !allIdle() || !network.isEmpty {
        pump(until: now.addingTimeInterval(10))
        waited += 10
        if statistics.requests > budget {
          traceEntries.append(.note("not quiescent: the devices spent the request budget (\(requestBudget) each)"))
          return false
        }
      }
      if server.events.count == before, allIdle(), network.isEmpty, clients.allSatisfy({ !$0.isHalted }) {
        return true
      }
    }
    traceEntries.append(.note("not quiescent after \(maximumRounds) rounds"))
    return false
  }

  private func allIdle() -> Bool { clients.allSatisfy { $0.isIdle || $0.isHalted } }

  private mutating func restartHaltedDevices() {
    for index in clients.indices {
      guard let reason = clients[index].haltReason else { continue }
      if case .schema = reason, setup.schemas != .none, !upgraded.contains(clients[index].name) {
        upgraded.insert(clients[index].name)
        clients[index].upgrade(to: AppSchemas.upgraded(setup.schemas))
        traceEntries.append(.note("\(clients[index].name) upgraded after a schema halt"))
      }
      clients[index].restart()
    }
  }

  // MARK: Invariants

  /// Checks the invariants of this run against the current state; call after ``quiesce(maximumRounds:requestBudget:)``.
  /// - Parameter quiescent: What quiescence returned.
  /// - Returns: The broken invariants, in a fixed order.
  public func checkInvariants(quiescent: Bool) -> [InvariantViolation] { evaluate(quiescent: quiescent).violations }

  /// The violations, in a fixed order, and each invariant's outcome. `quiescent` is `nil` when the run was not driven
  /// to quiescence: only what broke while running is judged then, and the end-state invariants do not apply.
  func evaluate(quiescent: Bool?) -> (
    violations: [InvariantViolation], outcomes: [Invariant: InvariantOutcome], setAside: [SetAside: Int],
    recordsJudged: Int
  ) {
    var tally = InvariantTally()
    tally.violations = liveViolations + observer.violations
    judgeRunningInvariants(into: &tally)
    if let quiescent {
      tally.judged(.liveness)
      if !quiescent { tally.fail(.liveness, "no quiescence within the bound") }
      judgeEndState(quiescent: quiescent, into: &tally)
    } else {
      for invariant in Invariant.endState { tally.inapplicable(invariant, "the run was not driven to quiescence") }
    }
    let outcomes = tally.outcomes(for: invariants, extra: [])
    let violations = Self.ordered(tally.violations.filter { invariants.contains($0.invariant) })
    return (violations, outcomes, tally.setAsideCounts, tally.recordsConsidered)
  }

  /// Violations grouped by invariant in declaration order, each group in the order found.
  static func ordered(_ violations: [InvariantViolation]) -> [InvariantViolation] {
    let rank = Dictionary(uniqueKeysWithValues: Invariant.allCases.enumerated().map { ($1, $0) })
    return violations.enumerated().sorted {
      (rank[$0.element.invariant] ?? 0, $0.offset) < (rank[$1.element.invariant] ?? 0, $1.offset)
    }.map(\.element)
  }

  private func judgeRunningInvariants(into tally: inout InvariantTally) {
    tally.judged(.serverInvariants, observer.tagPosition.count + statistics.tokenChecks)
    tally.inapplicable(.serverInvariants, "the server issued no change tag and no device moved a token")
    tally.judged(.haltedDeviceSendsNothing, statistics.halts)
    tally.inapplicable(.haltedDeviceSendsNothing, "no device halted")
    tally.judged(.retryAfterHonoured, statistics.retryAftersHanded)
    tally.inapplicable(.retryAfterHonoured, "no client was handed an error with a retry-after")
    tally.judged(.damagedDataNeverUploaded, history.damage.count)
    tally.inapplicable(.damagedDataNeverUploaded, "no device's stored copy was damaged")
    tally.judged(.unknownKeysKept, observer.unknownKeySaves)
    tally.inapplicable(
      .unknownKeysKept,
      setup.schemas == .none
        ? "the run has no schemas, so every app knows every key"
        : "no device saved a record holding a key its app does not know")
  }

  private func judgeEndState(quiescent: Bool, into tally: inout InvariantTally) {
    let final = server.records(in: Self.zoneID, ownedBy: Self.user)
    guard quiescent else {
      for invariant in Invariant.endState where invariant != .liveness {
        tally.inapplicable(invariant, "the world did not become quiescent (see liveness)")
      }
      return
    }
    for device in clients {
      tally.judged(.convergence)
      let pending = device.pendingChangeCount
      if pending > 0 { tally.fail(.convergence, "\(device.name) still has \(pending) queued") }
      if device.records != final {
        tally.fail(.convergence, Self.difference(device: device, server: final))
      }
    }
    if invariants.contains(.oneSidedChangesKept) {
      // Only keys users write carry unique values; bookkeeping fields (edit counts, stamps) repeat by design.
      tally.violations += observer.staleOverwrites(among: history.userKeys, unanswered: history.unansweredSaves)
    }
    let judge = IntentJudge(
      history: history,
      timeline: ServerTimeline(events: server.events, zoneID: Self.zoneID, owner: Self.user),
      deletePolicy: setup.deletePolicy, zoneDeletion: setup.zoneDeletion,
      editCountKey: setup.resolver.bookkeeping.editCountKey, stampsKey: setup.resolver.bookkeeping.fieldStampsKey,
      start: start, contracts: setup.resolver.keyContracts)
    let shown = clients.map { device in
      (
        name: device.name,
        records: Dictionary(device.records.map { ($0.recordID, $0) }, uniquingKeysWith: { a, _ in a })
      )
    }
    judge.judge(
      server: Dictionary(final.map { ($0.recordID, $0) }, uniquingKeysWith: { a, _ in a }), devices: shown,
      invariants: invariants, into: &tally)
  }

  static func difference(device: any SyncClient, server: [Record]) -> String {
    let local = Dictionary(device.records.map { ($0.recordID, $0) }, uniquingKeysWith: { a, _ in a })
    let remote = Dictionary(server.map { ($0.recordID, $0) }, uniquingKeysWith: { a, _ in a })
    for id in Set(local.keys).union(remote.keys).sorted() where local[id] != remote[id] {
      let mine = local[id].map { "\($0)" } ?? "nothing"
      let theirs = remote[id].map { "\($0)" } ?? "nothing"
      return "\(device.name) differs from the server on \(id.recordName): device has \(mine); server has \(theirs)"
    }
    return "\(device.name) differs from the server"
  }
}
