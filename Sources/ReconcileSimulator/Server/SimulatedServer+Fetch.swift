import Foundation
import Reconcile

extension SimulatedServer {
  mutating func performFetchRecords(_ request: FetchRecordsRequest, as client: ClientIdentity) throws(CloudKitError)
    -> FetchRecordsReply
  {
    if request.scope != .public, client.userRecordName == nil { throw .notAuthenticated }
    var reply = FetchRecordsReply(records: [], failures: [:])
    for id in request.recordIDs {
      do throws(CloudKitError) {
        let access = try self.access(request.scope, zone: id.zoneID, for: client, writing: false)
        guard let zone = database(access.database)?.zones[access.storedZone] else { throw missingZoneError(access) }
        let stored = access.renames ? id.movingZone(to: access.storedZone) : id
        guard let record = zone.records[stored] else { throw .unknownItem(id) }
        reply.records.append(visible(record, access).keeping(request.desiredKeys))
      } catch {
        reply.failures[id] = error
      }
    }
    return reply
  }

  mutating func performQuery(_ request: QueryRequest, as client: ClientIdentity) throws(CloudKitError) -> QueryReply {
    let access = try self.access(request.scope, zone: request.zoneID, for: client, writing: false)
    guard let zone = database(access.database)?.zones[access.storedZone] else { throw missingZoneError(access) }
    let query = request.query
    if let limit = request.resultsLimit, limit < 1 {
      throw .invalidArguments(reason: "resultsLimit \(limit) must be at least 1")
    }
    let text = "\(request.scope) \(request.zoneID) \(query)"
    var offset = 0
    if let cursor = request.cursor {
      guard cursor.query == text else {
        throw .invalidArguments(reason: "the cursor continues another query (\(cursor.query))")
      }
      offset = cursor.offset
    }
    var matches: [Record] = []
    for record in zone.records.values where record.recordType == query.recordType {
      for key in query.predicate.keys + query.sortedBy.map(\.key) where record.encryptedValues[key] != nil {
        throw .invalidArguments(reason: "field '\(key)' is encrypted and cannot be queried or sorted")
      }
      if QueryEvaluation.matches(record, query.predicate) { matches.append(record) }
    }
    matches.sort { QueryEvaluation.precedes($0, $1, by: query.sortedBy) }
    let limit = request.resultsLimit ?? configuration.limits.queryPageSize
    let page = matches.dropFirst(offset).prefix(limit)
    let end = offset + page.count
    return QueryReply(
      records: page.map { visible($0, access).keeping(request.desiredKeys) },
      cursor: end < matches.count ? QueryCursor(query: text, offset: end) : nil)
  }
}

/// How query predicates and sorts read field values.
enum QueryEvaluation {
  static func matches(_ record: Record, _ predicate: QueryPredicate) -> Bool {
    switch predicate {
    case .all: return true
    case .equals(let key, let value): return record[key].map { equal($0, value) } ?? false
    case .notEquals(let key, let value): return record[key].map { !equal($0, value) } ?? false
    case .lessThan(let key, let value): return compare(record[key], value).map { $0 < 0 } ?? false
    case .lessThanOrEqual(let key, let value): return compare(record[key], value).map { $0 <= 0 } ?? false
    case .greaterThan(let key, let value): return compare(record[key], value).map { $0 > 0 } ?? false
    case .greaterThanOrEqual(let key, let value): return compare(record[key], value).map { $0 >= 0 } ?? false
    case .beginsWith(let key, let prefix):
      guard case .string(let text)? = record[key] else { return false }
      return text.hasPrefix(prefix)
    case .isIn(let key, let values):
      guard let value = record[key] else { return false }
      return values.contains { equal(value, $0) }
    case .and(let parts): return parts.allSatisfy { matches(record, $0) }
    case .not(let inner): return !matches(record, inner)
    }
  }

  static func equal(_ a: FieldValue, _ b: FieldValue) -> Bool { compare(a, b).map { $0 == 0 } ?? (a == b) }

  /// -1, 0 or 1 for comparable values (strings, numbers, dates); `nil` otherwise.
  static func compare(_ a: FieldValue?, _ b: FieldValue) -> Int? {
    switch (a, b) {
    case (.string(let x)?, .string(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.timestamp(let x)?, .timestamp(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    default:
      guard let x = a.flatMap(number), let y = number(b) else { return nil }
      return x < y ? -1 : (x == y ? 0 : 1)
    }
  }

  private static func number(_ value: FieldValue) -> Double? {
    switch value {
    case .int64(let n): Double(n)
    case .double(let d): d
    default: nil
    }
  }

  /// Orders by the sort keys; a record without a key sorts after those with it; ties by record name.
  static func precedes(_ a: Record, _ b: Record, by sorts: [QuerySort]) -> Bool {
    for sort in sorts {
      let x = a[sort.key]
      let y = b[sort.key]
      switch (x, y) {
      case (nil, nil): continue
      case (nil, _): return false
      case (_, nil): return true
      case (let x?, let y?):
        guard let order = compare(x, y), order != 0 else { continue }
        return sort.ascending ? order < 0 : order > 0
      }
    }
    return a.recordID.recordName < b.recordID.recordName
  }
}
