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
    if let name = step.device, !devices.hosts.isRunning(name), !step.reachesQuitApp {
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
    case .sync(let name): devices.handle(.syncRequested, on: name)
    case .crash(let name):
      guard let index = index(of: name) else { return nil }
      endProcess(on: index, name)
    case .quit(let name):
      guard let index = index(of: name) else { return nil }
      // The process ends as in a crash (what it had not persisted, and the answer it awaited, are gone), and stays
      // ended: the pump passes it by until it launches.
      endProcess(on: index, name)
      devices.hosts.quit(name)
    case .launch(let name):
      guard let index = index(of: name), let known = devices.hosts.launch(name) else {
        return "the app on \(name) is running"
      }
      // CKSyncEngine: several account changes while the app was not running arrive as one, from the last known
      // state to the current one; none when they come back to where they were.
      if let change = SyncEngine.AccountChange(from: known, to: devices.hosts.accounts[name]) {
        accountChanged(change, on: index)
      }
    case .offline(let name): if let index = index(of: name) { devices.setNetwork(of: index, online: false) }
    case .online(let name): if let index = index(of: name) { devices.setNetwork(of: index, online: true) }
    case .clockJump(let name, let seconds):
      guard seconds.isFinite else { return "a clock jumps by a finite time" }
      devices.handle(.clockJumped(seconds), on: name)
    case .restart(let name):
      devices.handle(.restarted, on: name)
    case .upgrade(let name, let version?):
      guard let schema = declaredApps[version] else { return "no schema declared for app version \(version)" }
      auditor.appInstalled(on: name, knownKeys: Set(schema.recordSchemas.values.flatMap { $0.fields.keys }))
      devices.handle(.upgraded(schema), on: name)
    case .upgrade(let name, nil):
      guard setup.schemas != .none else { return "the run has no schemas to upgrade" }
      devices.hosts.upgrade(name)
      announceApp(on: name)
      let schema = AppSchemas.upgraded(setup.schemas)
      devices.handle(.upgraded(schema), on: name)
    case .resetSync(let name):
      guard let index = index(of: name) else { return nil }
      statistics.syncResets += 1
      devices.clients[index].handle(.syncReset)
      // The device reads the database feed from the beginning now: why a zone went before is lost to it.
      auditor.databaseFeedCompacted(for: name, at: now)
    case .account(let name, let user):
      guard let index = index(of: name), let change = devices.hosts.signIn(name, to: user) else { return nil }
      statistics.accountChanges += 1
      // An OS setting: it changes while the app is not running too, which learns of it at launch.
      if devices.isRunning(index) { accountChanged(change, on: index) }
    case .answerAccount(let name, let keep):
      guard let index = index(of: name) else { return nil }
      guard case .accountChanged? = devices.clients[index].haltReason else {
        return "no account question is open on \(name)"
      }
      let kept = devices.clients[index].records
      guard devices.clients[index].handle(.accountQuestionAnswered(keepingData: keep)) else {
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

  /// The running app on device `index` learns that its account changed (to the one its host is signed in to now): the
  /// auditor hears what the app answers with, then the app.
  private mutating func accountChanged(_ change: SyncEngine.AccountChange, on index: Int) {
    let name = devices.names[index]
    auditor.accountChanged(
      on: name, to: devices.hosts.accounts[name], response: devices.clients[index].accountChangeResponse, at: now)
    devices.clients[index].handle(.accountChanged(change))
  }

  /// The app on device `index` ends, keeping only what it persisted (the client relaunches from that, as after a
  /// crash); the auditor learns that its awaited answer is lost and where its persisted token stands.
  private mutating func endProcess(on index: Int, _ name: String) {
    let before = devices.clients[index].persistedZoneToken
    devices.clients[index].handle(.crashed)
    auditor.crashed(index, name, lostAnswer: nil)
    auditor.tokenMoved(on: name, from: before, to: devices.clients[index].persistedZoneToken)
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
      (id, before) = (edited, devices.clients[index].record(edited))
      // Records are named by name alone, so the type a step names must be the one the device holds.
      if let held = before, held.recordType != type {
        return "\(devices.names[index]) holds \(held.recordType)/\(id.recordName), not a \(type)"
      }
    }
    let tear = userOperationTear(on: index)
    do {
      if let tear {
        try devices.clients[index].perform(operation, at: now, crashingAfterWrites: tear)
      } else {
        try devices.clients[index].perform(operation, at: now)
      }
    } catch {
      return String(describing: error)
    }
    noteAction(noted, device: index, recordID: id, before: before)
    if tear != nil { tornCrashStruck(on: index) }
    return nil
  }

  /// After how many of its writes the user operation about to be performed on device `index` is torn: a torn crash
  /// armed there strikes between the operation's persistence writes when its client makes more than one. Otherwise
  /// the crash stays armed for the next answer, counting the operation's writes; a client that writes once per
  /// operation leaves it as it was.
  private mutating func userOperationTear(on index: Int) -> Int? {
    let writes = devices.clients[index].writesPerUserOperation
    guard writes > 1 else { return nil }
    let name = devices.names[index]
    guard let armed = devices.hosts.tornCrash(on: name) else { return nil }
    guard armed < writes else {
      devices.hosts.armTornCrash(on: name, afterWrites: armed - writes)
      return nil
    }
    return armed
  }

  /// The torn crash of device `index`'s user operation struck: the process ends after the user saw the operation done.
  private mutating func tornCrashStruck(on index: Int) {
    let name = devices.names[index]
    devices.hosts.tornCrashStruck(on: name)
    statistics.tornCrashes += 1
    traceEntries.append(.note("\(name) crashed between two persistence writes of the user's operation"))
    endProcess(on: index, name)
  }

  /// Why an app cannot write one of `keys`: a key its schema does not know (an app writes only fields it declares; a
  /// shrunk script may ask for one after dropping the upgrade step).
  func unknownKey(in keys: some Collection<String>, device: String) -> String? {
    guard let known = AppSchemas.knownKeys(upgraded: devices.hosts.isUpgraded(device), scenario: setup.schemas) else {
      return nil
    }
    return keys.sorted().first { !known.contains($0) }.map { "the app on \(device) does not know the key \($0)" }
  }

  /// A user acted on device `index`: tells the auditor, with what the device showed before and shows after, and —
  /// when devices send after edits — asks the device to send.
  mutating func noteAction(
    _ kind: UserAction, device index: Int, recordID: RecordID, before: Record?
  ) {
    if setup.sendsAfterEdits { devices.clients[index].handle(.sendRequested) }
    switch kind {
    case .create(let values):
      auditor.userWrote(Array(values.values), under: auditor.writingAccount(of: devices.names[index]))
    case .edit(let values):
      auditor.userWrote(Array(values.values), under: auditor.writingAccount(of: devices.names[index]))
    case .delete: break
    }
    auditor.userActed(
      on: devices.names[index], recordID: recordID, kind: kind, shownBefore: before,
      shownAfter: devices.clients[index].record(recordID), at: now)
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
    for name in devices.hosts.notRunning.keys.sorted() {
      traceEntries.append(.note("\(name) launched"))
      _ = apply(.launch(device: name))
    }
    for index in devices.indices { devices.setNetwork(of: index, online: true) }
    for round in 1...max(1, maximumRounds) {
      statistics.quiescenceRounds = round
      restartHaltedDevices()
      let before = server.events.count
      // A device signed out of iCloud syncs nothing until its user signs in, which quiescence does not do for them.
      for index in devices.indices where devices.isSignedIn(index) { devices.clients[index].handle(.syncRequested) }
      var waited = 0
      while waited < 3_600, !devices.allIdle || !network.isEmpty {
        pump(until: now.addingTimeInterval(10))
        waited += 10
        if statistics.requests > budget {
          traceEntries.append(.note("not quiescent: the devices spent the request budget (\(requestBudget) each)"))
          return false
        }
      }
      if server.events.count == before, devices.allIdle, network.isEmpty,
        devices.indices.allSatisfy({ !devices.clients[$0].isHalted || !devices.isSignedIn($0) })
      {
        return true
      }
    }
    traceEntries.append(.note("not quiescent after \(maximumRounds) rounds"))
    return false
  }

  private mutating func restartHaltedDevices() {
    // A question nobody answered, signed in or out: the run ends with the answer Apple recommends, delete.
    for index in devices.indices {
      guard case .accountChanged? = devices.clients[index].haltReason,
        apply(.answerAccount(device: devices.names[index], keepingData: false)) == nil
      else { continue }
      traceEntries.append(.note("\(devices.names[index]): the account question answered delete"))
    }
    for index in devices.indices where devices.isSignedIn(index) {
      guard let reason = devices.clients[index].haltReason else { continue }
      if case .schema = reason, setup.schemas != .none, devices.hosts.upgrade(devices.names[index]) {
        announceApp(on: devices.names[index])
        devices.clients[index].handle(.upgraded(AppSchemas.upgraded(setup.schemas)))
        traceEntries.append(.note("\(devices.names[index]) upgraded after a schema halt"))
      }
      devices.clients[index].handle(.restarted)
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
          uniqueKeysWithValues: devices.hosts.accountsUsed.subtracting([Self.user]).map {
            ($0, server.records(in: Self.zoneID, ownedBy: $0))
          }),
        serverEvents: server.events,
        devices: devices.indices.map {
          EndState.Device(
            name: devices.names[$0], records: devices.clients[$0].records,
            pendingChangeCount: devices.clients[$0].pendingChangeCount,
            account: devices.hosts.accounts[devices.names[$0]])
        }))
  }
}
