package import Reconcile

/// Asks which zones changed in a database since a token, as `CKFetchDatabaseChangesOperation`.
package struct DatabaseChangesRequest: Sendable, Hashable {
  /// The database: `.private` or `.shared`.
  package var scope: DatabaseScope
  /// The token from the last fetch; `nil` for everything.
  package var since: DatabaseChangeToken?
  /// The most zones in one reply; `nil` for the server's own page size.
  package var resultsLimit: Int?

  /// Creates a request.
  /// - Parameters:
  ///   - scope: `.private` unless given.
  ///   - since: The last token.
  ///   - resultsLimit: A page size.
  package init(scope: DatabaseScope = .private, since: DatabaseChangeToken? = nil, resultsLimit: Int? = nil) {
    self.scope = scope
    self.since = since
    self.resultsLimit = resultsLimit
  }
}

/// One page of a database's feed of zone changes.
package struct DatabaseChanges: Sendable, Hashable {
  /// Zones whose records changed (or that were created).
  package var changedZones: [ZoneID]
  /// Zones deleted by a client: their records are gone; a client may re-create the zone and upload again.
  package var deletedZones: [ZoneID]
  /// Zones the user wiped in Settings: delete local data and do not upload it again.
  package var purgedZones: [ZoneID]
  /// Zones an encrypted-data reset deleted: the user still wants what devices hold, so upload it again.
  package var resetZones: [ZoneID]
  /// The token to keep once these changes are handled.
  package var token: DatabaseChangeToken
  /// Whether more remain.
  package var moreComing: Bool

  /// Creates a page.
  /// - Parameters:
  ///   - changedZones: Changed zones.
  ///   - deletedZones: Deleted zones.
  ///   - purgedZones: Purged zones.
  ///   - resetZones: Zones an encrypted-data reset deleted.
  ///   - token: The new token.
  ///   - moreComing: Whether more remain.
  package init(
    changedZones: [ZoneID],
    deletedZones: [ZoneID],
    purgedZones: [ZoneID],
    resetZones: [ZoneID] = [],
    token: DatabaseChangeToken,
    moreComing: Bool
  ) {
    self.changedZones = changedZones
    self.deletedZones = deletedZones
    self.purgedZones = purgedZones
    self.resetZones = resetZones
    self.token = token
    self.moreComing = moreComing
  }

  /// Every zone removal the page reports, each with its reason (a zone is reported under one reason: its last).
  package var zoneDeletions: [SyncEngine.ZoneDeletion] {
    deletedZones.map { SyncEngine.ZoneDeletion(zoneID: $0, reason: .deleted) }
      + purgedZones.map { SyncEngine.ZoneDeletion(zoneID: $0, reason: .purged) }
      + resetZones.map { SyncEngine.ZoneDeletion(zoneID: $0, reason: .encryptedDataReset) }
  }
}
