public import Foundation
public import Reconcile

/// What the simulator can do to the server from outside — faults, account states, sharing — and look at without a
/// request. None of this exists in CloudKit's API; it is how tests set up a world.
extension SimulatedServer {
  // MARK: Faults

  /// Makes the server answer the next `count` requests (from `device`, or anyone) with `error` instead of handling them.
  /// - Parameters:
  ///   - error: The error to return, such as `.zoneBusy(retryAfter: 5)` or `.networkFailure(retryAfter: nil)`.
  ///   - count: How many requests; 1 unless given.
  ///   - device: Only requests from this device; any device unless given.
  package mutating func injectFailure(_ error: CloudKitError, count: Int = 1, device: String? = nil) {
    guard count > 0 else { return }
    injected.append(InjectedFailure(error: error, remaining: count, device: device))
  }

  /// Makes the next modify request from `device` that saves something fail one item — its first save — with `error`,
  /// as CloudKit answers a per-item `zoneBusy` or `serviceUnavailable` while the request as a whole succeeds. In an
  /// atomic zone the other items fail with ``CloudKitError/batchRequestFailed``.
  /// - Parameters:
  ///   - error: The item's error, such as `.zoneBusy(retryAfter: 5)`.
  ///   - device: The device whose next save request it hits.
  package mutating func injectItemFailure(_ error: CloudKitError, device: String) {
    injectedItemFailures[device, default: []].append(error)
  }

  /// Refuses every request with `serviceUnavailable` (HTTP 503) until `seconds` of virtual time pass,
  /// as when CloudKit throttles a whole container.
  /// - Parameter seconds: How long.
  public mutating func throttle(for seconds: TimeInterval) {
    guard seconds > 0 else { return }
    throttledUntil = now.addingTimeInterval(seconds)
  }

  /// Ends every fault: injected failures, a forced throttle, device budgets and strikes.
  package mutating func clearFaults() {
    injected.removeAll()
    injectedItemFailures.removeAll()
    throttledUntil = nil
    budgets.removeAll()
    for user in quotaFullUntil.keys { quotaExceededUsers.remove(user) }
    quotaFullUntil.removeAll()
  }

  /// Fills a user's storage until `date`: saves fail with `quotaExceeded` until ``freeQuotasDue()`` runs at or after
  /// it (the user frees space), or faults are cleared.
  /// - Parameters:
  ///   - user: The user's record name.
  ///   - date: When the user frees space.
  package mutating func fillQuota(for user: String, until date: Date) {
    quotaExceededUsers.insert(user)
    quotaFullUntil[user] = date
  }

  /// Frees the storage of every user whose time to free it has come.
  package mutating func freeQuotasDue() {
    guard !quotaFullUntil.isEmpty else { return }
    for (user, date) in quotaFullUntil where date <= now {
      quotaExceededUsers.remove(user)
      quotaFullUntil[user] = nil
    }
  }

  /// When a full storage is next freed, while one is full.
  package var nextQuotaFreed: Date? { quotaFullUntil.isEmpty ? nil : quotaFullUntil.values.min() }

  /// Marks a user's storage as full (saves fail with `quotaExceeded`) or not.
  /// - Parameters:
  ///   - user: The user's record name.
  ///   - exceeded: Whether the quota is exceeded.
  public mutating func setQuotaExceeded(_ exceeded: Bool, for user: String) {
    if exceeded { quotaExceededUsers.insert(user) } else { quotaExceededUsers.remove(user) }
  }

  /// Makes every change token of a zone expire, as when the server compacts its history: the next fetch from an old
  /// token fails with `changeTokenExpired`; a fetch from `nil` still returns every record (deletions
  /// before now are forgotten).
  /// - Parameters:
  ///   - zoneID: The zone, as its owner names it.
  ///   - owner: The owner's user record name.
  public mutating func expireChangeTokens(in zoneID: ZoneID, ownedBy owner: String) {
    let stored = Self.storedZone(zoneID)
    withDatabase(.privateDatabase(owner: owner)) { database in
      guard var zone = database.zones[stored] else { return }
      let live = zone.records
      zone.log.compact(through: zone.log.sequence) { live[$0] == nil }
      let deleted = zone.deletedTypes.keys.filter { zone.log.latest[$0] == nil }
      for id in deleted { zone.deletedTypes[id] = nil }
      database.zones[stored] = zone
    }
  }

  /// Makes every database change token of a user's private database expire: the next database fetch from an old
  /// token fails with `changeTokenExpired`; a fetch from `nil` lists every zone that exists.
  /// - Parameter owner: The user's record name.
  public mutating func expireDatabaseChangeTokens(ownedBy owner: String) {
    withDatabase(.privateDatabase(owner: owner)) { database in
      let zones = database.zones
      database.zoneLog.compact(through: database.zoneLog.sequence) { zones[$0] == nil }
    }
  }

  /// Deletes a zone and its records as another client would; devices see it in the database feed as deleted, and may
  /// re-create it.
  /// - Parameters:
  ///   - zoneID: The zone.
  ///   - owner: The owner's user record name.
  public mutating func deleteZone(_ zoneID: ZoneID, ownedBy owner: String) {
    removeZone(zoneID, owner: owner, reason: .deleted, client: nil)
  }

  /// Deletes a zone as the user does in Settings ("purge"): devices see it as purged, and saves into it fail with
  /// `userDeletedZone` until a client re-creates it.
  /// - Parameters:
  ///   - zoneID: The zone.
  ///   - owner: The owner's user record name.
  public mutating func userDeletesZone(_ zoneID: ZoneID, ownedBy owner: String) {
    removeZone(zoneID, owner: owner, reason: .purged, client: nil)
  }

  /// The user resets their end-to-end encrypted data during account recovery: every custom zone of their private
  /// database goes, with its records, and devices see each as deleted by an encrypted-data reset — a sign to upload
  /// what they hold again (Apple: "consider re-uploading locally-cached data"). Saves into such a zone fail with
  /// `zoneNotFound` until a client re-creates it. Apple does not say which zones a reset takes; the simulator takes
  /// every zone but the default one, which cannot be deleted.
  /// - Parameter owner: The owner's user record name.
  public mutating func resetEncryptedData(ownedBy owner: String) {
    let zones = (privateDatabases[owner]?.zones.keys).map { Array($0) } ?? []
    for zoneID in zones.sorted(by: { $0.zoneName < $1.zoneName }) where zoneID != .default {
      removeZone(zoneID, owner: owner, reason: .encryptedDataReset, client: nil)
    }
  }

  /// Shares an owner's zone with another user, who then reaches it in the shared database as
  /// `ZoneID(zoneName:, ownerName: owner)`.
  ///
  /// As in CloudKit, the share is a record: the zone's zone-wide share, `cloudkit.zoneshare` of type `cloudkit.share`,
  /// created on first use with the owner as a participant. Each call adds, changes or removes one participant and
  /// saves the share again (a new change tag, and a change in the zone's feed), and access checks read the
  /// participants from that record — delete the share record and the zone is no longer shared.
  /// - Parameters:
  ///   - zoneID: The zone in the owner's private database.
  ///   - owner: The owner's user record name.
  ///   - participant: The user it is shared with.
  ///   - permission: What the participant may do; `nil` removes the participant, whose shared database then reports
  ///     the zone as deleted.
  package mutating func share(
    _ zoneID: ZoneID,
    ownedBy owner: String,
    with participant: String,
    permission: SharePermission?
  ) {
    let stored = Self.storedZone(zoneID)
    guard let zone = privateDatabases[owner]?.zones[stored], let id = zone.zoneShareID else { return }
    var record = zone.records[id] ?? Record(recordType: Share.recordType, recordID: id)
    var members = zone.shares[id] ?? ZoneStore.ShareMembers()
    let isNew = zone.records[id] == nil
    if isNew {
      members.participants = [
        Share.Participant(
          userIdentity: Share.UserIdentity(userRecordName: owner), role: .owner, permission: .readWrite,
          acceptanceStatus: .accepted)
      ]
    }
    members.participants.removeAll { $0.userIdentity.userRecordName == participant && $0.role != .owner }
    if let permission {
      members.participants.append(
        Share.Participant(
          userIdentity: Share.UserIdentity(userRecordName: participant), role: .privateUser,
          permission: permission == .readWrite ? .readWrite : .readOnly, acceptanceStatus: .accepted))
    }
    stampSaved(&record, isNew: isNew, user: owner, device: nil)
    let depth = configuration.ancestorDepth
    withDatabase(.privateDatabase(owner: owner)) { database in
      database.zones[stored]?.store(record, ancestorDepth: depth)
      database.setShareMembers(members, of: id, in: stored)
      database.zoneLog.append(stored)
    }
  }

  /// Records the participants and public permission of a share record a client saved (over the Web Services, where a
  /// share travels with its participants). Participants no longer listed lose the zone, as when the owner removes
  /// them. Nothing happens when the share record is not stored.
  mutating func storeShareMembers(_ share: Share, scope: DatabaseScope, client: ClientIdentity) {
    let zoneID = share.recordID.zoneID
    guard let owner = scope == .shared ? zoneID.ownerName : client.userRecordName else { return }
    let stored = Self.storedZone(zoneID)
    guard let id = try? RecordID(recordName: share.recordID.recordName, zoneID: stored),
      privateDatabases[owner]?.zones[stored]?.records[id] != nil
    else { return }
    withDatabase(.privateDatabase(owner: owner)) { database in
      database.setShareMembers(
        ZoneStore.ShareMembers(participants: share.participants, publicPermission: share.publicPermission), of: id,
        in: stored)
      database.zoneLog.append(stored)
    }
  }

  /// The zone-wide share of an owner's zone, with its participants, when the zone is shared.
  /// - Parameters:
  ///   - zoneID: The zone in the owner's private database.
  ///   - owner: The owner's user record name.
  /// - Returns: The `cloudkit.zoneshare` share, or `nil`.
  package func zoneShare(of zoneID: ZoneID, ownedBy owner: String) -> Share? {
    guard let zone = privateDatabases[owner]?.zones[Self.storedZone(zoneID)], let id = zone.zoneShareID else {
      return nil
    }
    return zone.share(id)
  }

  /// **Simulator only**: a zone-change token for "now", without replaying history. CloudKit has no such call (a client
  /// must fetch from `nil` once); tests and benchmarks use it to start a device at the present.
  /// - Parameters:
  ///   - zoneID: The zone.
  ///   - owner: The owner's user record name.
  /// - Returns: The current token, or `nil` when the zone does not exist.
  package func currentChangeToken(for zoneID: ZoneID, ownedBy owner: String) -> ZoneChangeToken? {
    privateDatabases[owner]?.zones[Self.storedZone(zoneID)]?.token
  }

  // MARK: Looking

  /// The records of a zone, sorted by ID.
  /// - Parameters:
  ///   - zoneID: The zone; the public database's default zone when `owner` is `nil`.
  ///   - owner: The owner's user record name, or `nil` for the public database.
  /// - Returns: The records as stored, or an empty list when the zone does not exist.
  public func records(in zoneID: ZoneID, ownedBy owner: String?) -> [Record] {
    let key: DatabaseKey = owner.map { .privateDatabase(owner: $0) } ?? .publicDatabase
    let zone = database(key)?.zones[Self.storedZone(zoneID)]
    return (zone?.records.values).map { $0.sorted { $0.recordID < $1.recordID } } ?? []
  }

  /// The zones of a user's private database, sorted.
  /// - Parameter owner: The user's record name.
  /// - Returns: The zones.
  package func zones(ownedBy owner: String) -> [RecordZone] {
    (privateDatabases[owner]?.zones.values.map(\.zone) ?? []).sorted { $0.zoneID < $1.zoneID }
  }

  /// How many change tags the server has handed out.
  package var changeTagsIssued: Int { tagCounter }

  /// How many entries a zone's change feed holds (live and superseded), to show compaction and history size.
  /// - Parameters:
  ///   - zoneID: The zone.
  ///   - owner: The owner's user record name.
  /// - Returns: The count, or 0 when the zone does not exist.
  package func changeLogLength(of zoneID: ZoneID, ownedBy owner: String) -> Int {
    privateDatabases[owner]?.zones[Self.storedZone(zoneID)]?.log.entries.count ?? 0
  }
}
