package import Foundation
package import Reconcile

/// Asks for what changed in one zone since a token, as `CKFetchRecordZoneChangesOperation`.
package struct ZoneChangesRequest: Sendable, Hashable {
  /// The database: `.private` or `.shared` (the public database has no change feeds).
  package var scope: DatabaseScope
  /// The zone.
  package var zoneID: ZoneID
  /// The token from the last fetch; `nil` fetches the whole history.
  package var since: ZoneChangeToken?
  /// The most changes (saved records plus deletions) in one reply; `nil` for the server's own page size.
  package var resultsLimit: Int?
  /// The keys to include in each record: `nil` for all, `[]` for system fields only.
  package var desiredKeys: [String]?

  /// Creates a request.
  /// - Parameters:
  ///   - scope: `.private` unless given.
  ///   - zoneID: The zone.
  ///   - since: The last token, or `nil` for everything.
  ///   - resultsLimit: A page size, or `nil`.
  ///   - desiredKeys: The keys to include, or `nil` for all.
  package init(
    scope: DatabaseScope = .private,
    zoneID: ZoneID,
    since: ZoneChangeToken? = nil,
    resultsLimit: Int? = nil,
    desiredKeys: [String]? = nil
  ) {
    self.scope = scope
    self.zoneID = zoneID
    self.since = since
    self.resultsLimit = resultsLimit
    self.desiredKeys = desiredKeys
  }
}

/// One page of a zone's change feed.
package struct ZoneChanges: Sendable, Hashable {
  /// Records changed since the token, each once, in its latest state, in the order of their latest change.
  package var changed: [Record]
  /// Records deleted since the token.
  package var deleted: [DeletedRecord]
  /// The token to keep once these changes are applied.
  package var token: ZoneChangeToken
  /// Whether more changes remain: fetch again from ``token``.
  package var moreComing: Bool
  /// The last ``ModifyRecordsRequest/clientChangeToken`` saved into the zone.
  package var clientChangeToken: Data?

  /// Creates a page.
  /// - Parameters:
  ///   - changed: Changed records.
  ///   - deleted: Deletions.
  ///   - token: The new token.
  ///   - moreComing: Whether more remain.
  ///   - clientChangeToken: The echoed client token.
  package init(
    changed: [Record],
    deleted: [DeletedRecord],
    token: ZoneChangeToken,
    moreComing: Bool,
    clientChangeToken: Data? = nil
  ) {
    self.changed = changed
    self.deleted = deleted
    self.token = token
    self.moreComing = moreComing
    self.clientChangeToken = clientChangeToken
  }
}
