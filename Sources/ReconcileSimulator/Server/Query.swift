package import Reconcile

/// A condition on one record type's fields, as the `NSPredicate` subset CloudKit accepts (no OR).
///
/// Comparisons order strings, `INT64`, `DOUBLE` (numbers compare with each other) and `TIMESTAMP` values; equality works
/// on every type. A record without the field matches no comparison, and `notEquals` only when it has the field.
/// Encrypted fields cannot be queried: CloudKit cannot index them, so a predicate or sort on one is
/// ``CloudKitError/invalidArguments(reason:)``.
package indirect enum QueryPredicate: Sendable, Hashable, CustomStringConvertible {
  /// Every record of the type (`TRUEPREDICATE`).
  case all
  /// `key == value`.
  case equals(String, FieldValue)
  /// `key != value`.
  case notEquals(String, FieldValue)
  /// `key < value`.
  case lessThan(String, FieldValue)
  /// `key <= value`.
  case lessThanOrEqual(String, FieldValue)
  /// `key > value`.
  case greaterThan(String, FieldValue)
  /// `key >= value`.
  case greaterThanOrEqual(String, FieldValue)
  /// `key BEGINSWITH prefix`, on strings.
  case beginsWith(String, String)
  /// `key IN values`.
  case isIn(String, [FieldValue])
  /// Every condition holds.
  case and([QueryPredicate])
  /// The condition does not hold.
  case not(QueryPredicate)

  /// The predicate in `NSPredicate`-like text.
  package var description: String {
    switch self {
    case .all: "TRUEPREDICATE"
    case .equals(let key, let value): "\(key) == \(value)"
    case .notEquals(let key, let value): "\(key) != \(value)"
    case .lessThan(let key, let value): "\(key) < \(value)"
    case .lessThanOrEqual(let key, let value): "\(key) <= \(value)"
    case .greaterThan(let key, let value): "\(key) > \(value)"
    case .greaterThanOrEqual(let key, let value): "\(key) >= \(value)"
    case .beginsWith(let key, let prefix): "\(key) BEGINSWITH \"\(prefix)\""
    case .isIn(let key, let values): "\(key) IN \(values)"
    case .and(let parts): "(" + parts.map(\.description).joined(separator: " AND ") + ")"
    case .not(let inner): "NOT (\(inner))"
    }
  }

  /// The keys the predicate reads.
  var keys: [String] {
    switch self {
    case .all: []
    case .equals(let key, _), .notEquals(let key, _), .lessThan(let key, _), .lessThanOrEqual(let key, _),
      .greaterThan(let key, _), .greaterThanOrEqual(let key, _), .beginsWith(let key, _), .isIn(let key, _):
      [key]
    case .and(let parts): parts.flatMap(\.keys)
    case .not(let inner): inner.keys
    }
  }
}

/// One sort key of a query.
package struct QuerySort: Sendable, Hashable, CustomStringConvertible {
  /// The field to sort by.
  package var key: String
  /// Ascending (`true`) or descending.
  package var ascending: Bool

  /// Creates a sort key.
  /// - Parameters:
  ///   - key: The field.
  ///   - ascending: `true` unless given.
  package init(_ key: String, ascending: Bool = true) {
    self.key = key
    self.ascending = ascending
  }

  /// `key ASC` or `key DESC`.
  package var description: String { "\(key) \(ascending ? "ASC" : "DESC")" }
}

/// A query over one record type, as `CKQuery`.
package struct Query: Sendable, Hashable, CustomStringConvertible {
  /// The record type.
  package var recordType: String
  /// The condition.
  package var predicate: QueryPredicate
  /// Sort keys, most significant first. Records equal on every key come in record-name order, so results are stable.
  package var sortedBy: [QuerySort]

  /// Creates a query.
  /// - Parameters:
  ///   - recordType: The record type.
  ///   - predicate: The condition; every record unless given.
  ///   - sortedBy: Sort keys.
  package init(recordType: String, predicate: QueryPredicate = .all, sortedBy: [QuerySort] = []) {
    self.recordType = recordType
    self.predicate = predicate
    self.sortedBy = sortedBy
  }

  /// `Type WHERE predicate SORT keys`.
  package var description: String {
    let sort = sortedBy.isEmpty ? "" : " SORT " + sortedBy.map(\.description).joined(separator: ", ")
    return "\(recordType) WHERE \(predicate)\(sort)"
  }
}

/// Runs a ``Query`` in one zone, as `CKQueryOperation`.
package struct QueryRequest: Sendable, Hashable {
  /// The database.
  package var scope: DatabaseScope
  /// The zone; the default zone unless given.
  package var zoneID: ZoneID
  /// The query.
  package var query: Query
  /// The most records in one reply; `nil` for the server's page size (200, as Web Services).
  package var resultsLimit: Int?
  /// The keys to include: `nil` for all, `[]` for system fields only.
  package var desiredKeys: [String]?
  /// Where an earlier reply stopped; `nil` to start.
  package var cursor: QueryCursor?

  /// Creates a request.
  /// - Parameters:
  ///   - scope: `.private` unless given.
  ///   - zoneID: The zone.
  ///   - query: The query.
  ///   - resultsLimit: A page size.
  ///   - desiredKeys: The keys to include.
  ///   - cursor: Where to continue.
  package init(
    scope: DatabaseScope = .private,
    zoneID: ZoneID = .default,
    query: Query,
    resultsLimit: Int? = nil,
    desiredKeys: [String]? = nil,
    cursor: QueryCursor? = nil
  ) {
    self.scope = scope
    self.zoneID = zoneID
    self.query = query
    self.resultsLimit = resultsLimit
    self.desiredKeys = desiredKeys
    self.cursor = cursor
  }
}

/// One page of query results.
package struct QueryReply: Sendable, Hashable {
  /// The matching records of this page, in sort order.
  package var records: [Record]
  /// Where to continue; `nil` when this was the last page.
  package var cursor: QueryCursor?

  /// Creates a page.
  /// - Parameters:
  ///   - records: The records.
  ///   - cursor: The continuation, if any.
  package init(records: [Record], cursor: QueryCursor?) {
    self.records = records
    self.cursor = cursor
  }
}
