package import Reconcile

/// Where a client stands in one zone's change feed. Opaque to clients: keep it, hand it back, compare only for equality.
package struct ZoneChangeToken: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The zone the token belongs to.
  package let zoneID: ZoneID
  /// Which incarnation of the zone: deleting and re-creating a zone starts a new one, so old tokens expire.
  let incarnation: Int
  /// The last change the client has seen.
  let sequence: Int
  /// How far the zone's history had been forgotten when the token was issued (`nil` for not at all): a token issued
  /// since the last compaction stays answerable even when it stands inside the forgotten part, as the pages of a
  /// fetch from the beginning do.
  let compactedThrough: Int?

  package init(zoneID: ZoneID, incarnation: Int, sequence: Int, compactedThrough: Int = 0) {
    self.zoneID = zoneID
    self.incarnation = incarnation
    self.sequence = sequence
    self.compactedThrough = compactedThrough > 0 ? compactedThrough : nil
  }

  /// `zone@incarnation.sequence`, for logs.
  package var description: String { "\(zoneID.zoneName)@\(incarnation).\(sequence)" }
}

/// Where a client stands in a database's feed of changed and deleted zones.
package struct DatabaseChangeToken: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The last change seen in each owner's database: one entry for a private database, one per sharing owner for the
  /// shared database.
  let sequences: [String: Int]

  init(sequences: [String: Int]) { self.sequences = sequences }

  /// `db[owner.sequence, …]`, for logs.
  package var description: String {
    "db[" + sequences.keys.sorted().map { "\($0).\(sequences[$0] ?? 0)" }.joined(separator: ", ") + "]"
  }
}

/// Where a query stopped, to continue it with ``QueryRequest/cursor``.
package struct QueryCursor: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The query it continues, as text, so a cursor cannot continue a different query.
  let query: String
  /// How many results were handed out already.
  let offset: Int

  init(query: String, offset: Int) {
    self.query = query
    self.offset = offset
  }

  /// `cursor@offset`, for logs.
  package var description: String { "cursor@\(offset)" }
}
