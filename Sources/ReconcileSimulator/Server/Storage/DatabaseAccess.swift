import Reconcile

/// Which stored database a request lands in.
enum DatabaseKey: Sendable, Hashable {
  case publicDatabase
  case privateDatabase(owner: String)

  var owner: String? {
    switch self {
    case .publicDatabase: nil
    case .privateDatabase(let owner): owner
    }
  }
}

/// Where one zone of a request is stored and what the client may do there.
struct ZoneAccess: Sendable {
  var database: DatabaseKey
  /// The zone's ID as stored: private zones under the default owner name.
  var storedZone: ZoneID
  /// The zone's ID as the client names it; records go back out under this ID.
  var visibleZone: ZoneID
  var scope: DatabaseScope

  /// Whether records must be renamed between the stored and the visible zone (shared zones).
  var renames: Bool { storedZone != visibleZone }
}

extension SimulatedServer {
  /// Finds where `zoneID` of `scope` lives for `client`, or the error CloudKit gives.
  ///
  /// Public: anyone reads, only signed-in users write, only the default zone exists. Private: a signed-in user's own
  /// zones; another owner's name is a ``CloudKitError/permissionFailure(reason:)``. Shared: zones another user shared
  /// with this one; writing needs ``SharePermission/readWrite``.
  func access(_ scope: DatabaseScope, zone zoneID: ZoneID, for client: ClientIdentity, writing: Bool)
    throws(CloudKitError)
    -> ZoneAccess
  {
    switch scope {
    case .public:
      if writing, client.userRecordName == nil { throw .notAuthenticated }
      guard zoneID.isDefault else { throw .zoneNotFound(zoneID) }
      return ZoneAccess(database: .publicDatabase, storedZone: .default, visibleZone: zoneID, scope: scope)
    case .private:
      guard let user = client.userRecordName else { throw .notAuthenticated }
      guard zoneID.ownerName == ZoneID.defaultOwnerName || zoneID.ownerName == user else {
        throw .permissionFailure(reason: "zone \(zoneID) belongs to another user's private database")
      }
      let stored = Self.storedZone(zoneID)
      return ZoneAccess(database: .privateDatabase(owner: user), storedZone: stored, visibleZone: zoneID, scope: scope)
    case .shared:
      guard let user = client.userRecordName else { throw .notAuthenticated }
      let owner = zoneID.ownerName
      guard owner != ZoneID.defaultOwnerName, owner != user else {
        throw .badDatabase(reason: "zone \(zoneID) is in your private database, not the shared one")
      }
      let stored = Self.storedZone(zoneID)
      guard let permission = privateDatabases[owner]?.zones[stored]?.sharePermission(for: user) else {
        throw .permissionFailure(reason: "zone \(zoneID) is not shared with \(user)")
      }
      if writing, permission == .readOnly {
        throw .permissionFailure(reason: "\(user) has read-only access to zone \(zoneID)")
      }
      return ZoneAccess(database: .privateDatabase(owner: owner), storedZone: stored, visibleZone: zoneID, scope: scope)
    }
  }

  static func storedZone(_ zoneID: ZoneID) -> ZoneID {
    if zoneID.ownerName == ZoneID.defaultOwnerName { return zoneID }
    return (try? ZoneID(zoneName: zoneID.zoneName)) ?? zoneID
  }

  func database(_ key: DatabaseKey) -> DatabaseStore? {
    switch key {
    case .publicDatabase: publicDatabase
    case .privateDatabase(let owner): privateDatabases[owner] ?? .newPrivate
    }
  }

  /// Runs `body` on the stored database in place (creating an empty private database on first use).
  mutating func withDatabase<T, E: Error>(_ key: DatabaseKey, _ body: (inout DatabaseStore) throws(E) -> T) throws(E)
    -> T
  {
    switch key {
    case .publicDatabase: return try body(&publicDatabase)
    case .privateDatabase(let owner): return try body(&privateDatabases[owner, default: .newPrivate])
    }
  }

  /// The error for a zone that does not exist: `userDeletedZone` after the user wiped it, else `zoneNotFound`.
  func missingZoneError(_ access: ZoneAccess) -> CloudKitError {
    if database(access.database)?.userDeletedZones.contains(access.storedZone) == true {
      return .userDeletedZone(access.visibleZone)
    }
    return .zoneNotFound(access.visibleZone)
  }
}

extension Record {
  /// This record moved to another zone: its ID, parent and references into `from` now point into `to`. Used to show a
  /// shared zone under its owner's name.
  func movingZone(from: ZoneID, to: ZoneID) -> Record {
    guard from != to else { return self }
    func move(_ id: RecordID) -> RecordID {
      guard id.zoneID == from else { return id }
      return (try? RecordID(recordName: id.recordName, zoneID: to)) ?? id
    }
    func move(_ value: FieldValue) -> FieldValue {
      switch value {
      case .reference(let reference):
        .reference(Reference(recordID: move(reference.recordID), action: reference.action))
      case .list(let items): .list(items.map(move))
      default: value
      }
    }
    var moved = self
    moved.recordID = move(recordID)
    for (key, value) in values { moved[key] = move(value) }
    moved.parent = parent.map { Reference(recordID: move($0.recordID), action: $0.action) }
    moved.share = share.map { Reference(recordID: move($0.recordID), action: $0.action) }
    moved.clearChangedKeys()
    for key in changedKeys { moved.markChanged(key) }
    return moved
  }

  /// Keeps only `desiredKeys` (all when `nil`; none, system fields only, when empty).
  func keeping(_ desiredKeys: [String]?) -> Record {
    guard let desiredKeys else { return self }
    var kept = systemFieldsOnly
    for key in desiredKeys {
      if let value = encryptedValues[key] {
        kept.encryptedValues[key] = value
      } else if let value = self[key] {
        kept[key] = value
      }
    }
    kept.clearChangedKeys()
    return kept
  }
}
