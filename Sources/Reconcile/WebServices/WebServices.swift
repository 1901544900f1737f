import Foundation

/// The CloudKit Web Services model: typed requests and responses for the record and zone endpoints, with encoding
/// and strict decoding, so server-side Swift can talk to CloudKit (or to the simulator) without hand-written JSON.
///
/// ```swift
/// let request = WebServices.ModifyRecordsRequest(zoneID: notes, operations: [.update(note)])
/// let body = try request.jsonData()                       // POST …/records/modify
/// let response = try WebServices.Response(json: reply, endpoint: .recordsModify, httpStatus: 200, zone: notes)
/// for result in response.records?.results ?? [] {
///   if case .failed(let error) = result, error.code == .conflict { … }
/// }
/// ```
///
/// Every body is read in one pass that makes the checks of ``WireJSON/check(_:maximumDepth:)`` (repeated keys, invalid
/// UTF-8, depth, non-finite numbers, each with its byte offset), then decoded into types whose errors name the JSON
/// path — in less time than Foundation's untyped `JSONSerialization` parse of the same bytes.
///
/// Real responses vary, and the decoders accept what Apple's servers were seen to send: `syncToken` at the top level
/// of query, lookup and modify responses; no `zoneID` on records of the public database or on same-zone references
/// (they take the request's zone); no `created` when `desiredKeys` left it out; `deviceID` in any form; and
/// `expirationTime`, `pluginFields` and `zoneType`, which are read and ignored (records) or kept (zones).
public enum WebServices {
  /// An endpoint, by its path after `…/database/1/CONTAINER/ENVIRONMENT/DATABASE/`.
  public enum Endpoint: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `records/modify`: create, update, replace and delete records.
    case recordsModify = "records/modify"
    /// `records/lookup`: fetch records by name.
    case recordsLookup = "records/lookup"
    /// `records/query`: records of one type matching filters, sorted, paged by `continuationMarker`.
    case recordsQuery = "records/query"
    /// `records/changes`: the records of one zone changed since a `syncToken`.
    case recordsChanges = "records/changes"
    /// `changes/zone`: the records changed in several zones, each since its own token.
    case changesZone = "changes/zone"
    /// `changes/database`: the zones changed since a `syncToken`.
    case changesDatabase = "changes/database"
    /// `zones/list`: every zone of the database (a GET without a body).
    case zonesList = "zones/list"
    /// `zones/lookup`: zones by ID.
    case zonesLookup = "zones/lookup"
    /// `zones/modify`: create and delete zones.
    case zonesModify = "zones/modify"
    /// `zones/changes`: the zones changed since a `syncToken`.
    case zonesChanges = "zones/changes"

    /// The path, such as `records/modify`.
    public var description: String { rawValue }

    /// What a successful response of this endpoint holds.
    var responseShape: ResponseShape {
      switch self {
      case .recordsModify, .recordsLookup, .recordsQuery, .recordsChanges: return .records
      case .changesZone: return .zoneChanges
      case .changesDatabase, .zonesList, .zonesLookup, .zonesModify, .zonesChanges: return .zones
      }
    }
  }

  enum ResponseShape { case records, zones, zoneChanges }

  /// The decoder every body goes through: the strict scan builds a ``JSONTree``, and the typed model decodes from it
  /// (``JSONTreeDecoder``), with `zone` as the zone of records and references that name none.
  static func decode<T: Decodable>(_ type: T.Type, from data: Data, zone: ZoneID?, what: String) throws(WireJSONError)
    -> T
  {
    let tree = try JSONTree.parse(data)
    if let zone { tree.userInfo[WireCoding.contextZoneKey] = zone }
    do {
      return try tree.decode(T.self, at: 0)
    } catch let error as DecodingError {
      throw WireJSONError(error, subject: what)
    } catch {
      throw .invalidBody(what, path: "", reason: "\(error)")
    }
  }

  /// Encodes a body with sorted keys, so equal values give equal bytes.
  static func encode<T: Encodable>(_ value: T) throws(WireJSONError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
      return try encoder.encode(value)
    } catch let EncodingError.invalidValue(_, context) {
      let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
      throw .invalidBody("body to encode", path: path, reason: context.debugDescription)
    } catch {
      throw .invalidBody("body to encode", path: "", reason: "\(error)")
    }
  }
}

extension WebServices {
  /// Decodes a body through ``decode(_:from:zone:what:)`` (the strict reader).
  static func decode<T: WireBody>(_ type: T.Type, from data: Data, zone: ZoneID?, what: String) throws(WireJSONError)
    -> T
  { try decode(Wire<T>.self, from: data, zone: zone, what: what).body }

  /// Encodes a body through ``encode(_:)`` (sorted keys).
  static func encode<T: WireBody>(_ value: T) throws(WireJSONError) -> Data { try encode(Wire(value)) }
}
