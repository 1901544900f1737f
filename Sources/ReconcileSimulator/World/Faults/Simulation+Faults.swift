import Foundation
import Reconcile

extension Simulation {
  /// Injects a fault: arms it on the network or the device it names, or applies it to the server now.
  /// - Returns: Why the fault cannot be injected, if it cannot.
  mutating func inject(_ fault: SimulationFault) -> String? {
    switch fault {
    case .loseRequest(let device), .loseResponse(let device), .duplicate(let device), .delay(let device, _),
      .disconnectAfterSave(let device):
      network.arm(fault, for: device)
    case .transient(let device, let name, let retryAfter):
      guard let error = SimulationFault.transientError(named: name, retryAfter: retryAfter) else {
        return "no transient error \(name)"
      }
      if error.code == .networkFailure {
        // CloudKit's networkFailure means the request or its answer was lost: the device cannot tell which, so the
        // simulator takes the case no client may assume away — the server applied it, and the answer was lost.
        network.failAnswer(for: device, with: error)
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
      auditor.databaseFeedCompacted(for: nil, at: now)
    case .quotaFull(let seconds):
      server.fillQuota(for: Self.user, until: now.addingTimeInterval(TimeInterval(seconds)))
    case .deleteZone:
      removeZone(.deleted) { $0.deleteZone(Self.zoneID, ownedBy: Self.user) }
    case .purgeZone:
      removeZone(.purged) { $0.userDeletesZone(Self.zoneID, ownedBy: Self.user) }
    case .resetEncryptedData:
      removeZone(.encryptedDataReset) { $0.resetEncryptedData(ownedBy: Self.user) }
    case .tornCrash(let device, let afterWrites):
      devices.hosts.armTornCrash(on: device, afterWrites: afterWrites)
    case .corruptStorage(let device, let record):
      guard let id = try? RecordID(recordName: record, zoneID: Self.zoneID) else {
        return "invalid record name \(record)"
      }
      if devices.handle(.storageDamaged(id), on: device) { auditor.storageDamaged(on: device, recordID: id, at: now) }
    case .serverError(let code, let count, let device, let retryAfter):
      guard let error = SimulationFault.injectedError(code, retryAfter: retryAfter) else {
        return "\(code.name) cannot be injected; inject one of "
          + SimulationFault.injectableErrors.map(\.name).joined(separator: ", ")
      }
      guard count >= 1 else { return "a server error strikes at least once" }
      server.injectFailure(error, count: count, device: device)
    }
    return nil
  }

  /// Ends every fault waiting, in each part that holds one: the server's errors, throttling and full storage, what the
  /// network has armed, the torn crashes the hosts have armed.
  mutating func clearFaults() {
    server.clearFaults()
    network.clearFaults()
    devices.hosts.clearFaults()
  }

  /// Removes the zone on the server by `removal`, and tells the auditor what every device showed just before.
  private mutating func removeZone(
    _ reason: SyncEngine.ZoneDeletion.Reason, by removal: (inout SimulatedServer) -> Void
  ) {
    // The faults remove the primary account's zone: devices signed in to it show its records, and so do devices that
    // keep them through a sign-out, or while their app asks what to do with them.
    let shown = devices.indices.filter { auditor.holdingAccount(of: devices.names[$0]) == Self.user }.map {
      (device: devices.names[$0], records: devices.clients[$0].records)
    }
    let before = server.events.count
    removal(&server)
    observeServer()
    if server.events.count > before {
      statistics.zoneDeletions += 1
      auditor.zoneDeleted(position: server.events.count, reason: reason, shown: shown, at: now)
    }
  }
}
