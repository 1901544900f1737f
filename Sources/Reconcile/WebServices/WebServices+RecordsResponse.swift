extension WebServices {
  /// The response of `records/modify`, `records/lookup`, `records/query` and `records/changes`.
  public struct RecordsResponse: Sendable, Hashable, WireBody {
    /// One entry per record, in the order of the request (modify, lookup) or of the feed (query, changes).
    public var results: [RecordResult]
    /// The database's or zone's sync token after this response (changes; also sent by query, lookup and modify).
    public var syncToken: String?
    /// Whether more changes wait behind this page (`records/changes`).
    public var moreComing: Bool?
    /// The marker that continues a query; `nil` on its last page.
    public var continuationMarker: String?
    /// The zone a `records/changes` response is about, when the server names it.
    public var zoneID: ZoneID?

    /// Creates a response.
    /// - Parameters:
    ///   - results: The entries.
    ///   - syncToken: The sync token after this response.
    ///   - moreComing: Whether more changes wait.
    ///   - continuationMarker: The marker continuing a query.
    ///   - zoneID: The zone of a changes response.
    package init(
      results: [RecordResult], syncToken: String? = nil, moreComing: Bool? = nil, continuationMarker: String? = nil,
      zoneID: ZoneID? = nil
    ) {
      self.results = results
      self.syncToken = syncToken
      self.moreComing = moreComing
      self.continuationMarker = continuationMarker
      self.zoneID = zoneID
    }

    /// The records and shares' records, in order.
    public var records: [Record] { results.compactMap(\.record) }
    /// The deletions, in order.
    public var deletedIDs: [RecordID] {
      results.compactMap { if case .deleted(let id, _) = $0 { return id } else { return nil } }
    }
    /// The per-record errors, in order.
    public var errors: [ServerError] {
      results.compactMap { if case .failed(let error) = $0 { return error } else { return nil } }
    }

    enum CodingKeys: String, CodingKey { case records, syncToken, moreComing, continuationMarker, zoneID }

    /// Decodes `{records, syncToken?, moreComing?, continuationMarker?, zoneID?}`; `records` is required.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming the bad entry.
    init(wireFormatFrom decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      results = try c.decode([Wire<RecordResult>].self, forKey: .records).map(\.body)
      syncToken = try c.decodeIfPresent(String.self, forKey: .syncToken)
      moreComing = try c.decodeIfPresent(Bool.self, forKey: .moreComing)
      continuationMarker = try c.decodeIfPresent(String.self, forKey: .continuationMarker)
      zoneID = try WireCoding.decodeZoneID(c, key: .zoneID)
    }

    /// Encodes the response body.
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError` when a record fails validation.
    func encodeWireFormat(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(results.map(Wire.init), forKey: .records)
      try c.encodeIfPresent(syncToken, forKey: .syncToken)
      try c.encodeIfPresent(moreComing, forKey: .moreComing)
      try c.encodeIfPresent(continuationMarker, forKey: .continuationMarker)
      if let zoneID { try WireCoding.encodeZoneID(zoneID, into: &c, key: .zoneID) }
    }
  }
}
