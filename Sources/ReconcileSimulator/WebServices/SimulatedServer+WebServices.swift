public import Foundation
public import Reconcile

extension SimulatedServer {
  /// Answers a Web Services request body as CloudKit would: the response body and its HTTP status.
  ///
  /// The body is decoded with `WebServices.Request(json:endpoint:)`; a body that does not decode is a 400
  /// `BAD_REQUEST` naming the problem. The request then goes where every simulated device's requests go — the same decision table,
  /// throttling and injected faults as every other client — and the reply is encoded as CloudKit's JSON.
  ///
  /// ```swift
  /// let (status, body) = server.respond(toBody: bytes, endpoint: .recordsModify, database: .private, from: caller)
  /// ```
  /// - Parameters:
  ///   - body: The request body (ignored for `zones/list`).
  ///   - endpoint: The endpoint, from the request's path.
  ///   - database: The database, from the request's path (`public`, `private` or `shared`).
  ///   - client: Who calls.
  /// - Returns: The HTTP status and the response body.
  public mutating func respond(
    toBody body: Data, endpoint: WebServices.Endpoint, database: DatabaseScope, from client: ClientIdentity
  ) -> (status: Int, body: Data) {
    let response: WebServices.Response
    do {
      let request = try WebServices.Request(json: body, endpoint: endpoint)
      response = respond(to: request, database: database, from: client)
    } catch {
      response = .error(
        WebServices.ServerError(code: .badRequest, reason: error.description, httpStatus: 400))
    }
    do {
      return (response.httpStatus, try response.jsonData())
    } catch {
      let failure = WebServices.Response.error(
        WebServices.ServerError(code: .internalError, reason: "cannot encode the response: \(error)", httpStatus: 500))
      return (500, (try? failure.jsonData()) ?? Data())
    }
  }

  /// Answers a typed Web Services request as CloudKit would; see ``respond(toBody:endpoint:database:from:)``.
  ///
  /// How operations map onto the decision table: `create` saves without a tag (an existing record is `EXISTS`);
  /// `update` and `replace` compare tags (`CONFLICT` when stale); `forceUpdate` and `forceReplace` do not; `update`
  /// and `forceUpdate` change only the fields given, `replace` and `forceReplace` remove the fields not given;
  /// `delete` and `forceDelete` both delete without comparing tags (as `CKModifyRecordsOperation` does). `atomic: true`
  /// in the default zone is refused with `BAD_REQUEST`, as CloudKit does.
  /// - Parameters:
  ///   - request: The request.
  ///   - database: The database the request's path names.
  ///   - client: Who calls.
  /// - Returns: The response, or a request-level error with its HTTP status.
  public mutating func respond(to request: WebServices.Request, database: DatabaseScope, from client: ClientIdentity)
    -> WebServices.Response
  {
    do {
      switch request {
      case .modifyRecords(let body): return try modifyRecords(body, database: database, client: client)
      case .lookupRecords(let body): return try lookupRecords(body, database: database, client: client)
      case .queryRecords(let body): return try queryRecords(body, database: database, client: client)
      case .recordChanges(let body):
        return .records(try recordChanges(body, database: database, client: client))
      case .zoneRecordChanges(let body):
        var zones: [Result<WebServices.ZoneRecordChanges, WebServices.ServerError>] = []
        for zone in body.zones {
          do {
            let page = try recordChanges(zone, database: database, client: client)
            zones.append(
              .success(
                .init(
                  zoneID: zone.zoneID, syncToken: page.syncToken, moreComing: page.moreComing, results: page.results)))
          } catch {
            var failure = error
            failure.zoneID = zone.zoneID
            failure.httpStatus = nil
            zones.append(.failure(failure))
          }
        }
        return .zoneChanges(.init(zones: zones))
      case .databaseChanges(let body), .zoneChanges(let body):
        return .zones(try databaseChanges(body, database: database, client: client))
      case .listZones: return .zones(.init(zones: try listZones(database: database, client: client).map { .zone($0) }))
      case .lookupZones(let body):
        let zones = try listZones(database: database, client: client)
        return .zones(
          .init(
            zones: body.zoneIDs.map { id in
              if let found = zones.first(where: { $0.zoneID == id }) { return .zone(found) }
              return .failed(.init(code: .zoneNotFound, reason: "Zone does not exist", zoneID: id))
            }))
      case .modifyZones(let body): return try modifyZones(body, database: database, client: client)
      }
    } catch {
      var failure = error
      if failure.httpStatus == nil { failure.httpStatus = failure.code.httpStatus }
      return .error(failure)
    }
  }

  // MARK: Endpoints

  /// Sends `request` through ``handle(_:from:)``; a request-level error becomes the Web Services error.
  private mutating func send(_ request: ServerRequest, client: ClientIdentity) throws(WebServices.ServerError)
    -> ServerReply
  {
    switch handle(request, from: client) {
    case .success(let reply): return reply
    case .failure(let error):
      var failure = error.webServicesError(reason: error.webServicesReason)
      failure.httpStatus = failure.code.httpStatus
      throw failure
    }
  }

  private mutating func modifyRecords(
    _ body: WebServices.ModifyRecordsRequest, database: DatabaseScope, client: ClientIdentity
  ) throws(WebServices.ServerError) -> WebServices.Response {
    let zone = body.zoneID ?? .default
    if body.atomic == true, zone.isDefault {
      throw .init(code: .badRequest, reason: "atomic operations not supported in default zone", httpStatus: 400)
    }
    var request = ModifyRecordsRequest(scope: database, isAtomic: body.atomic ?? true)
    var creates = Set<RecordID>()
    for operation in body.operations {
      guard var record = operation.record else {
        request.deleting.append(operation.recordID)
        continue
      }
      // A Web Services record names the fields to write; they are its changed keys.
      for key in record.allKeys { record.markChanged(key) }
      switch operation {
      case .create:
        record.recordChangeTag = nil
        creates.insert(record.recordID)
      case .forceUpdate: request.savePolicies[record.recordID] = .changedKeys
      case .replace: request.replacing.insert(record.recordID)
      case .forceReplace:
        request.savePolicies[record.recordID] = .allKeys
        request.replacing.insert(record.recordID)
      default: break
      }
      request.saving.append(record)
    }
    guard case .modifyRecords(let reply) = try send(.modifyRecords(request), client: client) else {
      throw Self.mismatchedReply
    }
    let saved = Dictionary(reply.saved.map { ($0.recordID, $0) }, uniquingKeysWith: { first, _ in first })
    for (id, share) in body.shares where saved[id] != nil {
      storeShareMembers(share, scope: database, client: client)
    }
    let deleted = Set(reply.deleted)
    let results: [WebServices.RecordResult] = body.operations.map { operation in
      let id = operation.recordID
      if let error = reply.failures[id] {
        return .failed(
          error.webServicesError(
            recordName: id.recordName, reason: error.webServicesReason, creating: creates.contains(id)))
      }
      if let record = saved[id] {
        return result(Self.trimmed(record, to: body.desiredKeys), database: database, client: client)
      }
      if deleted.contains(id) || operation.record == nil { return .deleted(id, recordType: nil) }
      return .failed(.init(code: .internalError, reason: "no result for \(id)", recordName: id.recordName))
    }
    return .records(.init(results: results))
  }

  private mutating func lookupRecords(
    _ body: WebServices.LookupRecordsRequest, database: DatabaseScope, client: ClientIdentity
  ) throws(WebServices.ServerError) -> WebServices.Response {
    let request = FetchRecordsRequest(scope: database, recordIDs: body.recordIDs, desiredKeys: body.desiredKeys)
    guard case .fetchRecords(let reply) = try send(.fetchRecords(request), client: client) else {
      throw Self.mismatchedReply
    }
    let found = Dictionary(reply.records.map { ($0.recordID, $0) }, uniquingKeysWith: { first, _ in first })
    return .records(
      .init(
        results: body.recordIDs.map { id in
          if let record = found[id] { return result(record, database: database, client: client) }
          let error = reply.failures[id] ?? .unknownItem(id)
          return .failed(error.webServicesError(recordName: id.recordName, reason: error.webServicesReason))
        }))
  }

  private mutating func queryRecords(
    _ body: WebServices.QueryRecordsRequest, database: DatabaseScope, client: ClientIdentity
  ) throws(WebServices.ServerError) -> WebServices.Response {
    var predicates: [QueryPredicate] = []
    for filter in body.query.filters { predicates.append(try Self.predicate(filter)) }
    let query = Query(
      recordType: body.query.recordType,
      predicate: predicates.isEmpty ? .all : predicates.count == 1 ? predicates[0] : .and(predicates),
      sortedBy: body.query.sorts.map { QuerySort($0.fieldName, ascending: $0.ascending) })
    let cursor = try WebServicesToken.value(QueryCursor.self, from: body.continuationMarker, key: "continuationMarker")
    let request = QueryRequest(
      scope: database, zoneID: body.zoneID ?? .default, query: query, resultsLimit: body.resultsLimit,
      desiredKeys: body.desiredKeys, cursor: cursor)
    guard case .query(let reply) = try send(.query(request), client: client) else {
      throw Self.mismatchedReply
    }
    return .records(
      .init(
        results: reply.records.map { result($0, database: database, client: client) },
        continuationMarker: reply.cursor.map(WebServicesToken.string)))
  }

  private mutating func recordChanges(
    _ body: WebServices.RecordChangesRequest, database: DatabaseScope, client: ClientIdentity
  ) throws(WebServices.ServerError) -> WebServices.RecordsResponse {
    let since = try WebServicesToken.value(ZoneChangeToken.self, from: body.syncToken, key: "syncToken")
    let request = ZoneChangesRequest(
      scope: database, zoneID: body.zoneID, since: since, resultsLimit: body.resultsLimit,
      desiredKeys: body.desiredKeys)
    let reply: ServerReply
    do {
      reply = try send(.fetchZoneChanges(request), client: client)
    } catch {
      var failure = error
      failure.zoneID = failure.zoneID ?? body.zoneID
      throw failure
    }
    guard case .zoneChanges(let changes) = reply else {
      throw Self.mismatchedReply
    }
    var results = changes.changed.filter { record in
      body.desiredRecordTypes.map { $0.contains(record.recordType) } ?? true
    }.map { result($0, database: database, client: client) }
    results += changes.deleted.map { .deleted($0.recordID, recordType: $0.recordType) }
    return .init(
      results: results, syncToken: WebServicesToken.string(changes.token), moreComing: changes.moreComing,
      zoneID: body.zoneID)
  }

  private mutating func databaseChanges(
    _ body: WebServices.ChangesRequest, database: DatabaseScope, client: ClientIdentity
  ) throws(WebServices.ServerError) -> WebServices.ZonesResponse {
    let since = try WebServicesToken.value(DatabaseChangeToken.self, from: body.syncToken, key: "syncToken")
    let request = DatabaseChangesRequest(scope: database, since: since, resultsLimit: body.resultsLimit)
    guard case .databaseChanges(let changes) = try send(.fetchDatabaseChanges(request), client: client) else {
      throw Self.mismatchedReply
    }
    var zones: [WebServices.ZoneResult] = changes.changedZones.map { .zone(.init(zoneID: $0, deleted: false)) }
    zones += changes.deletedZones.map { .zone(.init(zoneID: $0, deleted: true)) }
    zones += changes.purgedZones.map { .zone(.init(zoneID: $0, deleted: true, purged: true)) }
    // The Web Services format has no field for an encrypted-data reset: such a zone reads as deleted.
    zones += changes.resetZones.map { .zone(.init(zoneID: $0, deleted: true)) }
    return .init(zones: zones, syncToken: WebServicesToken.string(changes.token), moreComing: changes.moreComing)
  }

  /// Every zone the caller sees in `database`: the default zone (private and public) and, through the database's
  /// change feed from the start, every custom or shared zone.
  private mutating func listZones(database: DatabaseScope, client: ClientIdentity) throws(WebServices.ServerError)
    -> [WebServices.ZoneInfo]
  {
    var zones: [WebServices.ZoneInfo] = []
    if database != .shared {
      zones.append(.init(zoneID: .default, zoneType: "DEFAULT_ZONE", atomic: false))
    }
    if database == .public { return zones }
    let changes = try databaseChanges(.init(), database: database, client: client)
    for case .zone(let info) in changes.zones where info.deleted != true {
      zones.append(.init(zoneID: info.zoneID, zoneType: "REGULAR_CUSTOM_ZONE", atomic: true))
    }
    return zones
  }

  private mutating func modifyZones(
    _ body: WebServices.ModifyZonesRequest, database: DatabaseScope, client: ClientIdentity
  ) throws(WebServices.ServerError) -> WebServices.Response {
    var request = ModifyZonesRequest(scope: database)
    for operation in body.operations {
      switch operation {
      case .create(let zone): request.saving.append(RecordZone(zoneID: zone))
      case .delete(let zone): request.deleting.append(zone)
      }
    }
    guard case .modifyZones(let reply) = try send(.modifyZones(request), client: client) else {
      throw Self.mismatchedReply
    }
    let saved = Dictionary(reply.saved.map { ($0.zoneID, $0) }, uniquingKeysWith: { first, _ in first })
    return .zones(
      .init(
        zones: body.operations.map { operation in
          switch operation {
          case .create(let zone):
            let atomic = saved[zone]?.capabilities.contains(.atomic)
            return .zone(.init(zoneID: zone, zoneType: "REGULAR_CUSTOM_ZONE", atomic: atomic))
          case .delete(let zone):
            return .zone(.init(zoneID: zone, deleted: reply.deleted.contains(zone)))
          }
        }))
  }

  // MARK: Helpers

  /// What ``handle(_:from:)`` answering a request with another kind of reply would be; it never does.
  private static let mismatchedReply = WebServices.ServerError(
    code: .internalError, reason: "the server answered another request", httpStatus: 500)

  /// A record as a result entry; a share record carries the participants its zone keeps for it.
  private func result(_ record: Record, database: DatabaseScope, client: ClientIdentity) -> WebServices.RecordResult {
    guard record.recordType == Share.recordType else { return .record(record) }
    let zoneID = record.recordID.zoneID
    let owner = database == .shared ? zoneID.ownerName : client.userRecordName
    let stored = Self.storedZone(zoneID)
    let storedID = (try? RecordID(recordName: record.recordID.recordName, zoneID: stored)) ?? record.recordID
    let members = owner.flatMap { privateDatabases[$0]?.zones[stored]?.shares[storedID] }
    guard
      let share = try? Share(
        record: record, participants: members?.participants ?? [],
        publicPermission: members?.publicPermission ?? .none)
    else { return .record(record) }
    return .share(share)
  }

  private static func trimmed(_ record: Record, to keys: [String]?) -> Record {
    guard let keys else { return record }
    var trimmed = record
    for key in record.allKeys where !keys.contains(key) {
      trimmed[key] = nil
      trimmed.encryptedValues[key] = nil
    }
    trimmed.clearChangedKeys()
    return trimmed
  }

  /// A filter as the simulator's predicate; comparators the simulator does not evaluate are `BAD_REQUEST`.
  private static func predicate(_ filter: WebServices.Filter) throws(WebServices.ServerError) -> QueryPredicate {
    let key = filter.fieldName
    let value = filter.fieldValue
    switch filter.comparator {
    case .equals: return .equals(key, value)
    case .notEquals: return .notEquals(key, value)
    case .lessThan: return .lessThan(key, value)
    case .lessThanOrEquals: return .lessThanOrEqual(key, value)
    case .greaterThan: return .greaterThan(key, value)
    case .greaterThanOrEquals: return .greaterThanOrEqual(key, value)
    case .beginsWith:
      guard case .string(let prefix) = value else {
        throw .init(code: .badRequest, reason: "BEGINS_WITH on '\(key)' needs a STRING value", httpStatus: 400)
      }
      return .beginsWith(key, prefix)
    case .in, .notIn:
      guard case .list(let values) = value else {
        throw .init(code: .badRequest, reason: "\(filter.comparator) on '\(key)' needs a list value", httpStatus: 400)
      }
      return filter.comparator == .in ? .isIn(key, values) : .not(.isIn(key, values))
    default:
      throw .init(
        code: .badRequest, reason: "comparator \(filter.comparator) is not supported by the simulated server",
        httpStatus: 400)
    }
  }
}
