extension WebServices {
  /// A zone as the zone endpoints describe it.
  public struct ZoneInfo: Sendable, Hashable {
    /// The zone.
    public var zoneID: ZoneID
    /// `REGULAR_CUSTOM_ZONE` or `DEFAULT_ZONE`, when sent.
    public var zoneType: String?
    /// The zone's sync token, when sent.
    public var syncToken: String?
    /// Whether the zone applies atomic requests all or nothing, when sent.
    public var atomic: Bool?
    /// Whether the zone was deleted (`zones/modify` delete, `changes/database`).
    public var deleted: Bool?
    /// Whether the zone was purged (`changes/database`).
    public var purged: Bool?

    /// Creates a zone description.
    /// - Parameters:
    ///   - zoneID: The zone.
    ///   - zoneType: `REGULAR_CUSTOM_ZONE` or `DEFAULT_ZONE`.
    ///   - syncToken: The zone's sync token.
    ///   - atomic: Whether requests are atomic.
    ///   - deleted: Whether the zone was deleted.
    ///   - purged: Whether the zone was purged.
    package init(
      zoneID: ZoneID, zoneType: String? = nil, syncToken: String? = nil, atomic: Bool? = nil, deleted: Bool? = nil,
      purged: Bool? = nil
    ) {
      self.zoneID = zoneID
      self.zoneType = zoneType
      self.syncToken = syncToken
      self.atomic = atomic
      self.deleted = deleted
      self.purged = purged
    }
  }

  /// One entry of a response's `zones`: a zone, or an error for that zone.
  public enum ZoneResult: Sendable, Hashable {
    /// A zone.
    case zone(ZoneInfo)
    /// An error for one zone; ``ServerError/zoneID`` names it.
    case failed(ServerError)

    /// The zone the entry is about.
    public var zoneID: ZoneID? {
      switch self {
      case .zone(let info): return info.zoneID
      case .failed(let error): return error.zoneID
      }
    }
  }

  /// The response of `zones/list`, `zones/lookup`, `zones/modify`, `zones/changes` and `changes/database`.
  public struct ZonesResponse: Sendable, Hashable {
    /// One entry per zone.
    public var zones: [ZoneResult]
    /// The database's sync token after this response, when sent.
    public var syncToken: String?
    /// Whether more changes wait behind this page, when sent.
    public var moreComing: Bool?

    /// Creates a response.
    /// - Parameters:
    ///   - zones: The entries.
    ///   - syncToken: The database's sync token.
    ///   - moreComing: Whether more changes wait.
    package init(zones: [ZoneResult], syncToken: String? = nil, moreComing: Bool? = nil) {
      self.zones = zones
      self.syncToken = syncToken
      self.moreComing = moreComing
    }
  }

  /// Changed records of one zone in a `changes/zone` response.
  public struct ZoneRecordChanges: Sendable, Hashable {
    /// The zone.
    public var zoneID: ZoneID
    /// The zone's token after these changes.
    public var syncToken: String?
    /// Whether more changes of this zone wait.
    public var moreComing: Bool?
    /// The changed records, shares, deletions and per-record errors.
    public var results: [RecordResult]

    /// Creates a zone's page of changes.
    /// - Parameters:
    ///   - zoneID: The zone.
    ///   - syncToken: The zone's token after these changes.
    ///   - moreComing: Whether more changes wait.
    ///   - results: The changes.
    package init(zoneID: ZoneID, syncToken: String? = nil, moreComing: Bool? = nil, results: [RecordResult]) {
      self.zoneID = zoneID
      self.syncToken = syncToken
      self.moreComing = moreComing
      self.results = results
    }
  }

  /// The response of `changes/zone`: for each zone asked about, its changes or an error.
  public struct ZoneChangesResponse: Sendable, Hashable, WireBody {
    /// One entry per zone: its changes, or the error for that zone.
    public var zones: [Result<ZoneRecordChanges, ServerError>]

    /// Creates a response.
    /// - Parameter zones: The entries.
    package init(zones: [Result<ZoneRecordChanges, ServerError>]) { self.zones = zones }

    private enum CodingKeys: String, CodingKey { case zones }
    private enum ZoneKeys: String, CodingKey { case zoneID, syncToken, moreComing, records, serverErrorCode }

    /// Decodes `{zones: [{zoneID, syncToken, moreComing, records} or an error]}`; each zone's records take its zone.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming the bad entry.
    init(wireFormatFrom decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      var list = try c.nestedUnkeyedContainer(forKey: .zones)
      var zones: [Result<ZoneRecordChanges, ServerError>] = []
      while !list.isAtEnd {
        let entry = try list.superDecoder()
        let z = try entry.container(keyedBy: ZoneKeys.self)
        if z.contains(.serverErrorCode) {
          zones.append(.failure(try ServerError(wireFormatFrom: entry)))
          continue
        }
        guard let zone = try WireCoding.decodeZoneID(z, key: .zoneID) else {
          throw DecodingError.keyNotFound(
            ZoneKeys.zoneID, DecodingError.Context(codingPath: z.codingPath, debugDescription: "zone without zoneID"))
        }
        var results: [RecordResult] = []
        if z.contains(.records) {
          var records = try z.nestedUnkeyedContainer(forKey: .records)
          while !records.isAtEnd {
            results.append(
              try RecordResult(wireFormatFrom: ContextZoneDecoder(base: try records.superDecoder(), zone: zone)))
          }
        }
        zones.append(
          .success(
            ZoneRecordChanges(
              zoneID: zone, syncToken: try z.decodeIfPresent(String.self, forKey: .syncToken),
              moreComing: try z.decodeIfPresent(Bool.self, forKey: .moreComing), results: results)))
      }
      self.zones = zones
    }

    /// Encodes the response body.
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError` when a record fails validation.
    func encodeWireFormat(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      var list = c.nestedUnkeyedContainer(forKey: .zones)
      for entry in zones {
        switch entry {
        case .failure(let error): try list.encode(Wire(error))
        case .success(let changes):
          var z = list.nestedContainer(keyedBy: ZoneKeys.self)
          try WireCoding.encodeZoneID(changes.zoneID, into: &z, key: .zoneID)
          try z.encodeIfPresent(changes.syncToken, forKey: .syncToken)
          try z.encodeIfPresent(changes.moreComing, forKey: .moreComing)
          try z.encode(changes.results.map(Wire.init), forKey: .records)
        }
      }
    }
  }
}

extension WebServices.ZoneInfo: WireBody {
  private enum Keys: String, CodingKey { case zoneID, syncToken, atomic, deleted, purged }
  private enum IDKeys: String, CodingKey { case zoneName, ownerRecordName, zoneType }

  /// Decodes `{zoneID: {zoneName, ownerRecordName?, zoneType?}, syncToken?, atomic?, deleted?, purged?}`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a bad zone name.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    guard let zone = try WireCoding.decodeZoneID(c, key: .zoneID) else {
      throw DecodingError.valueNotFound(
        ZoneID.self, DecodingError.Context(codingPath: c.codingPath + [Keys.zoneID], debugDescription: "zoneID is null")
      )
    }
    zoneID = zone
    zoneType = try c.nestedContainer(keyedBy: IDKeys.self, forKey: .zoneID).decodeIfPresent(
      String.self, forKey: .zoneType)
    syncToken = try c.decodeIfPresent(String.self, forKey: .syncToken)
    atomic = try c.decodeIfPresent(Bool.self, forKey: .atomic)
    deleted = try c.decodeIfPresent(Bool.self, forKey: .deleted)
    purged = try c.decodeIfPresent(Bool.self, forKey: .purged)
  }

  /// Encodes the zone dictionary.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  func encodeWireFormat(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    var z = c.nestedContainer(keyedBy: IDKeys.self, forKey: .zoneID)
    try z.encode(zoneID.zoneName, forKey: .zoneName)
    try z.encode(zoneID.ownerName, forKey: .ownerRecordName)
    try z.encodeIfPresent(zoneType, forKey: .zoneType)
    try c.encodeIfPresent(syncToken, forKey: .syncToken)
    try c.encodeIfPresent(atomic, forKey: .atomic)
    try c.encodeIfPresent(deleted, forKey: .deleted)
    try c.encodeIfPresent(purged, forKey: .purged)
  }
}

extension WebServices.ZoneResult: WireBody {
  private enum Keys: String, CodingKey { case serverErrorCode }

  /// Decodes a zone, or an error when the entry has a `serverErrorCode`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the bad field.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    if c.contains(.serverErrorCode) {
      self = .failed(try WebServices.ServerError(wireFormatFrom: decoder))
    } else {
      self = .zone(try WebServices.ZoneInfo(wireFormatFrom: decoder))
    }
  }

  /// Encodes the entry.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  func encodeWireFormat(to encoder: any Encoder) throws {
    switch self {
    case .zone(let info): try info.encodeWireFormat(to: encoder)
    case .failed(let error): try error.encodeWireFormat(to: encoder)
    }
  }
}

/// A decoder that gives `base`'s containers but sets the context zone, so records inside one zone's entry of a
/// `changes/zone` response take that zone.
struct ContextZoneDecoder: Decoder {
  let base: any Decoder
  let zone: ZoneID

  var codingPath: [any CodingKey] { base.codingPath }
  var userInfo: [CodingUserInfoKey: Any] {
    var info = base.userInfo
    info[WireCoding.contextZoneKey] = zone
    return info
  }
  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try base.container(keyedBy: type)
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try base.unkeyedContainer() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { try base.singleValueContainer() }
}

extension WebServices.ZonesResponse: WireBody {
  private enum Keys: String, CodingKey { case zones, syncToken, moreComing }

  /// Decodes `{zones: [a zone or an error], syncToken?, moreComing?}`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the bad entry.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    zones = try c.decode([Wire<WebServices.ZoneResult>].self, forKey: .zones).map(\.body)
    syncToken = try c.decodeIfPresent(String.self, forKey: .syncToken)
    moreComing = try c.decodeIfPresent(Bool.self, forKey: .moreComing)
  }

  /// Encodes the response body.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  func encodeWireFormat(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(zones.map(Wire.init), forKey: .zones)
    try c.encodeIfPresent(syncToken, forKey: .syncToken)
    try c.encodeIfPresent(moreComing, forKey: .moreComing)
  }
}
