public import Foundation

extension WebServices {
  /// Any Web Services JSON document, recognised by its shape: one record or share, a request, or a response.
  ///
  /// Use it when the endpoint is not known, as `reconcile-playground inspect` does. Some shapes are ambiguous —
  /// a `changes/zone` request without limits looks like a `zones/list` response, a `changes/database` request like a
  /// `zones/changes` request — and are read as the first; decode with ``Request/init(json:endpoint:)`` or
  /// ``Response/init(json:endpoint:httpStatus:zone:)`` when the endpoint is known.
  public enum Body: Sendable, Hashable {
    /// One record dictionary.
    case record(Record)
    /// One share record dictionary.
    case share(Share)
    /// A request body.
    case request(Request)
    /// A response body; `endpoint` is the endpoint when the body shows it (a `continuationMarker` is a query's, zones
    /// with records are `changes/zone`'s), and `nil` when several endpoints answer with this shape.
    case response(Response, endpoint: Endpoint?)

    /// Recognises and decodes a document.
    /// - Parameter json: The document.
    /// - Throws: ``WireJSONError``: the strict checks, ``WireJSONError/invalidBody(_:path:reason:)`` naming the
    ///   shape it was read as and where it failed, or, for an object of no known shape, its top-level keys.
    public init(json: Data) throws(WireJSONError) {
      guard case .object(let top) = try JSONTree.parse(json).jsonValue(at: 0) else {
        throw .invalidBody("Web Services document", path: "", reason: "the top level is not an object")
      }
      func keys(_ value: JSONValue?) -> Set<String> {
        if case .object(let dict)? = value { return Set(dict.keys) }
        return []
      }
      func entries(_ key: String) -> [JSONValue] {
        if case .array(let items)? = top[key] { return items }
        return []
      }
      let topKeys = Set(top.keys)
      if topKeys.contains("format"), !topKeys.isDisjoint(with: ["values", "zoneName", "encryptedValues"]) {
        throw .invalidBody(
          "Web Services document", path: "",
          reason: "this is Reconcile's local record format (JSONEncoder's), not Web Services JSON; decode it with "
            + "JSONDecoder().decode(Record.self, from:)")
      }
      if topKeys.isEmpty {
        // An empty object is the body of several requests (`changes/database`, `zones/list`): the endpoint decides.
        throw .invalidBody(
          "Web Services document", path: "",
          reason: "an empty object is the body of several requests; decode it with Request(json:endpoint:) naming one")
      }
      if topKeys == ["batch"] {
        // icloud.com batches several bodies in one: each element is a body of its own.
        throw .invalidBody(
          "Web Services document", path: "batch",
          reason: "an icloud.com batch of \(entries("batch").count) bodies; decode each element of `batch` on its own")
      }
      if topKeys.contains("serverErrorCode") {
        self = .response(try Response(json: json, endpoint: .recordsModify), endpoint: nil)
      } else if topKeys.contains("operations") {
        let first = keys(entries("operations").first)
        self = .request(try Request(json: json, endpoint: first.contains("zone") ? .zonesModify : .recordsModify))
      } else if topKeys.contains("query") {
        self = .request(try Request(json: json, endpoint: .recordsQuery))
      } else if topKeys.contains("records") {
        let lookupKeys: Set<String> = ["recordName", "zoneID"]
        let isLookup =
          !entries("records").isEmpty && entries("records").allSatisfy { keys($0).isSubset(of: lookupKeys) }
          && topKeys.isDisjoint(with: ["syncToken", "moreComing", "continuationMarker"])
        if isLookup {
          self = .request(try Request(json: json, endpoint: .recordsLookup))
        } else {
          let zone = try Self.zone(top["zoneID"])
          let endpoint: Endpoint? =
            topKeys.contains("continuationMarker")
            ? .recordsQuery : topKeys.contains("moreComing") ? .recordsChanges : nil
          self = .response(
            try Response(json: json, endpoint: endpoint ?? .recordsModify, zone: zone), endpoint: endpoint)
        }
      } else if topKeys.contains("zones") {
        let zoneEntries = entries("zones").map(keys)
        let requestKeys: Set<String> = ["resultsLimit", "desiredKeys", "desiredRecordTypes"]
        if zoneEntries.contains(where: { $0.contains("records") }) {
          self = .response(try Response(json: json, endpoint: .changesZone), endpoint: .changesZone)
        } else if zoneEntries.contains(where: { $0.contains("zoneName") }) {
          self = .request(try Request(json: json, endpoint: .zonesLookup))
        } else if zoneEntries.contains(where: { !$0.isDisjoint(with: requestKeys) }) {
          self = .request(try Request(json: json, endpoint: .changesZone))
        } else {
          self = .response(try Response(json: json, endpoint: .zonesList), endpoint: nil)
        }
      } else if topKeys.contains("recordName") {
        let single = try WebServices.decode(RecordResult.self, from: json, zone: nil, what: "record JSON")
        switch single {
        case .share(let share): self = .share(share)
        case .record(let record): self = .record(record)
        case .deleted, .failed:
          self = .response(.records(RecordsResponse(results: [single])), endpoint: nil)
        }
      } else if topKeys.contains("zoneID") {
        self = .request(try Request(json: json, endpoint: .recordsChanges))
      } else if topKeys.isSubset(of: ["syncToken", "metaSyncToken", "resultsLimit"]) {  // Not empty: checked above.
        self = .request(try Request(json: json, endpoint: .changesDatabase))
      } else {
        throw .invalidBody(
          "Web Services document", path: "",
          reason: "no known request or response has the top-level keys \(topKeys.sorted().joined(separator: ", "))")
      }
    }

    /// A short name for what the document is: `record`, `share`, `records/modify request`, `zones/list response`, …
    public var kind: String {
      switch self {
      case .record: return "record"
      case .share: return "share"
      case .request(let request): return "\(request.endpoint) request"
      case .response(.error, _): return "error response"
      case .response(_, let endpoint?): return "\(endpoint) response"
      case .response(.zones, nil): return "zones response"
      case .response(_, nil): return "records response"
      }
    }

    private static func zone(_ json: JSONValue?) throws(WireJSONError) -> ZoneID? {
      guard let json else { return nil }
      do {
        return try WireCoding.zoneID(from: json, path: { [] }, subject: "zoneID")
      } catch let error as DecodingError {
        throw WireJSONError(error, subject: "records response")
      } catch {
        throw .invalidBody("records response", path: "zoneID", reason: "\(error)")
      }
    }
  }
}
