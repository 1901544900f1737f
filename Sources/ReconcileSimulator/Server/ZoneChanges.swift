public import Foundation
public import Reconcile

/// Asks for what changed in one zone since a token, as `CKFetchRecordZoneChangesOperation`.
public struct ZoneChangesRequest: Sendable, Hashable {
  /// The database: `.private` or `.shared` (the public database has no change feeds).
  public var scope: DatabaseScope
  /// The zone.
  public var zoneID: ZoneID
  /// The token from the last fetch; `nil` fetches the whole history.
  public var since: ZoneChangeToken?
  /// The most changes (saved records plus deletions) in one reply; `nil` for the server's own page size.
  public var resultsLimit: Int?
  /// The keys to include in each record: `nil` for all, `[]` for system fields only.
  public var desiredKeys: [String]?

  /// Creates a request.
  /// - Parameters:
  ///   - scope: `.private` unless given.
  ///   - zoneID: The zone.
  ///   - since: The last token, or `nil` for everything.
  ///   - resultsLimit: A page size, or `nil`.
  ///   - desiredKeys: The keys to include, or `nil` for all.
  public init(
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
public struct ZoneChanges: Sendable, Hashable {
  /// Records changed since the token, each once, in its latest state, in the order of their latest change.
  public var changed: [Record]
  /// Records deleted since the token.
  public var deleted: [DeletedRecord]
  /// The token to keep once these changes are applied.
  public var token: ZoneChangeToken
  /// Whether more changes remain: fetch again from ``token``.
  public var moreComing: Bool
  /// The last ``ModifyRecordsRequest/clientChangeToken`` saved into the zone.
  public var clientChangeToken: Data?

  /// Creates a page.
  /// - Parameters:
  ///   - changed: Changed records.
  ///   - deleted: Deletions.
  ///   - token: The new token.
  ///   - moreComing: Whether more remain.
  ///   - clientChangeToken: The echoed client token.
  public init(
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
