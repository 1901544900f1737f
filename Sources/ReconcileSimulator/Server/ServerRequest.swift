/// Any request a client sends, so a simulated network can carry, lose, delay or duplicate it without knowing its kind.
package indirect enum ServerRequest: Sendable, Hashable, CustomStringConvertible {
  /// Save and delete records.
  case modifyRecords(ModifyRecordsRequest)
  /// Create and delete zones.
  case modifyZones(ModifyZonesRequest)
  /// Fetch one zone's changes.
  case fetchZoneChanges(ZoneChangesRequest)
  /// Fetch a database's zone changes.
  case fetchDatabaseChanges(DatabaseChangesRequest)
  /// Fetch records by ID.
  case fetchRecords(FetchRecordsRequest)
  /// Run a query.
  case query(QueryRequest)

  /// The database addressed.
  package var scope: DatabaseScope {
    switch self {
    case .modifyRecords(let r): r.scope
    case .modifyZones(let r): r.scope
    case .fetchZoneChanges(let r): r.scope
    case .fetchDatabaseChanges(let r): r.scope
    case .fetchRecords(let r): r.scope
    case .query(let r): r.scope
    }
  }

  /// Whether the request can change server state.
  package var isWrite: Bool {
    switch self {
    case .modifyRecords, .modifyZones: true
    case .fetchZoneChanges, .fetchDatabaseChanges, .fetchRecords, .query: false
    }
  }

  /// A short summary: the operation and its size.
  package var description: String {
    switch self {
    case .modifyRecords(let r): "modifyRecords(save \(r.saving.count), delete \(r.deleting.count), \(r.savePolicy))"
    case .modifyZones(let r): "modifyZones(save \(r.saving.count), delete \(r.deleting.count))"
    case .fetchZoneChanges(let r): "fetchZoneChanges(\(r.zoneID.zoneName) since \(r.since?.description ?? "nil"))"
    case .fetchDatabaseChanges(let r): "fetchDatabaseChanges(since \(r.since?.description ?? "nil"))"
    case .fetchRecords(let r): "fetchRecords(\(r.recordIDs.count))"
    case .query(let r): "query(\(r.query))"
    }
  }
}

/// The successful answer to a ``ServerRequest``, of the matching kind.
package indirect enum ServerReply: Sendable, Hashable {
  /// Answers ``ServerRequest/modifyRecords(_:)``.
  case modifyRecords(ModifyRecordsReply)
  /// Answers ``ServerRequest/modifyZones(_:)``.
  case modifyZones(ModifyZonesReply)
  /// Answers ``ServerRequest/fetchZoneChanges(_:)``.
  case zoneChanges(ZoneChanges)
  /// Answers ``ServerRequest/fetchDatabaseChanges(_:)``.
  case databaseChanges(DatabaseChanges)
  /// Answers ``ServerRequest/fetchRecords(_:)``.
  case fetchRecords(FetchRecordsReply)
  /// Answers ``ServerRequest/query(_:)``.
  case query(QueryReply)
}
