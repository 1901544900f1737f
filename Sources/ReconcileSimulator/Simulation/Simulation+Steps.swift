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
      var new = Record(recordType: "Note", recordID: id)
      for (key, value) in values { new[key] = value }
      do {
        try devices[index].create(new, at: now)
      } catch {
        return error.description
      }
      observer.noteEdit(device: devices[index], recordID: id, values: values.mapValues { Optional($0) }, setup: setup)
    case .edit(let name, let record, let values):
      guard let index = index(of: name), let id = try? RecordID(recordName: record, zoneID: Self.zoneID) else {
        return "invalid record name \(record)"
      }
      do {
        try devices[index].edit(id, setting: values, at: now)
      } catch {
        return error.description
      }
      observer.noteEdit(device: devices[index], recordID: id, values: values, setup: setup)
    case .delete(let name, let record):
      guard let index = index(of: name), let id = try? RecordID(recordName: record, zoneID: Self.zoneID) else {
        return "invalid record name \(record)"
      }
      do {
        try devices[index].delete(id, at: now)
      } catch {
        return error.description
      }
      observer.noteDelete(device: name, recordID: id)
    case .sync(let name): withDevice(name) { $0.requestSync() }
    case .crash(let name): withDevice(name) { $0.crash() }
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

  private mutating func withDevice(_ name: String, _ body: (inout SimulatedDevice) -> Void) {
    guard let index = index(of: name) else { return }
    body(&devices[index])
  }

  private mutating func inject(_ fault: SimulationFault) {
    switch fault {
    case .loseRequest(let device), .loseResponse(let device), .duplicate(let device), .delay(let device, _):
      armed[device, default: []].append(fault)
    case .transient(let device, let name, let retryAfter):
      if let error = SimulationFault.transientError(named: name, retryAfter: retryAfter) {
        server.injectFailure(error, count: 1, device: device)
      }
    case .throttle(let seconds):
      server.throttle(for: TimeInterval(seconds))
    case .expireTokens:
      server.expireChangeTokens(in: Self.zoneID, ownedBy: Self.user)
      observer.compactions.append(server.events.count)
    case .deleteZone:
      server.deleteZone(Self.zoneID, ownedBy: Self.user)
      observeServer()
    case .corruptStorage(let device, let record):
      guard let id = try? RecordID(recordName: record, zoneID: Self.zoneID) else { return }
      withDevice(device) { $0.corruptStoredRecord(id) }
      observer.noteDamage(device: device, recordID: id)
    }
  }

  // MARK: Quiescence

  /// Ends every fault, brings every device online, restarts halted devices (upgrading those halted by a newer app's
  /// records), and syncs until a whole round changes nothing on the server with every device idle.
  /// - Parameter maximumRounds: The liveness bound; 30 rounds unless given, each up to an hour of virtual time.
  /// - Returns: Whether the world became quiescent within the bound.
  public mutating func quiesce(maximumRounds: Int = 30) -> Bool {
    traceEntries.append(.quiesce)
    server.clearFaults()
    armed.removeAll()
    for index in devices.indices { devices[index].goOnline() }
    for round in 1...max(1, maximumRounds) {
      statistics.quiescenceRounds = round
      restartHaltedDevices()
      let before = server.events.count
      for index in devices.indices { devices[index].requestSync() }
      var waited = 0
      while waited < 3_600, !allIdle() || !network.isEmpty {
        pump(until: now.addingTimeInterval(10))
        waited += 10
      }
      if server.events.count == before, allIdle(), network.isEmpty, devices.allSatisfy({ !$0.isHalted }) {
        return true
      }
    }
    traceEntries.append(.note("not quiescent after \(maximumRounds) rounds"))
    return false
  }

  private func allIdle() -> Bool { devices.allSatisfy { $0.isIdle || $0.isHalted } }

  private mutating func restartHaltedDevices() {
    for index in devices.indices {
      guard let reason = devices[index].haltReason else { continue }
      if case .schema = reason, setup.schemas != .none, !upgraded.contains(devices[index].name) {
        upgraded.insert(devices[index].name)
        devices[index].upgrade(to: AppSchemas.upgraded(setup.schemas))
        traceEntries.append(.note("\(devices[index].name) upgraded after a schema halt"))
      }
      devices[index].restart()
    }
  }

  // MARK: Invariants

  /// Checks the invariants of this run against the current state; call after ``quiesce(maximumRounds:)``.
  /// - Parameter quiescent: What quiescence returned.
  /// - Returns: The broken invariants, in a fixed order.
  public func checkInvariants(quiescent: Bool) -> [InvariantViolation] {
    var found = liveViolations + observer.violations
    if !quiescent { found.append(InvariantViolation(.liveness, "no quiescence within the bound")) }
    let final = server.records(in: Self.zoneID, ownedBy: Self.user)
    if quiescent {
      for device in devices {
        if !device.storage.pending.isEmpty {
          found.append(
            InvariantViolation(.convergence, "\(device.name) still has \(device.storage.pending.count) queued"))
        }
        if device.records != final {
          found.append(InvariantViolation(.convergence, Self.difference(device: device, server: final)))
        }
      }
      found += observer.lostOneSidedChanges()
      found += observer.lowerEditCounts(final: final)
      found += observer.olderStamps(final: final)
    }
    return found.filter { invariants.contains($0.invariant) }
  }

  static func difference(device: SimulatedDevice, server: [Record]) -> String {
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
