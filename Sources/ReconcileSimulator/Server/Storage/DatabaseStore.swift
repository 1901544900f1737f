import Reconcile

/// One database: its zones, its feed of zone changes, and who lost access to a shared zone. Who a zone is shared with
/// is read from the zone's share record (``ZoneStore/shares``).
struct DatabaseStore: Sendable {
  var zones: [ZoneID: ZoneStore] = [:]
  var zoneLog = ChangeLog<ZoneID>()
  /// How each zone whose latest database change is its removal went away.
  var removedZones: [ZoneID: SyncEngine.ZoneDeletion.Reason] = [:]
  /// Each zone's latest removal — its position in the zone feed, and why — kept after a client creates the zone again,
  /// so a feed from before the removal reports both: a device learns why its data went even when the zone is back.
  var lastRemoval: [ZoneID: (position: Int, reason: SyncEngine.ZoneDeletion.Reason)] = [:]
  /// Zones the user deleted in Settings: saves into them fail with `userDeletedZone` until a client re-creates them.
  var userDeletedZones: Set<ZoneID> = []
  /// Users whose access to a zone was revoked: their shared database reports the zone as deleted.
  var revoked: [ZoneID: Set<String>] = [:]

  /// A user's private database as CloudKit hands it out: its default zone exists from the start (no change feed, no
  /// atomic batches, no sharing), and custom zones are created by clients.
  static var newPrivate: DatabaseStore {
    var store = DatabaseStore()
    store.zones[.default] = ZoneStore(zone: RecordZone(zoneID: .default), incarnation: 0)
    return store
  }

  /// Sets (or, with `nil`, removes) the participants of share record `id` in `zone`, and keeps ``revoked`` in step:
  /// an invitee the share no longer lists loses the zone (their shared database reports it deleted); one it lists
  /// again has it back. The one place share membership changes, whoever changes it.
  mutating func setShareMembers(_ members: ZoneStore.ShareMembers?, of id: RecordID, in zone: ZoneID) {
    let before = zones[zone]?.shares[id]?.invitees ?? []
    let after = members?.invitees ?? []
    zones[zone]?.shares[id] = members
    for user in before.subtracting(after) { revoked[zone, default: []].insert(user) }
    for user in after { revoked[zone]?.remove(user) }
  }
}
