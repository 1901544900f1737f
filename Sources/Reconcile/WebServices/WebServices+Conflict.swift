import Foundation

extension WebServices {
  /// Why a `CONFLICT` and a lookup did not make a ``Conflict``.
  public enum ConflictLookupError: Error, Sendable, Hashable, DescribedError {
    /// The error is not a `CONFLICT`.
    case notAConflict(ErrorCode)
    /// The lookup has no entry for the record.
    case recordNotInLookup(RecordID)
    /// The lookup says the record is gone from the server: there is nothing to merge with; apply your delete policy.
    case serverRecordDeleted(RecordID)
    /// The lookup failed for the record.
    case lookupFailed(ServerError)

    /// A sentence naming the record and what went wrong.
    public var description: String {
      switch self {
      case .notAConflict(let code): return "the error is \(code), not CONFLICT; there is no conflict to resolve"
      case .recordNotInLookup(let id): return "the lookup response has no entry for \(id)"
      case .serverRecordDeleted(let id): return "\(id) was deleted on the server; apply the delete policy instead"
      case .lookupFailed(let error): return "looking up the server's record failed: \(error)"
      }
    }
  }
}

extension WebServices.ServerError {
  /// The `records/lookup` request that fetches the server's version of the record a `CONFLICT` is about.
  ///
  /// A Web Services `CONFLICT` carries only `{recordName, reason, serverErrorCode}`, unlike `CKError`'s
  /// `serverRecordChanged`, which carries the server's record. Send this request, then call
  /// ``conflict(client:ancestor:lookup:)`` with its response.
  /// - Parameter client: The record the failed save sent.
  /// - Returns: A lookup of that record in its zone.
  public func lookupRequest(for client: Record) -> WebServices.LookupRecordsRequest {
    WebServices.LookupRecordsRequest(zoneID: client.recordID.zoneID, recordIDs: [client.recordID])
  }

  /// The conflict to hand a resolver: this `CONFLICT`, the record the app sent, the ancestor it kept, and the server's
  /// record from a `records/lookup`.
  ///
  /// ```swift
  /// let lookup = try WebServices.Response(json: reply, endpoint: .recordsLookup, zone: mine.recordID.zoneID)
  /// let conflict = try error.conflict(client: mine, ancestor: lastSynced, lookup: lookup.records ?? .init(results: []))
  /// let resolved = try FieldMerge().resolve(conflict)
  /// ```
  /// - Parameters:
  ///   - client: The record the failed save sent, with its changed keys.
  ///   - ancestor: The last version both sides agreed on, if the app kept it.
  ///   - lookup: The response of ``lookupRequest(for:)``.
  /// - Returns: The conflict, with the server's record carrying the change tag to save against.
  /// - Throws: ``WebServices/ConflictLookupError`` when the error is not a `CONFLICT` or the lookup has no live
  ///   server record.
  public func conflict(client: Record, ancestor: Record?, lookup: WebServices.RecordsResponse)
    throws(WebServices.ConflictLookupError) -> Conflict
  {
    guard code == .conflict else { throw .notAConflict(code) }
    let id = client.recordID
    for result in lookup.results where result.recordID.map({ Self.sameRecord($0, id) }) == true {
      switch result {
      case .record, .share:
        guard var server = result.record else { continue }
        // The server names the owner where the app wrote `__defaultOwner__`; the record is the same one.
        server.recordID = id
        return Conflict(client: client, ancestor: ancestor, server: server)
      case .deleted: throw .serverRecordDeleted(id)
      case .failed(let error):
        if error.code == .notFound { throw .serverRecordDeleted(id) }
        throw .lookupFailed(error)
      }
    }
    throw .recordNotInLookup(id)
  }

  /// Whether two IDs name the same record, reading `__defaultOwner__` as whichever owner the other side names.
  static func sameRecord(_ a: RecordID, _ b: RecordID) -> Bool {
    guard a.recordName == b.recordName, a.zoneID.zoneName == b.zoneID.zoneName else { return false }
    let (x, y) = (a.zoneID.ownerName, b.zoneID.ownerName)
    return x == y || x == ZoneID.defaultOwnerName || y == ZoneID.defaultOwnerName
  }
}
