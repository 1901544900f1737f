public import Reconcile

extension SimulatedServer {
  /// CloudKit's request limits.
  public struct Limits: Sendable, Hashable {
    /// The most saves plus deletes in one request; 400 as CloudKit's guideline.
    public var maximumBatchItems: Int
    /// The most record data in one request of two items or more, counted as `Record/dataSize`; 2 MB. A request of
    /// one record is never refused for its size (CloudKit's limit on a record is below the one on a request).
    public var maximumBatchBytes: Int
    /// The most changes in one page of a change feed when the client sets no `resultsLimit`.
    public var changesPageSize: Int
    /// The most records in one page of query results when the client sets no `resultsLimit`; 200 as Web Services.
    public var queryPageSize: Int
    /// Every how many `serverRecordChanged` answers one leaves out the server's record, as CloudKit may: its
    /// documentation attaches the record "if available". 0 (the default) for never.
    public var conflictWithoutRecordEvery = 0

    /// CloudKit's limits: 400 items, 2 MB, 200-record pages.
    public static let cloudKit = Limits(
      maximumBatchItems: 400, maximumBatchBytes: 2 * 1_048_576, changesPageSize: 200, queryPageSize: 200)

    /// Creates limits.
    /// - Parameters:
    ///   - maximumBatchItems: Items per request.
    ///   - maximumBatchBytes: Bytes per request.
    ///   - changesPageSize: Changes per change-feed page.
    ///   - queryPageSize: Records per query page.
    public init(maximumBatchItems: Int, maximumBatchBytes: Int, changesPageSize: Int, queryPageSize: Int) {
      self.maximumBatchItems = maximumBatchItems
      self.maximumBatchBytes = maximumBatchBytes
      self.changesPageSize = changesPageSize
      self.queryPageSize = queryPageSize
    }
  }

  /// A per-device request budget over virtual time: how throttling really arrives, as
  /// `serviceUnavailable` with a retry delay.
  ///
  /// Each device holds up to `burst` requests and earns `refillPerSecond` more each second. A request with no budget left
  /// is refused with a retry-after of the time until one request is earned, multiplied by one plus the device's strikes.
  /// A bad request (one the server refuses as malformed, forbidden or too large) earns a strike and costs one extra
  /// request per strike, so a client that keeps sending bad requests is throttled harder; a good request removes a
  /// strike.
  public struct ThrottlePolicy: Sendable, Hashable {
    /// Requests a device may send at once.
    public var burst: Double
    /// Requests earned per second of virtual time.
    public var refillPerSecond: Double
    /// The most strikes counted.
    public var maximumStrikes: Int

    /// Creates a policy.
    /// - Parameters:
    ///   - burst: Requests at once.
    ///   - refillPerSecond: Requests per second.
    ///   - maximumStrikes: The strike cap.
    public init(burst: Double, refillPerSecond: Double, maximumStrikes: Int = 8) {
      self.burst = burst
      self.refillPerSecond = refillPerSecond
      self.maximumStrikes = maximumStrikes
    }

    /// Generous enough for an app behaving well: 40 requests at once, 10 a second.
    public static let standard = ThrottlePolicy(burst: 40, refillPerSecond: 10)
  }

  /// Whether the server accepts new record types, keys and types as they arrive, or only a declared schema.
  public enum SchemaMode: Sendable, Hashable {
    /// Development: the first save of a key fixes its type for the record type; a later save of another type fails.
    case development
    /// Production: only declared record types and keys; anything else fails with CloudKit's message
    /// "Cannot create or modify field 'X' in record 'Y' in production schema".
    case production([String: [String: FieldType]])
  }

  /// How a simulated server behaves.
  public struct Configuration: Sendable {
    /// Request limits.
    public var limits: Limits
    /// The per-device request budget; `nil` for none.
    public var throttle: ThrottlePolicy?
    /// Development or production schema rules.
    public var schemaMode: SchemaMode
    /// How many earlier versions of each record the server keeps to hand back as the ancestor of a conflict.
    public var ancestorDepth: Int
    /// Whether to keep a log of every save, deletion and zone change, which the oracles and the trace read. Costs
    /// memory in long runs.
    public var recordsEvents: Bool

    /// Creates a configuration.
    /// - Parameters:
    ///   - limits: CloudKit's unless given.
    ///   - throttle: ``ThrottlePolicy/standard`` unless given.
    ///   - schemaMode: `.development` unless given.
    ///   - ancestorDepth: 4 unless given.
    ///   - recordsEvents: `false` unless given.
    public init(
      limits: Limits = .cloudKit,
      throttle: ThrottlePolicy? = .standard,
      schemaMode: SchemaMode = .development,
      ancestorDepth: Int = 4,
      recordsEvents: Bool = false
    ) {
      self.limits = limits
      self.throttle = throttle
      self.schemaMode = schemaMode
      self.ancestorDepth = ancestorDepth
      self.recordsEvents = recordsEvents
    }
  }
}
