/// The policies of a ``ZoneReplica``: which zone it syncs, how it merges, what a deletion does against an edit, which
/// schema it checks, and what it keeps when the zone goes. Every policy has a safe default.
public struct ReplicaConfiguration: Sendable {
  /// The zone the replica syncs.
  public var zoneID: ZoneID
  /// The name this device writes as `modifiedByDevice`: a fetched version this device wrote is recognised as its own.
  public var deviceName: String
  /// Merges a local copy with unsent edits and a newer server version, over the last server version this device knew.
  public var resolver: any ConflictResolver
  /// What the resolver needs stamped on every edit (an edit count, a clock); ``EditBookkeeping/none`` when nothing.
  public var bookkeeping: EditBookkeeping
  /// Whether a deletion or a concurrent edit wins.
  public var deletePolicy: DeletePolicy
  /// The app's schema: records from a newer app are shown but never edited or merged into (a conflict with one halts),
  /// and keys this app does not know are never removed. `nil` checks nothing.
  public var schema: Schema?
  /// What to keep when the zone is deleted by a client (a purge always drops, a reset always uploads again).
  public var zoneLoss: ZoneLossPolicy
  /// What to do with the records when the iCloud account changes.
  public var accountChange: AccountChangePolicy
  /// How the app persists the store and the metadata: in one transaction (the default), or in two writes, the
  /// metadata first, which then carries the store's unsaved writes.
  public var persistence: ReplicaPersistence = .oneTransaction
  /// How fetched versions merge: the resolver, or (for the simulator's model of Apple's sample) the sample's rule.
  package var rule: MergeRule = .resolver
  /// Rules switched off on purpose, for the simulator's zoo; none in an app.
  package var flaws: Set<ReplicaFlaw> = [] { didSet { rules = CoreRules(removing: flaws) } }
  /// The rules kept: every one but those ``flaws`` switch off.
  package private(set) var rules = CoreRules()

  /// How a replica merges.
  package enum MergeRule: Sendable, Hashable {
    /// The configuration's resolver over the last server version known, guarded by the schema.
    case resolver
    /// Apple's CKSyncEngine sample's rule: whole-record last-writer-wins on a device-written date kept in the
    /// record's encrypted value `key`. Its flaw is the sample's: the date comes from the writing device's clock.
    case lastModifiedWins(key: String)
  }

  /// A configuration.
  /// - Parameters:
  ///   - zoneID: The zone to sync.
  ///   - deviceName: The device's name, as the server records it in `modifiedByDevice`.
  ///   - resolver: The conflict resolver; server last-writer-wins unless given.
  ///   - bookkeeping: What to stamp on every edit for the resolver.
  ///   - deletePolicy: Whether deletions or edits win; deletions unless given.
  ///   - schema: The app's schema, or `nil`.
  ///   - zoneLoss: What to keep after a client deletes the zone; drop what the server had, unless given.
  ///   - accountChange: What to do with the records when the account changes; delete the previous account's, unless
  ///     given.
  public init(
    zoneID: ZoneID, deviceName: String, resolver: any ConflictResolver = ServerLastWriterWins(),
    bookkeeping: EditBookkeeping = .none, deletePolicy: DeletePolicy = .deleteWins, schema: Schema? = nil,
    zoneLoss: ZoneLossPolicy = .dropLocalData, accountChange: AccountChangePolicy = .deleteLocalData
  ) {
    self.zoneID = zoneID
    self.deviceName = deviceName
    self.resolver = resolver
    self.bookkeeping = bookkeeping
    self.deletePolicy = deletePolicy
    self.schema = schema
    self.zoneLoss = zoneLoss
    self.accountChange = accountChange
  }
}
