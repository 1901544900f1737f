import Foundation
import Reconcile

extension Simulation {
  /// Performs one step, then lets ``stepInterval`` of virtual time pass (a wait step lets its own time pass instead).
  /// - Parameter step: The step.
  public mutating func perform(_ step: SimulationStep) {
    steps.append(step)
    statistics.steps += 1
    traceEntries.append(.step(steps.count))
    if let problem = apply(step) {
      statistics.skippedSteps += 1
      traceEntries.append(.note(Self.skippedPrefix + problem))
    }
    if case .advance(let seconds) = step {
      pump(until: now.addingTimeInterval(seconds.isFinite ? max(0, seconds) : 0))
    } else {
      pump(until: now.addingTimeInterval(Self.stepInterval))
    }
  }

  /// How the trace begins the note of a step that could not apply; what follows says why.
  static let skippedPrefix = "skipped: "

  /// Applies a step; returns why it could not apply, if it could not.
  private mutating func apply(_ step: SimulationStep) -> String? {
    if let name = step.device, index(of: name) == nil { return "no device \(name)" }
    if let name = step.device, !hosts.isRunning(name), !step.reachesQuitApp {
      return "the app on \(name) is not running"
    }
    switch step {
    case .create(let name, let record):
      guard let index = index(of: name) else { return nil }
      let values = record.values
      if record.recordType == Simulation.recordType, let unknown = unknownKey(in: values.keys, device: name) {
        return unknown
      }
      return userPerforms(.create(record), of: record.recordType, noted: .create(values), on: index)
    case .edit(let name, let type, let id, let values, let encrypted):
      guard let index = index(of: name) else { return nil }
      if type == Simulation.recordType, let unknown = unknownKey(in: values.keys, device: name) { return unknown }
      return userPerforms(.edit(id, values: values, encrypted: encrypted), of: type, noted: .edit(values), on: index)
    case .delete(let name, let type, let id):
      guard let index = index(of: name) else { return nil }
      return userPerforms(.delete(id), of: type, noted: .delete, on: index)
    case .sync(let name): withDevice(name) { $0.handle(.syncRequested) }
    case .crash(let name):
      guard let index = index(of: name) else { return nil }
      endProcess(on: index, name)
    case .quit(let name):
      guard let index = index(of: name) else { return nil }
      // The process ends as in a crash (what it had not persisted, and the answer it awaited, are gone), and stays
      // ended: the pump passes it by until it launches.
      endProcess(on: index, name)
      hosts.quit(name)
    case .launch(let name):
      guard let index = index(of: name), let known = hosts.launch(name) else {
        return "the app on \(name) is running"
      }
      // CKSyncEngine: several account changes while the app was not running arrive as one, from the last known
      // state to the current one; none when they come back to where they were.
      if let change = SyncEngine.AccountChange(from: known, to: hosts.accounts[name]) {
        auditor.accountChanged(
          on: name, to: hosts.accounts[name], response: clients[index].accountChangeResponse, at: now)
        clients[index].handle(.accountChanged(change))
      }
    case .offline(let name): if let index = index(of: name) { setNetwork(of: index, online: false) }
    case .online(let name): if let index = index(of: name) { setNetwork(of: index, online: true) }
    case .clockJump(let name, let seconds):
      guard seconds.isFinite else { return "a clock jumps by a finite time" }
      withDevice(name) { $0.handle(.clockJumped(seconds)) }
    case .restart(let name):
      withDevice(name) { $0.handle(.restarted) }
    case .upgrade(let name, let version?):
      guard let schema = declaredApps[version] else { return "no schema declared for app version \(version)" }
      auditor.appInstalled(on: name, knownKeys: Set(schema.recordSchemas.values.flatMap { $0.fields.keys }))
      withDevice(name) { $0.handle(.upgraded(schema)) }
    case .upgrade(let name, nil):
      guard setup.schemas != .none else { return "the run has no schemas to upgrade" }
      hosts.upgrade(name)
      announceApp(on: name)
      let schema = AppSchemas.upgraded(setup.schemas)
      withDevice(name) { $0.handle(.upgraded(schema)) }
    case .resetSync(let name):
      guard index(of: name) != nil else { return nil }
      statistics.syncResets += 1
      withDevice(name) { $0.handle(.syncReset) }
      // The device reads the database feed from the beginning now: why a zone went before is lost to it.
      auditor.databaseFeedCompacted(for: name, at: now)
    case .account(let name, let user):
      guard index(of: name) != nil else { return nil }
      guard let change = hosts.signIn(name, to: user) else { return nil }
      statistics.accountChanges += 1
      // An OS setting: it changes while the app is not running too, which learns of it at launch.
      if !hosts.isRunning(name) { return nil }
      auditor.accountChanged(
        on: name, to: user, response: index(of: name).map { clients[$0].accountChangeResponse } ?? .deleteLocalData,
        at: now)
      withDevice(name) { $0.handle(.accountChanged(change)) }
    case .answerAccount(let name, let keep):
      guard let index = index(of: name) else { return nil }
      guard case .accountChanged? = clients[index].haltReason else { return "no account question is open on \(name)" }
      let kept = clients[index].records
      guard clients[index].handle(.accountQuestionAnswered(keepingData: keep)) else {
        return "the app on \(name) asked nothing"
      }
      auditor.accountAnswered(on: name, keepingData: keep, at: now)
      // Kept, every record the app showed becomes the user's own in the account signed in to: each as if the user
      // created it there (whatever the app then holds: one that drops them is caught losing them).
      if keep {
        for record in kept {
          noteAction(.create(auditor.keptValues(of: record)), device: index, recordID: record.recordID, before: nil)
        }
      }
    case .advance(let seconds):
      guard seconds >= 0, seconds.isFinite else { return "time only moves forward" }
    case .fault(let fault):
      return inject(fault)
    case .clearFaults:
      clearFaults()
    }
    return nil
  }

  /// The app on device `index` ends, keeping only what it persisted (the client relaunches from that, as after a
  /// crash); the auditor learns that its awaited answer is lost and where its persisted token stands.
  private mutating func endProcess(on index: Int, _ name: String) {
    let before = clients[index].persistedZoneToken
    clients[index].handle(.crashed)
    auditor.crashed(index, name, lostAnswer: nil)
    auditor.tokenMoved(on: name, from: before, to: clients[index].persistedZoneToken)
  }

  /// The user on device `index` carries out `operation` on a record of type `type`; the auditor hears it as `noted`
  /// (the plain values it judges).
  /// - Returns: Why it could not apply (the device holds another type under the name) or the client refused, or `nil`.
  mutating func userPerforms(
    _ operation: UserOperation, of type: String, noted: UserAction, on index: Int
  ) -> String? {
    let id: RecordID
    let before: Record?
    switch operation {
    case .create(let record):
      (id, before) = (record.recordID, nil)
    case .edit(let edited, _, _), .delete(let edited):
      (id, before) = (edited, clients[index].record(edited))
      // Records are named by name alone, so the type a step names must be the one the device holds.
      if let held = before, held.recordType != type {
        return "\(clientNames[index]) holds \(held.recordType)/\(id.recordName), not a \(type)"
      }
    }
    do {
      try clients[index].perform(operation, at: now)
    } catch {
      return String(describing: error)
    }
    noteAction(noted, device: index, recordID: id, before: before)
    return nil
  }

  /// Why an app cannot write one of `keys`: a key its schema does not know (an app writes only fields it declares; a
  /// shrunk script may ask for one after dropping the upgrade step).
  func unknownKey(in keys: some Collection<String>, device: String) -> String? {
    guard let known = AppSchemas.knownKeys(upgraded: hosts.isUpgraded(device), scenario: setup.schemas) else {
      return nil
    }
    return keys.sorted().first { !known.contains($0) }.map { "the app on \(device) does not know the key \($0)" }
  }

  /// A user acted on device `index`: tells the auditor, with what the device showed before and shows after, and —
  /// when devices send after edits — asks the device to send.
  mutating func noteAction(
    _ kind: UserAction, device index: Int, recordID: RecordID, before: Record?
  ) {
    if setup.sendsAfterEdits { clients[index].handle(.sendRequested) }
    switch kind {
    case .create(let values):
      auditor.userWrote(Array(values.values), under: auditor.writingAccount(of: clientNames[index]))
    case .edit(let values):
      auditor.userWrote(Array(values.values), under: auditor.writingAccount(of: clientNames[index]))
    case .delete: break
    }
    auditor.userActed(
      on: clientNames[index], recordID: recordID, kind: kind, shownBefore: before,
      shownAfter: clients[index].record(recordID), at: now)
  }

  /// The device at `index` loses its network or has it back: its host notes it, which the scheduler and the settling
  /// check read, and its client hears of it.
  mutating func setNetwork(of index: Int, online: Bool) {
    hosts.setOnline(clientNames[index], online)
    clients[index].handle(online ? .cameOnline : .wentOffline)
  }

  /// Whether the device at `index` has a network.
  func isOnline(_ index: Int) -> Bool { hosts.isOnline(clientNames[index]) }

  mutating func withDevice(_ name: String, _ body: (inout any SyncClient) -> Void) {
    guard let index = index(of: name) else { return }
    body(&clients[index])
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
    clearFaults()
    let budget = statistics.requests + requestBudget * max(1, clients.count)
    // A run ends with every app running: a quit one launches, and learns of account changes made meanwhile.
    for name in hosts.notRunning.keys.sorted() {
      traceEntries.append(.note("\(name) launched"))
      _ = apply(.launch(device: name))
    }
    for index in clients.indices { setNetwork(of: index, online: true) }
    for round in 1...max(1, maximumRounds) {
      statistics.quiescenceRounds = round
      restartHaltedDevices()
      let before = server.events.count
      // A device signed out of iCloud syncs nothing until its user signs in, which quiescence does not do for them.
      for index in clients.indices where signedIn(index) { clients[index].handle(.syncRequested) }
      var waited = 0
      while waited < 3_600, !allIdle() || !network.isEmpty {
        pump(until: now.addingTimeInterval(10))
        waited += 10
        if statistics.requests > budget {
          traceEntries.append(.note("not quiescent: the devices spent the request budget (\(requestBudget) each)"))
          return false
        }
      }
      if server.events.count == before, allIdle(), network.isEmpty,
        clients.indices.allSatisfy({ !clients[$0].isHalted || !signedIn($0) })
      {
        return true
      }
    }
    traceEntries.append(.note("not quiescent after \(maximumRounds) rounds"))
    return false
  }

  /// Whether every device is idle, halted, or signed out (waiting, with what it holds, for its user to sign in).
  private func allIdle() -> Bool {
    clients.indices.allSatisfy { clients[$0].isIdle || clients[$0].isHalted || !signedIn($0) }
  }

  /// Whether the app on the device at `index` is running (not quit).
  func isRunning(_ index: Int) -> Bool { hosts.notRunning.isEmpty || hosts.isRunning(clientNames[index]) }

  /// Whether the device at `index` is signed in to an iCloud account.
  private func signedIn(_ index: Int) -> Bool { hosts.accounts[clientNames[index]] != nil }

  private mutating func restartHaltedDevices() {
    // A question nobody answered, signed in or out: the run ends with the answer Apple recommends, delete.
    for index in clients.indices {
      guard case .accountChanged? = clients[index].haltReason,
        apply(.answerAccount(device: clientNames[index], keepingData: false)) == nil
      else { continue }
      traceEntries.append(.note("\(clientNames[index]): the account question answered delete"))
    }
    for index in clients.indices where signedIn(index) {
      guard let reason = clients[index].haltReason else { continue }
      if case .schema = reason, setup.schemas != .none, hosts.upgrade(clientNames[index]) {
        announceApp(on: clientNames[index])
        clients[index].handle(.upgraded(AppSchemas.upgraded(setup.schemas)))
        traceEntries.append(.note("\(clientNames[index]) upgraded after a schema halt"))
      }
      clients[index].handle(.restarted)
    }
  }

  // MARK: Judging

  /// Checks the invariants of this run against the current state; call after ``quiesce(maximumRounds:requestBudget:)``.
  /// - Parameter quiescent: What quiescence returned.
  /// - Returns: The broken invariants, in a fixed order.
  public func checkInvariants(quiescent: Bool) -> [InvariantViolation] { judge(quiescent: quiescent).violations }

  /// The auditor's verdict on the run so far. `quiescent` is `nil` when the run was not driven to quiescence.
  func judge(quiescent: Bool?) -> Verdict {
    guard let quiescent else { return auditor.verdict(end: nil) }
    return auditor.verdict(
      end: EndState(
        quiescent: quiescent, serverRecords: server.records(in: Self.zoneID, ownedBy: Self.user),
        otherAccounts: Dictionary(
          uniqueKeysWithValues: hosts.accountsUsed.subtracting([Self.user]).map {
            ($0, server.records(in: Self.zoneID, ownedBy: $0))
          }),
        serverEvents: server.events,
        devices: clients.indices.map {
          EndState.Device(
            name: clientNames[$0], records: clients[$0].records, pendingChangeCount: clients[$0].pendingChangeCount,
            account: hosts.accounts[clientNames[$0]])
        }))
  }
}
