package import Foundation
import Reconcile

extension Simulation {
  /// Carries out an operation a replay script's steps cannot express (``WorldOperation``), as ``perform(_:)`` carries
  /// out a step: the trace shows `line`, the auditor hears what users did, and then ``stepInterval`` of virtual time
  /// passes (an advance lets its own time pass instead).
  /// - Parameters:
  ///   - operation: The operation.
  ///   - line: The script line that asked for it, for the trace.
  /// An operation that cannot be carried out is skipped, and the trace says why, as for a step.
  package mutating func perform(_ operation: WorldOperation, line: String) {
    traceEntries.append(.operation(line))
    let problem = operation.device.flatMap { index(of: $0) == nil ? "no device \($0)" : nil } ?? apply(operation)
    if let problem { traceEntries.append(.note(Self.skippedPrefix + problem)) }
    if case .advance(let seconds) = operation {
      pump(until: now.addingTimeInterval(max(0, seconds)))
    } else {
      pump(until: now.addingTimeInterval(Self.stepInterval))
    }
  }

  /// Whether the device called `name` (or every device, for `nil`) has nothing under way: idle, halted or offline,
  /// with no request or answer of its own on the network.
  package func isSettled(_ name: String?) -> Bool {
    for index in clients.indices where name == nil || clients[index].name == name {
      let client = clients[index]
      guard client.isIdle || client.isHalted || !client.isOnline else { return false }
      if network.messages.contains(where: { $0.device == index }) { return false }
    }
    return true
  }

  /// When something next happens by itself — a message arrives, a device wakes, full storage is freed — if anything
  /// will.
  package var nextActivity: Date? {
    var next = network.nextDelivery
    for client in clients {
      if let wake = client.nextWakeTime, next.map({ wake < $0 }) ?? true { next = wake }
    }
    if let freed = quotaFreedAt, next.map({ freed < $0 }) ?? true { next = freed }
    return next
  }

  private mutating func apply(_ operation: WorldOperation) -> String? {
    switch operation {
    case .create(let name, let record):
      guard let index = index(of: name) else { return nil }
      return userCreates(record, values: record.values, on: index)
    case .edit(let name, let id, let values, let encrypted):
      guard let index = index(of: name) else { return nil }
      if encrypted.isEmpty { return userEdits(id, values, on: index) { try $0.edit(id, setting: values, at: $1) } }
      guard clients[index] is SimulatedDevice else {
        return "the client \(setup.client.name) edits plain values only; encrypted values need the reference client"
      }
      return userEdits(id, values, on: index) { client, now in
        guard var device = client as? SimulatedDevice else { return }
        try device.edit(id, at: now) { record in
          for (key, value) in values { record[key] = value }
          for (key, value) in encrypted { record.encryptedValues[key] = value }
        }
        client = device
      }
    case .delete(let name, let id):
      guard let index = index(of: name) else { return nil }
      return userDeletes(id, on: index)
    case .install(let name, let schema, let keys):
      auditor.appInstalled(on: name, knownKeys: keys)
      withDevice(name) { $0.upgrade(to: schema) }
    case .jumpClock(let name, let seconds):
      guard seconds.isFinite else { return "a clock jumps by a finite time" }
      withDevice(name) { $0.jumpClock(by: seconds) }
    case .restart(let name):
      withDevice(name) { $0.restart() }
    case .serverError(let error, let count, let device):
      guard count >= 1 else { return "a server error strikes at least once" }
      server.injectFailure(error, count: count, device: device)
    case .disconnectAfterSave(let name):
      disconnectsAfterSave.insert(name)
    case .clearFaults:
      server.clearFaults()
      armed.removeAll()
      answersLost.removeAll()
      tornCrashArmed.removeAll()
      disconnectsAfterSave.removeAll()
      freeQuota()
    case .advance(let seconds):
      guard seconds >= 0, seconds.isFinite else { return "time only moves forward" }
    }
    return nil
  }
}
