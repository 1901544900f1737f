import Foundation
import Reconcile
import ReconcileSimulator

extension PlaygroundSession {
  /// Checks an expectation.
  /// - Returns: `ok: …` saying what held.
  /// - Throws: ``ScriptError`` starting `expectation failed:` with what was expected and what was found.
  func check(_ expectation: Expectation) throws(ScriptError) -> String {
    switch expectation {
    case .invariants: throw Self.simulatorOnly("expect invariants")
    case .converged:
      if let problem = convergenceProblem() { throw Self.failed("converged, but \(problem)") }
      return "ok: converged"
    case .halted(let name):
      let device = devices[try index(of: name)]
      guard let reason = device.haltReason else { throw Self.failed("\(name) halted, but it is \(device.status)") }
      return "ok: \(name) halted: \(reason)"
    case .status(let name, let status):
      let device = devices[try index(of: name)]
      guard device.status == status else { throw Self.failed("\(name) \(status), but it is \(device.status)") }
      return "ok: \(name) is \(status)"
    case .exists(let place, let path, let exists):
      let found = try record(path, at: place) != nil
      guard found == exists else {
        throw Self.failed("\(place) \(path) \(exists ? "exists" : "absent"), but it is \(found ? "there" : "absent")")
      }
      return "ok: \(place) \(path) \(exists ? "exists" : "is absent")"
    case .field(let place, let path, let key, let comparison, let expected):
      guard let record = try record(path, at: place) else {
        throw Self.failed("\(place) \(path) \(key) \(comparison.rawValue) …, but \(place) has no \(path)")
      }
      let actual = record[key] ?? record.encryptedValuesByKey[key]
      let holds = comparison == .equal ? actual == expected : actual != expected
      let shown = record.encryptedValuesByKey[key] != nil ? RecordText.redacted : ValueSyntax.render(actual)
      let wanted = record.encryptedValuesByKey[key] != nil ? RecordText.redacted : ValueSyntax.render(expected)
      guard holds else {
        throw Self.failed("\(place) \(path) \(key) \(comparison.rawValue) \(wanted), but it is \(shown)")
      }
      return "ok: \(place) \(path) \(key) = \(shown)"
    case .metric(let place, let metric, let comparison, let number):
      let actual = try self.metric(metric, at: place)
      guard comparison.holds(actual, number) else {
        throw Self.failed(
          "\(place) \(metric) \(comparison.rawValue) \(Self.number(number)), but it is \(Self.number(actual))")
      }
      return "ok: \(place) \(metric) = \(Self.number(actual))"
    }
  }

  /// Why the world has not converged, or `nil` when it has: no device halted or with changes queued, and every
  /// device holding exactly the server's records and values.
  func convergenceProblem() -> String? {
    for device in devices {
      if device.isHalted { return "\(device.name) is halted" }
      if !device.storage.pending.isEmpty {
        return "\(device.name) has \(device.storage.pending.count) change(s) queued"
      }
      // A device holds its own user's zone only.
      let own =
        device.configuration.userRecordName.map {
          server.records(in: Simulation.zoneID, ownedBy: $0).sorted { $0.recordID < $1.recordID }
        } ?? []
      let local = device.records
      guard local.count == own.count else {
        return "\(device.name) holds \(local.count) record(s), the server \(own.count)"
      }
      for (mine, theirs) in zip(local, own) {
        guard mine.recordID == theirs.recordID, mine.values == theirs.values,
          mine.encryptedValuesByKey == theirs.encryptedValuesByKey
        else { return "\(device.name) differs from the server on \(RecordText.path(mine))" }
      }
    }
    return nil
  }

  /// Notes that the devices agree, when they do: the next change starts a new round of intents, and until then the
  /// last round's can still be asked what was lost.
  mutating func clearIntentsIfConverged() {
    if convergenceProblem() == nil { intentsAreSettled = true }
  }

  /// The changes devices made since they last agreed that the server does not hold: `phone: title="b"`,
  /// `phone's delete`, `mac's edit (record deleted)`.
  /// - Parameter id: Only this record; every record unless given.
  func lostChanges(for id: RecordID? = nil) -> [String] {
    let server = Dictionary(serverRecords.map { ($0.recordID, $0) }, uniquingKeysWith: { first, _ in first })
    var lost: [String] = []
    for device in devices {
      for (recordID, intent) in (intents[device.name] ?? [:]).sorted(by: { $0.key < $1.key })
      where id == nil || recordID == id {
        let onServer = server[recordID]
        switch intent {
        case .delete:
          if onServer != nil { lost.append("\(device.name)'s delete") }
        case .fields(let changes):
          guard let onServer else {
            lost.append("\(device.name)'s edit (deleted)")
            continue
          }
          for (key, value) in changes.sorted(by: { $0.key < $1.key })
          where (onServer[key] ?? onServer.encryptedValuesByKey[key]) != value {
            let shown = onServer.encryptedValuesByKey[key] != nil ? RecordText.redacted : ValueSyntax.render(value)
            lost.append("\(device.name): \(key)=\(shown)")
          }
        }
      }
    }
    return lost
  }

  private func record(_ path: RecordPath, at place: Place) throws(ScriptError) -> Record? {
    let id = try Self.recordID(path)
    switch place {
    case .server: return serverRecords.first { $0.recordID == id }
    case .device(let name): return devices[try index(of: name)].record(id)
    }
  }

  private func metric(_ metric: String, at place: Place) throws(ScriptError) -> Double {
    guard case .device(let name) = place else {
      guard metric == "records" else { throw ScriptError("the server counts only records, not \(metric)") }
      return Double(serverRecords.count)
    }
    let device = devices[try index(of: name)]
    let counter = counters[name, default: SyncCounters()]
    switch metric {
    case "records": return Double(device.records.count)
    case "queued": return Double(device.storage.pending.count)
    case "requests": return Double(counter.requests)
    case "errors": return Double(counter.errors.values.reduce(0, +))
    case "waited": return counter.waited
    default:
      let code = String(metric.dropFirst("errors:".count))
      return Double(counter.errors[code] ?? 0)
    }
  }

  private static func failed(_ text: String) -> ScriptError { ScriptError("expectation failed: expected \(text)") }

  private static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }
}
