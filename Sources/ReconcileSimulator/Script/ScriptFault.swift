package import Foundation
package import Reconcile

/// `fault …`: what goes wrong next, as a script line says it. Faults name their kind first
/// (`fault lose-response phone`); the older order (`fault phone lose-response`) still reads.
///
/// Each is one or more of the simulator's faults (``simulationFaults``), the steps every way of driving a world lowers
/// to; `fault clear` is the step that ends them (``SimulationStep/clearFaults``).
package enum ScriptFault: Sendable, Hashable, CustomStringConvertible {
  /// `fault disconnect-after-save NAME`: the device's next save reaches the server, then the device loses its
  /// network before the answer arrives.
  case disconnectAfterSave(device: String)
  /// `fault lose-response NAME [N]`: the server handles the device's next N requests but the answers are lost.
  case loseResponses(device: String, count: Int)
  /// `fault lose-request NAME`: the device's next request never reaches the server.
  case loseRequest(device: String)
  /// `fault duplicate NAME`: the device's next request reaches the server twice.
  case duplicate(device: String)
  /// `fault delay NAME 20s`: the device's next request arrives late.
  case delay(device: String, by: TimeInterval)
  /// `fault transient NAME zoneBusy 5s`: the device's next request fails with a transient error and a retry-after.
  case transient(device: String, error: String, retryAfter: TimeInterval)
  /// `fault item-transient NAME zoneBusy 5s`: one save of the device's next save request fails with a transient
  /// error.
  case itemTransient(device: String, error: String, retryAfter: TimeInterval)
  /// `fault corrupt NAME TYPE/NAME`: the device's stored copy of the record is damaged on disk; the device finds out
  /// at its next check, throws the copy away and fetches the server's again.
  case corruptStorage(device: String, record: RecordPath)
  /// `fault torn-crash NAME [after N]`: the device crashes between two persistence writes of its next answer that
  /// takes more than N (1 unless given), after the Nth.
  case tornCrash(device: String, afterWrites: Int = 1)
  /// `fault throttle 30s`: the whole container answers `serviceUnavailable` with a retry-after.
  case throttle(TimeInterval)
  /// `fault error NAME [N] [--device D] [--retry-after 5s]`: the server answers the next N requests with an error.
  case error(CloudKitError.Code, count: Int, device: String?, retryAfter: TimeInterval)
  /// `fault expire-tokens`: the server compacts its history; old change tokens expire.
  case expireTokens
  /// `fault expire-database-tokens`: the user's database change tokens expire.
  case expireDatabaseTokens
  /// `fault quota-full 30s`: the user's iCloud storage is full for a while.
  case quotaFull(TimeInterval)
  /// `fault delete-zone`: the zone and its records are deleted, as by another client.
  case deleteZone
  /// `fault purge-zone`: the user deletes the app's data in Settings.
  case purgeZone
  /// `fault reset-encrypted-data`: the user resets their encrypted data; the zone is deleted.
  case resetEncryptedData
  /// `fault clear`: ends every fault.
  case clear

  /// The device the fault is aimed at, if any.
  package var device: String? {
    switch self {
    case .disconnectAfterSave(let device), .loseResponses(let device, _), .loseRequest(let device),
      .duplicate(let device), .delay(let device, _), .transient(let device, _, _), .itemTransient(let device, _, _),
      .corruptStorage(let device, _), .tornCrash(let device, _):
      device
    case .error(_, _, let device, _): device
    case .throttle, .expireTokens, .expireDatabaseTokens, .quotaFull, .deleteZone, .purgeZone, .resetEncryptedData,
      .clear:
      nil
    }
  }

  /// The simulator's faults this line arms, in order; `nil` when the simulator's network cannot cause it (or a
  /// duration is not whole seconds, which its faults count in, or a count is below 1).
  package var simulationFaults: [SimulationFault]? {
    func seconds(_ value: TimeInterval) -> Int? { value >= 0 ? DurationSyntax.wholeSeconds(value) : nil }
    switch self {
    case .loseResponses(let device, let count):
      return count >= 1 ? Array(repeating: .loseResponse(device: device), count: count) : nil
    case .loseRequest(let device): return [.loseRequest(device: device)]
    case .duplicate(let device): return [.duplicate(device: device)]
    case .delay(let device, let wait): return seconds(wait).map { [.delay(device: device, seconds: $0)] }
    case .transient(let device, let error, let wait):
      return seconds(wait).map { [.transient(device: device, error: error, retryAfter: $0)] }
    case .itemTransient(let device, let error, let wait):
      return seconds(wait).map { [.itemTransient(device: device, error: error, retryAfter: $0)] }
    case .corruptStorage(let device, let record):
      guard record.recordType == Simulation.recordType else { return nil }
      return [.corruptStorage(device: device, record: record.recordName)]
    case .tornCrash(let device, let after): return [.tornCrash(device: device, afterWrites: after)]
    case .throttle(let wait): return seconds(wait).map { [.throttle(seconds: $0)] }
    case .expireTokens: return [.expireTokens]
    case .expireDatabaseTokens: return [.expireDatabaseTokens]
    case .quotaFull(let wait): return seconds(wait).map { [.quotaFull(seconds: $0)] }
    case .deleteZone: return [.deleteZone]
    case .purgeZone: return [.purgeZone]
    case .resetEncryptedData: return [.resetEncryptedData]
    case .disconnectAfterSave(let device): return [.disconnectAfterSave(device: device)]
    case .error(let code, let count, let device, let wait):
      return [.serverError(code: code, count: count, device: device, retryAfter: wait)]
    case .clear: return nil
    }
  }

  /// The line for one of the simulator's faults, in the language's current form.
  /// - Parameter fault: A simulator fault.
  /// - Returns: The line's command.
  package init(_ fault: SimulationFault) {
    switch fault {
    case .loseRequest(let device): self = .loseRequest(device: device)
    case .loseResponse(let device): self = .loseResponses(device: device, count: 1)
    case .duplicate(let device): self = .duplicate(device: device)
    case .delay(let device, let seconds): self = .delay(device: device, by: TimeInterval(seconds))
    case .transient(let device, let error, let wait):
      self = .transient(device: device, error: error, retryAfter: TimeInterval(wait))
    case .itemTransient(let device, let error, let wait):
      self = .itemTransient(device: device, error: error, retryAfter: TimeInterval(wait))
    case .throttle(let seconds): self = .throttle(TimeInterval(seconds))
    case .expireTokens: self = .expireTokens
    case .expireDatabaseTokens: self = .expireDatabaseTokens
    case .quotaFull(let seconds): self = .quotaFull(TimeInterval(seconds))
    case .deleteZone: self = .deleteZone
    case .purgeZone: self = .purgeZone
    case .resetEncryptedData: self = .resetEncryptedData
    case .corruptStorage(let device, let record):
      self = .corruptStorage(
        device: device, record: RecordPath(recordType: Simulation.recordType, recordName: record))
    case .tornCrash(let device, let after): self = .tornCrash(device: device, afterWrites: after)
    case .serverError(let code, let count, let device, let wait):
      self = .error(code, count: count, device: device, retryAfter: wait)
    case .disconnectAfterSave(let device): self = .disconnectAfterSave(device: device)
    }
  }

  /// The fault as a script line, in the language's current form: `fault lose-response d1`.
  package var description: String {
    func seconds(_ value: TimeInterval) -> String {
      DurationSyntax.wholeSeconds(value).map { "\($0)s" } ?? DurationSyntax.render(value)
    }
    switch self {
    case .loseRequest(let device): return "fault lose-request \(device)"
    case .loseResponses(let device, let count): return "fault lose-response \(device)" + (count == 1 ? "" : " \(count)")
    case .duplicate(let device): return "fault duplicate \(device)"
    case .delay(let device, let wait): return "fault delay \(device) \(seconds(wait))"
    case .transient(let device, let error, let wait): return "fault transient \(device) \(error) \(seconds(wait))"
    case .itemTransient(let device, let error, let wait):
      return "fault item-transient \(device) \(error) \(seconds(wait))"
    case .throttle(let wait): return "fault throttle \(seconds(wait))"
    case .expireTokens: return "fault expire-tokens"
    case .expireDatabaseTokens: return "fault expire-database-tokens"
    case .quotaFull(let wait): return "fault quota-full \(seconds(wait))"
    case .deleteZone: return "fault delete-zone"
    case .purgeZone: return "fault purge-zone"
    case .resetEncryptedData: return "fault reset-encrypted-data"
    case .corruptStorage(let device, let record): return "fault corrupt \(device) \(record)"
    case .tornCrash(let device, let after): return "fault torn-crash \(device)" + (after == 1 ? "" : " after \(after)")
    case .disconnectAfterSave(let device): return "fault disconnect-after-save \(device)"
    case .error(let code, let count, let device, let wait):
      return "fault error \(code.name) \(count)" + (device.map { " --device \($0)" } ?? "")
        + (wait == ScriptParser.defaultRetryAfter ? "" : " --retry-after \(seconds(wait))")
    case .clear: return "fault clear"
    }
  }
}
