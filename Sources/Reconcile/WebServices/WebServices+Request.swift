public import Foundation

extension WebServices {
  /// A request body of any endpoint, with the endpoint it goes to.
  public enum Request: Sendable, Hashable {
    /// `records/modify`.
    case modifyRecords(ModifyRecordsRequest)
    /// `records/lookup`.
    case lookupRecords(LookupRecordsRequest)
    /// `records/query`.
    case queryRecords(QueryRecordsRequest)
    /// `records/changes`.
    case recordChanges(RecordChangesRequest)
    /// `changes/zone`.
    case zoneRecordChanges(ZoneRecordChangesRequest)
    /// `changes/database`.
    case databaseChanges(ChangesRequest)
    /// `zones/list` (a GET: no body).
    case listZones
    /// `zones/lookup`.
    case lookupZones(LookupZonesRequest)
    /// `zones/modify`.
    case modifyZones(ModifyZonesRequest)
    /// `zones/changes`.
    case zoneChanges(ChangesRequest)

    /// The endpoint the body goes to.
    public var endpoint: Endpoint {
      switch self {
      case .modifyRecords: return .recordsModify
      case .lookupRecords: return .recordsLookup
      case .queryRecords: return .recordsQuery
      case .recordChanges: return .recordsChanges
      case .zoneRecordChanges: return .changesZone
      case .databaseChanges: return .changesDatabase
      case .listZones: return .zonesList
      case .lookupZones: return .zonesLookup
      case .modifyZones: return .zonesModify
      case .zoneChanges: return .zonesChanges
      }
    }

    /// Decodes a request body for `endpoint`, with the strict checks of ``WireJSON/check(_:maximumDepth:)``.
    /// - Parameters:
    ///   - json: The body; ignored for `zones/list`, which has none.
    ///   - endpoint: Where the body is sent.
    /// - Throws: ``WireJSONError``; a well-formed body of the wrong shape is ``WireJSONError/invalidBody(_:path:reason:)``
    ///   naming the endpoint and the path.
    public init(json: Data, endpoint: Endpoint) throws(WireJSONError) {
      let what = "\(endpoint) request"
      switch endpoint {
      case .recordsModify:
        self = .modifyRecords(try decode(ModifyRecordsRequest.self, from: json, zone: nil, what: what))
      case .recordsLookup:
        self = .lookupRecords(try decode(LookupRecordsRequest.self, from: json, zone: nil, what: what))
      case .recordsQuery: self = .queryRecords(try decode(QueryRecordsRequest.self, from: json, zone: nil, what: what))
      case .recordsChanges:
        self = .recordChanges(try decode(RecordChangesRequest.self, from: json, zone: nil, what: what))
      case .changesZone:
        self = .zoneRecordChanges(try decode(ZoneRecordChangesRequest.self, from: json, zone: nil, what: what))
      case .changesDatabase: self = .databaseChanges(try decode(ChangesRequest.self, from: json, zone: nil, what: what))
      case .zonesList: self = .listZones
      case .zonesLookup: self = .lookupZones(try decode(LookupZonesRequest.self, from: json, zone: nil, what: what))
      case .zonesModify: self = .modifyZones(try decode(ModifyZonesRequest.self, from: json, zone: nil, what: what))
      case .zonesChanges: self = .zoneChanges(try decode(ChangesRequest.self, from: json, zone: nil, what: what))
      }
    }

    /// The body as JSON with sorted keys; empty for `zones/list`.
    /// - Throws: ``WireJSONError/invalidBody(_:path:reason:)`` when a record breaks CloudKit's rules.
    public func jsonData() throws(WireJSONError) -> Data {
      switch self {
      case .modifyRecords(let body): return try encode(body)
      case .lookupRecords(let body): return try encode(body)
      case .queryRecords(let body): return try encode(body)
      case .recordChanges(let body): return try encode(body)
      case .zoneRecordChanges(let body): return try encode(body)
      case .databaseChanges(let body), .zoneChanges(let body): return try encode(body)
      case .listZones: return Data()
      case .lookupZones(let body): return try encode(body)
      case .modifyZones(let body): return try encode(body)
      }
    }

    /// The zone that records without one belong to, in this request and its response.
    package var contextZone: ZoneID? {
      switch self {
      case .modifyRecords(let body): return body.zoneID
      case .lookupRecords(let body): return body.zoneID
      case .queryRecords(let body): return body.zoneID
      case .recordChanges(let body): return body.zoneID
      default: return nil
      }
    }
  }
}

extension WebServices {
  /// A response body of any endpoint: records, zones, zones' changes, or a request-level error.
  public enum Response: Sendable, Hashable {
    /// The response of a record endpoint.
    case records(RecordsResponse)
    /// The response of a zone endpoint or of `changes/database`.
    case zones(ZonesResponse)
    /// The response of `changes/zone`.
    case zoneChanges(ZoneChangesResponse)
    /// The whole request failed: `{serverErrorCode, reason}` with an HTTP status of 400 or more.
    case error(ServerError)

    /// Decodes a response body of `endpoint`, with the strict checks of ``WireJSON/check(_:maximumDepth:)``.
    ///
    /// A body with a top-level `serverErrorCode`, or any body with an HTTP status of 400 or more, is ``error(_:)``.
    /// - Parameters:
    ///   - json: The body.
    ///   - endpoint: The endpoint that answered.
    ///   - httpStatus: The response's HTTP status.
    ///   - zone: The request's zone: records and references that name no zone are in it (the default zone if `nil`).
    /// - Throws: ``WireJSONError``; a well-formed body of the wrong shape is ``WireJSONError/invalidBody(_:path:reason:)``.
    public init(json: Data, endpoint: Endpoint, httpStatus: Int = 200, zone: ZoneID? = nil) throws(WireJSONError) {
      let what = "\(endpoint) response"
      if httpStatus >= 400 {
        self = .error(try Self.error(json, httpStatus: httpStatus, what: what))
        return
      }
      do {
        switch endpoint.responseShape {
        case .records: self = .records(try decode(RecordsResponse.self, from: json, zone: zone, what: what))
        case .zones: self = .zones(try decode(ZonesResponse.self, from: json, zone: zone, what: what))
        case .zoneChanges:
          self = .zoneChanges(try decode(ZoneChangesResponse.self, from: json, zone: zone, what: what))
        }
      } catch {
        // A request-level error body sometimes comes with status 200 (relayed responses); it lacks the shape's keys.
        guard case .invalidBody = error, let failure = try? Self.error(json, httpStatus: httpStatus, what: what) else {
          throw error
        }
        self = .error(failure)
      }
    }

    private static func error(_ json: Data, httpStatus: Int, what: String) throws(WireJSONError) -> ServerError {
      var error = try decode(ServerError.self, from: json, zone: nil, what: what)
      error.httpStatus = httpStatus >= 400 ? httpStatus : error.code.httpStatus
      return error
    }

    /// The body as JSON with sorted keys.
    /// - Throws: ``WireJSONError/invalidBody(_:path:reason:)`` when a record breaks CloudKit's rules.
    public func jsonData() throws(WireJSONError) -> Data {
      switch self {
      case .records(let body): return try encode(body)
      case .zones(let body): return try encode(body)
      case .zoneChanges(let body): return try encode(body)
      case .error(let error): return try encode(error)
      }
    }

    /// The HTTP status CloudKit sends with this body: 200, or the error's status.
    public var httpStatus: Int {
      if case .error(let error) = self { return error.httpStatus ?? error.code.httpStatus }
      return 200
    }

    /// The records response, if this is one.
    public var records: RecordsResponse? { if case .records(let r) = self { r } else { nil } }
    /// The zones response, if this is one.
    public var zones: ZonesResponse? { if case .zones(let z) = self { z } else { nil } }

  }
}
