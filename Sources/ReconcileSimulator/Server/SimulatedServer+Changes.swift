import Foundation
import Reconcile

extension SimulatedServer {
  mutating func performFetchZoneChanges(_ request: ZoneChangesRequest, as client: ClientIdentity) throws(CloudKitError)
    -> ZoneChanges
  {
    guard request.scope != .public else {
      throw .badDatabase(reason: "the public database has no change feeds; use a query")
    }
    let access = try self.access(request.scope, zone: request.zoneID, for: client, writing: false)
    guard let zone = database(access.database)?.zones[access.storedZone] else { throw missingZoneError(access) }
    guard zone.zone.capabilities.contains(.fetchChanges) else {
      throw .invalidArguments(reason: "zone \(request.zoneID) does not keep a change feed (fetchChanges capability)")
    }
    var after = 0
    if let token = request.since {
      guard Self.storedZone(token.zoneID) == access.storedZone, token.incarnation == zone.incarnation,
        zone.log.canAnswer(after: token.sequence, issuedAt: token.compactedThrough ?? 0)
      else { throw .changeTokenExpired }
      after = token.sequence
    }
    if let limit = request.resultsLimit, limit < 1 {
      throw .invalidArguments(reason: "resultsLimit \(limit) must be at least 1")
    }
    let page = zone.log.changes(after: after, limit: request.resultsLimit ?? configuration.limits.changesPageSize)
    var changed: [Record] = []
    var deleted: [DeletedRecord] = []
    for id in page.keys {
      if let record = zone.records[id] {
        changed.append(visible(record, access).keeping(request.desiredKeys))
      } else if let type = zone.deletedTypes[id] {
        deleted.append(
          DeletedRecord(recordID: access.renames ? id.movingZone(to: access.visibleZone) : id, recordType: type))
      }
    }
    let token = ZoneChangeToken(
      zoneID: request.zoneID, incarnation: zone.incarnation, sequence: page.through,
      compactedThrough: zone.log.compactedThrough)
    return ZoneChanges(
      changed: changed, deleted: deleted, token: token, moreComing: page.moreComing,
      clientChangeToken: zone.clientChangeToken)
  }

  mutating func performFetchDatabaseChanges(_ request: DatabaseChangesRequest, as client: ClientIdentity)
    throws(CloudKitError) -> DatabaseChanges
  {
    guard request.scope != .public else { throw .badDatabase(reason: "the public database has no database changes") }
    guard let user = client.userRecordName else { throw .notAuthenticated }
    if let limit = request.resultsLimit, limit < 1 {
      throw .invalidArguments(reason: "resultsLimit \(limit) must be at least 1")
    }
    // The private database is one owner's; the shared database gathers every owner who shares a zone with the user.
    let owners: [String]
    if request.scope == .private {
      owners = [user]
    } else {
      owners = privateDatabases.keys.sorted().filter { owner in
        guard owner != user, let store = privateDatabases[owner] else { return false }
        return store.zones.values.contains { $0.sharePermission(for: user) != nil }
          || store.revoked.values.contains { $0.contains(user) }
      }
    }
    var remaining = request.resultsLimit ?? configuration.limits.changesPageSize
    var sequences = request.since?.sequences ?? [:]
    var changes = DatabaseChanges(
      changedZones: [], deletedZones: [], purgedZones: [], token: DatabaseChangeToken(sequences: [:]), moreComing: false
    )
    for owner in owners {
      let store = privateDatabases[owner] ?? DatabaseStore()
      let after = sequences[owner] ?? 0
      // A fetch from the beginning (no position for this owner) is always answerable: it lists what exists.
      if sequences[owner] != nil, !store.zoneLog.canAnswer(after: after) { throw .changeTokenExpired }
      let page = store.zoneLog.changes(after: after, limit: remaining)
      for zoneID in page.keys {
        let shown = request.scope == .shared ? zoneID.owned(by: owner) : zoneID
        if request.scope == .shared, let zone = store.zones[zoneID], zone.sharePermission(for: user) == nil {
          // A share revoked since shows as a deleted zone; a zone never shared with this user does not show.
          if store.revoked[zoneID]?.contains(user) == true { changes.deletedZones.append(shown) }
          continue
        }
        func removed(_ reason: SyncEngine.ZoneDeletion.Reason) {
          switch reason {
          case .deleted: changes.deletedZones.append(shown)
          case .purged: changes.purgedZones.append(shown)
          case .encryptedDataReset: changes.resetZones.append(shown)
          }
        }
        if store.zones[zoneID] != nil {
          // Created again since a removal this feed had not reported: the removal is reported too, with its reason.
          // Apple is silent on a zone deleted and created again between two fetches; reporting both is what lets a
          // device keep or drop its data as the reason asks.
          if sequences[owner] != nil, let removal = store.lastRemoval[zoneID], removal.position > after {
            removed(removal.reason)
          }
          changes.changedZones.append(shown)
        } else {
          removed(store.removedZones[zoneID] ?? .deleted)
        }
      }
      remaining -= page.keys.count
      sequences[owner] = page.through
      if page.moreComing {
        changes.moreComing = true
        break
      }
    }
    changes.token = DatabaseChangeToken(sequences: sequences)
    return changes
  }
}

extension ZoneID {
  /// This zone named under `owner`, as the shared database shows another user's zone.
  func owned(by owner: String) -> ZoneID { (try? ZoneID(zoneName: zoneName, ownerName: owner)) ?? self }
}
