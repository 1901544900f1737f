extension WebServices {
  /// One operation of a `records/modify` request.
  public enum RecordOperation: Sendable, Hashable {
    /// Create a record; fails with `EXISTS` if the name is taken.
    case create(Record)
    /// Change the fields given; the record's change tag must be current.
    case update(Record)
    /// Change the fields given, whatever the change tag.
    case forceUpdate(Record)
    /// Replace the whole record (omitted fields are removed); the change tag must be current.
    case replace(Record)
    /// Replace the whole record, whatever the change tag.
    case forceReplace(Record)
    /// Delete a record whose change tag is current.
    case delete(RecordID, recordChangeTag: String?)
    /// Delete a record whatever its change tag.
    case forceDelete(RecordID)

    /// The `operationType`, such as `forceUpdate`.
    package var operationType: String {
      switch self {
      case .create: return "create"
      case .update: return "update"
      case .forceUpdate: return "forceUpdate"
      case .replace: return "replace"
      case .forceReplace: return "forceReplace"
      case .delete: return "delete"
      case .forceDelete: return "forceDelete"
      }
    }

    /// The record the operation concerns.
    package var recordID: RecordID {
      switch self {
      case .create(let r), .update(let r), .forceUpdate(let r), .replace(let r), .forceReplace(let r): return r.recordID
      case .delete(let id, _), .forceDelete(let id): return id
      }
    }

    /// The record a save carries; `nil` for deletes.
    package var record: Record? {
      switch self {
      case .create(let r), .update(let r), .forceUpdate(let r), .replace(let r), .forceReplace(let r): return r
      case .delete, .forceDelete: return nil
      }
    }
  }

  /// The body of `records/modify`.
  public struct ModifyRecordsRequest: Sendable, Hashable {
    /// The zone of records that name none.
    package var zoneID: ZoneID?
    /// The operations, applied in order.
    package var operations: [RecordOperation]
    /// Whether all operations must succeed or none is applied (custom zones only); CloudKit's default is `true`.
    package var atomic: Bool?
    /// The keys to return in each saved record; `nil` returns all.
    package var desiredKeys: [String]?
    /// Whether the response should carry numbers as strings (accepted, not interpreted).
    package var numbersAsStrings: Bool?
    /// The shares among the saved records, by ID, with what a record does not hold: participants and public
    /// permission. A `cloudkit.share` record in an operation reads into both its operation and this table, and is
    /// written back with its participants.
    package var shares: [RecordID: Share] = [:]

    /// Creates a request.
    /// - Parameters:
    ///   - zoneID: The zone of records that name none.
    ///   - operations: The operations.
    ///   - atomic: Whether the request is all or nothing.
    ///   - desiredKeys: The keys to return.
    ///   - numbersAsStrings: Whether numbers come back as strings.
    ///   - shares: The shares among the saved records, with their participants and public permission; an operation
    ///     saves each share's ``Share/record``.
    public init(
      zoneID: ZoneID? = nil, operations: [RecordOperation], atomic: Bool? = nil, desiredKeys: [String]? = nil,
      numbersAsStrings: Bool? = nil, shares: [Share] = []
    ) {
      self.zoneID = zoneID
      self.operations = operations
      self.atomic = atomic
      self.desiredKeys = desiredKeys
      self.numbersAsStrings = numbersAsStrings
      self.shares = Dictionary(shares.map { ($0.recordID, $0) }, uniquingKeysWith: { _, last in last })
    }
  }

  /// The body of `records/lookup`.
  public struct LookupRecordsRequest: Sendable, Hashable {
    /// The zone of the records.
    package var zoneID: ZoneID?
    /// The records to fetch.
    package var recordIDs: [RecordID]
    /// The keys to return; `nil` returns all.
    package var desiredKeys: [String]?

    /// Creates a request.
    /// - Parameters:
    ///   - zoneID: The zone of the records.
    ///   - recordIDs: The records to fetch.
    ///   - desiredKeys: The keys to return.
    public init(zoneID: ZoneID? = nil, recordIDs: [RecordID], desiredKeys: [String]? = nil) {
      self.zoneID = zoneID
      self.recordIDs = recordIDs
      self.desiredKeys = desiredKeys
    }
  }

  /// The body of `records/changes`: one zone's records changed since a token.
  public struct RecordChangesRequest: Sendable, Hashable {
    /// The zone.
    package var zoneID: ZoneID
    /// Where to start; `nil` for every record.
    package var syncToken: String?
    /// The most records in one response.
    package var resultsLimit: Int?
    /// The keys to return; `nil` returns all.
    package var desiredKeys: [String]?
    /// The record types to return; `nil` returns all.
    package var desiredRecordTypes: [String]?

    /// Creates a request.
    /// - Parameters:
    ///   - zoneID: The zone.
    ///   - syncToken: Where to start.
    ///   - resultsLimit: The most records in one response.
    ///   - desiredKeys: The keys to return.
    ///   - desiredRecordTypes: The types to return.
    public init(
      zoneID: ZoneID, syncToken: String? = nil, resultsLimit: Int? = nil, desiredKeys: [String]? = nil,
      desiredRecordTypes: [String]? = nil
    ) {
      self.zoneID = zoneID
      self.syncToken = syncToken
      self.resultsLimit = resultsLimit
      self.desiredKeys = desiredKeys
      self.desiredRecordTypes = desiredRecordTypes
    }
  }

  /// The body of `changes/zone`: several zones' changes, each from its own token.
  public struct ZoneRecordChangesRequest: Sendable, Hashable {
    /// One entry per zone.
    package var zones: [RecordChangesRequest]

    /// Creates a request.
    /// - Parameter zones: One entry per zone.
    public init(zones: [RecordChangesRequest]) { self.zones = zones }
  }

  /// The body of `changes/database` and `zones/changes`: what changed since a token.
  public struct ChangesRequest: Sendable, Hashable {
    /// Where to start; `nil` for everything.
    package var syncToken: String?
    /// The most entries in one response.
    package var resultsLimit: Int?

    /// Creates a request.
    /// - Parameters:
    ///   - syncToken: Where to start.
    ///   - resultsLimit: The most entries in one response.
    public init(syncToken: String? = nil, resultsLimit: Int? = nil) {
      self.syncToken = syncToken
      self.resultsLimit = resultsLimit
    }
  }

  /// The body of `zones/lookup`.
  public struct LookupZonesRequest: Sendable, Hashable {
    /// The zones to fetch.
    package var zoneIDs: [ZoneID]

    /// Creates a request.
    /// - Parameter zoneIDs: The zones to fetch.
    public init(zoneIDs: [ZoneID]) { self.zoneIDs = zoneIDs }
  }

  /// One operation of `zones/modify`.
  public enum ZoneOperation: Sendable, Hashable {
    /// Create a zone.
    case create(ZoneID)
    /// Delete a zone and every record in it.
    case delete(ZoneID)

    /// The zone concerned.
    package var zoneID: ZoneID {
      switch self {
      case .create(let zone), .delete(let zone): return zone
      }
    }
  }

  /// The body of `zones/modify`.
  public struct ModifyZonesRequest: Sendable, Hashable {
    /// The operations, in order.
    package var operations: [ZoneOperation]

    /// Creates a request.
    /// - Parameter operations: The operations.
    public init(operations: [ZoneOperation]) { self.operations = operations }
  }
}
