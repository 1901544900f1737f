extension WebServices {
  /// The body of `records/query`.
  public struct QueryRecordsRequest: Sendable, Hashable {
    /// The zone to search; the default zone when `nil`.
    package var zoneID: ZoneID?
    /// What to find.
    package var query: Query
    /// The most records in one response (CloudKit returns at most 200).
    package var resultsLimit: Int?
    /// The marker of the previous page, to continue a query.
    package var continuationMarker: String?
    /// The keys to return; `nil` returns all.
    package var desiredKeys: [String]?
    /// Whether to search every zone (allowed only in some databases).
    package var zoneWide: Bool?

    /// Creates a request.
    /// - Parameters:
    ///   - zoneID: The zone to search.
    ///   - query: What to find.
    ///   - resultsLimit: The most records per response.
    ///   - continuationMarker: The marker of the previous page.
    ///   - desiredKeys: The keys to return.
    ///   - zoneWide: Whether to search every zone.
    public init(
      zoneID: ZoneID? = nil, query: Query, resultsLimit: Int? = nil, continuationMarker: String? = nil,
      desiredKeys: [String]? = nil, zoneWide: Bool? = nil
    ) {
      self.zoneID = zoneID
      self.query = query
      self.resultsLimit = resultsLimit
      self.continuationMarker = continuationMarker
      self.desiredKeys = desiredKeys
      self.zoneWide = zoneWide
    }
  }

  /// A query: one record type, filters that must all hold, and a sort order.
  public struct Query: Sendable, Hashable {
    /// The record type to find.
    package var recordType: String
    /// Conditions that must all hold.
    package var filters: [Filter]
    /// The order of results, most significant first.
    package var sorts: [Sort]

    /// Creates a query.
    /// - Parameters:
    ///   - recordType: The record type.
    ///   - filters: The conditions.
    ///   - sorts: The order.
    public init(recordType: String, filters: [Filter] = [], sorts: [Sort] = []) {
      self.recordType = recordType
      self.filters = filters
      self.sorts = sorts
    }
  }

  /// One condition of a query: `fieldName comparator fieldValue`.
  public struct Filter: Sendable, Hashable {
    /// The field compared.
    package var fieldName: String
    /// The comparison, such as `EQUALS` or `BEGINS_WITH`.
    package var comparator: Comparator
    /// The value compared with.
    package var fieldValue: FieldValue
    /// The distance in meters, for `NEAR`.
    package var distance: Double?

    /// Creates a filter.
    /// - Parameters:
    ///   - fieldName: The field compared.
    ///   - comparator: The comparison.
    ///   - fieldValue: The value compared with.
    ///   - distance: The distance in meters, for `NEAR`.
    public init(fieldName: String, comparator: Comparator, fieldValue: FieldValue, distance: Double? = nil) {
      self.fieldName = fieldName
      self.comparator = comparator
      self.fieldValue = fieldValue
      self.distance = distance
    }
  }

  /// A query comparator, by its Web Services name. Unknown names are kept, so a newer comparator still round-trips.
  public struct Comparator: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The name, such as `EQUALS`.
    public var rawValue: String
    /// Wraps a name.
    /// - Parameter rawValue: The comparator's name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `EQUALS`.
    public static let equals = Comparator(rawValue: "EQUALS")
    /// `NOT_EQUALS`.
    public static let notEquals = Comparator(rawValue: "NOT_EQUALS")
    /// `LESS_THAN`.
    public static let lessThan = Comparator(rawValue: "LESS_THAN")
    /// `LESS_THAN_OR_EQUALS`.
    public static let lessThanOrEquals = Comparator(rawValue: "LESS_THAN_OR_EQUALS")
    /// `GREATER_THAN`.
    public static let greaterThan = Comparator(rawValue: "GREATER_THAN")
    /// `GREATER_THAN_OR_EQUALS`.
    public static let greaterThanOrEquals = Comparator(rawValue: "GREATER_THAN_OR_EQUALS")
    /// `IN`.
    public static let `in` = Comparator(rawValue: "IN")
    /// `NOT_IN`.
    public static let notIn = Comparator(rawValue: "NOT_IN")
    /// `BEGINS_WITH`.
    public static let beginsWith = Comparator(rawValue: "BEGINS_WITH")
    /// `LIST_CONTAINS`.
    public static let listContains = Comparator(rawValue: "LIST_CONTAINS")
    /// `NEAR`.
    public static let near = Comparator(rawValue: "NEAR")

    /// The name.
    public var description: String { rawValue }
  }

  /// One sort key of a query.
  public struct Sort: Sendable, Hashable {
    /// The field sorted by.
    package var fieldName: String
    /// Whether smaller values come first (CloudKit's default is `true`).
    package var ascending: Bool

    /// Creates a sort key.
    /// - Parameters:
    ///   - fieldName: The field sorted by.
    ///   - ascending: Whether smaller values come first.
    public init(fieldName: String, ascending: Bool = true) {
      self.fieldName = fieldName
      self.ascending = ascending
    }
  }
}

extension WebServices.QueryRecordsRequest: WireBody {
  private enum Keys: String, CodingKey { case zoneID, query, resultsLimit, continuationMarker, desiredKeys, zoneWide }
  private enum QueryKeys: String, CodingKey { case recordType, filterBy, sortBy }
  private enum FilterKeys: String, CodingKey { case fieldName, comparator, fieldValue, distance }
  private enum SortKeys: String, CodingKey { case fieldName, ascending }

  /// Decodes the body; filter values follow the field rules of the wire format (their `type` may be omitted).
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the bad filter or sort.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    zoneID = try WireCoding.decodeZoneID(c, key: .zoneID)
    resultsLimit = try c.decodeIfPresent(Int.self, forKey: .resultsLimit)
    continuationMarker = try c.decodeIfPresent(String.self, forKey: .continuationMarker)
    desiredKeys = try c.decodeIfPresent([String].self, forKey: .desiredKeys)
    zoneWide = try c.decodeIfPresent(Bool.self, forKey: .zoneWide)
    let zone = zoneID ?? WireCoding.contextZone(decoder)
    let q = try c.nestedContainer(keyedBy: QueryKeys.self, forKey: .query)
    var query = WebServices.Query(recordType: try q.decode(String.self, forKey: .recordType))
    if q.contains(.filterBy) {
      var list = try q.nestedUnkeyedContainer(forKey: .filterBy)
      while !list.isAtEnd {
        let f = try list.nestedContainer(keyedBy: FilterKeys.self)
        let name = try f.decode(String.self, forKey: .fieldName)
        let value = try f.nestedContainer(keyedBy: WireField.Keys.self, forKey: .fieldValue)
        query.filters.append(
          WebServices.Filter(
            fieldName: name,
            comparator: WebServices.Comparator(rawValue: try f.decode(String.self, forKey: .comparator)),
            fieldValue: try WireField.decode(WireField.Entry(value, name: name), recordZone: zone) {
              value.codingPath
            }.0,
            distance: try f.decodeIfPresent(Double.self, forKey: .distance)))
      }
    }
    if q.contains(.sortBy) {
      var list = try q.nestedUnkeyedContainer(forKey: .sortBy)
      while !list.isAtEnd {
        let s = try list.nestedContainer(keyedBy: SortKeys.self)
        query.sorts.append(
          WebServices.Sort(
            fieldName: try s.decode(String.self, forKey: .fieldName),
            ascending: try s.decodeIfPresent(Bool.self, forKey: .ascending) ?? true))
      }
    }
    self.query = query
  }

  /// Encodes the body.
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError` when a filter value cannot be written.
  func encodeWireFormat(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    if let zoneID { try WireCoding.encodeZoneID(zoneID, into: &c, key: .zoneID) }
    try c.encodeIfPresent(resultsLimit, forKey: .resultsLimit)
    try c.encodeIfPresent(continuationMarker, forKey: .continuationMarker)
    try c.encodeIfPresent(desiredKeys, forKey: .desiredKeys)
    try c.encodeIfPresent(zoneWide, forKey: .zoneWide)
    var q = c.nestedContainer(keyedBy: QueryKeys.self, forKey: .query)
    try q.encode(query.recordType, forKey: .recordType)
    var filters = q.nestedUnkeyedContainer(forKey: .filterBy)
    for filter in query.filters {
      var f = filters.nestedContainer(keyedBy: FilterKeys.self)
      try f.encode(filter.fieldName, forKey: .fieldName)
      try f.encode(filter.comparator.rawValue, forKey: .comparator)
      var value = f.nestedContainer(keyedBy: WireField.Keys.self, forKey: .fieldValue)
      try WireField.encode(filter.fieldValue, into: &value)
      try f.encodeIfPresent(filter.distance, forKey: .distance)
    }
    var sorts = q.nestedUnkeyedContainer(forKey: .sortBy)
    for sort in query.sorts {
      var s = sorts.nestedContainer(keyedBy: SortKeys.self)
      try s.encode(sort.fieldName, forKey: .fieldName)
      try s.encode(sort.ascending, forKey: .ascending)
    }
  }
}
