import Foundation
import Reconcile

extension SimulatedServer {
  mutating func performModifyZones(_ request: ModifyZonesRequest, as client: ClientIdentity) throws(CloudKitError)
    -> ModifyZonesReply
  {
    guard let user = client.userRecordName else { throw .notAuthenticated }
    guard request.scope == .private else {
      throw .badDatabase(
        reason: "zones can be created and deleted only in the private database, not the \(request.scope) one")
    }
    for zone in request.saving + request.deleting.map({ RecordZone(zoneID: $0) }) {
      guard zone.zoneID.ownerName == ZoneID.defaultOwnerName || zone.zoneID.ownerName == user else {
        throw .permissionFailure(reason: "zone \(zone.zoneID) belongs to another user")
      }
      guard !zone.zoneID.isDefault else {
        throw .invalidArguments(reason: "the default zone always exists and cannot be saved or deleted")
      }
    }
    var reply = ModifyZonesReply()
    for zone in request.saving {
      reply.saved.append(createZone(zone, owner: user, client: client))
    }
    for zoneID in request.deleting {
      removeZone(zoneID, owner: user, reason: .deleted, client: client)
      reply.deleted.append(zoneID)
    }
    return reply
  }

  mutating func createZone(_ zone: RecordZone, owner: String, client: ClientIdentity?) -> RecordZone {
    let stored = Self.storedZone(zone.zoneID)
    if let existing = privateDatabases[owner]?.zones[stored] { return existing.zone }
    incarnationCounter += 1
    let incarnation = incarnationCounter
    withDatabase(.privateDatabase(owner: owner)) { database in
      database.zones[stored] = ZoneStore(
        zone: RecordZone(zoneID: stored, capabilities: zone.capabilities), incarnation: incarnation)
      database.userDeletedZones.remove(stored)
      database.removedZones[stored] = nil
      database.zoneLog.append(stored)
    }
    logEvent(.zoneCreated(stored), by: client, in: .privateDatabase(owner: owner))
    return RecordZone(zoneID: zone.zoneID, capabilities: zone.capabilities)
  }

  mutating func removeZone(
    _ zoneID: ZoneID, owner: String, reason: SyncEngine.ZoneDeletion.Reason, client: ClientIdentity?
  ) {
    let stored = Self.storedZone(zoneID)
    let existed = withDatabase(.privateDatabase(owner: owner)) { database -> Bool in
      guard database.zones.removeValue(forKey: stored) != nil else { return false }
      database.removedZones[stored] = reason
      if reason == .purged { database.userDeletedZones.insert(stored) }
      database.lastRemoval[stored] = (database.zoneLog.append(stored), reason)
      return true
    }
    if existed { logEvent(.zoneDeleted(stored, reason: reason), by: client, in: .privateDatabase(owner: owner)) }
  }
}
