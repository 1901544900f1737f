import Foundation

/// The sync rules of one zone, for an app on CKSyncEngine: what to do on each user action and engine event, in the
/// right order, with Reconcile's resolvers, delete policy, tombstones and schema checks. The app keeps its records in
/// its own ``ReplicaStore``; the replica keeps the bookkeeping in one `Codable` ``ReplicaMetadata``.
///
/// It is sans-I/O, as NIO's embedded channel is: events and user actions go in, record writes to the store and
/// pending changes on the engine's state come out. It has no clock or randomness of its own — every action takes the
/// device's time — so the same inputs give the same outputs, on every platform. It conforms to
/// ``SyncEngineDelegate``: in the app, `CloudKitSyncEngineAdapter` runs it (or your delegate holding it) as the real
/// engine's delegate; in tests, ReconcileSimulator's `SimulatedSyncEngine` does.
///
/// **Persistence.** After each user action and each event — before the next one — write the store's changes and
/// ``metadata``, as ``ReplicaConfiguration/persistence`` says: in one transaction (or one file: the article's
/// delegate writes both as one `Codable` value), or, when the two cannot share a transaction, the metadata first,
/// then the store, then ``storeSaved()``. The metadata then carries the store's unsaved writes, and a crash between
/// the two writes loses nothing: the next launch writes them again. Writing the store first is never safe (see
/// ``ReplicaPersistence``). A record's sync state (``ReplicaMetadata/syncState(of:)``) is saved with a format version,
/// and every format a release has written reads back.
///
/// **Rules it keeps** (each pinned by a test that fails without it):
/// - every edit is stamped for the resolver, and checked against the schema (a newer app's record is never edited);
/// - a deletion waits for a fetch that starts after it, since a deletion carries no change tag: a record created
///   anew elsewhere under the same ID is another record, which it must not delete;
/// - a new record handed to the engine may have landed even when its answer was lost, so deleting it must reach the
///   server, and a late copy of it is deleted again;
/// - a fetched version merges over the last server version known (the ancestor); one the unsent edits were made on
///   changes nothing; a re-created record replaces what it re-creates;
/// - `serverRecordChanged` merges and re-sends (one that comes without the server's record, as CloudKit allows,
///   keeps the change pending until a fetch brings that version); `unknownItem` and `zoneNotFound` wait for the
///   database feed to say why the record or zone went; a zone deletion drops or uploads again by its reason and
///   ``ZoneLossPolicy``; a zone deleted and created again before this device heard is settled by listing it from its
///   beginning;
/// - a conflict with a newer app's record halts sending, keeping the user's change until an upgrade;
/// - an account change removes the previous account's data (handed to the app first), keeps it for the same account,
///   or asks the user (``AccountChangePolicy``), and a sign-in uploads what was made while signed out;
/// - at launch, whatever the store holds unsent is pending on the engine again: changes added while handling an event
///   reach CKSyncEngine's state only with its next state update, so a crash before it loses them from the engine
///   (apple/sample-cloudkit-sync-engine#5), not from the store.
public struct ZoneReplica<Store: ReplicaStore>: Sendable {
  /// The policies.
  public var configuration: ReplicaConfiguration {
    didSet { bookkeepingKeys = Self.bookkeepingKeys(of: configuration) }
  }
  /// The keys the configuration stamps for its resolver (not the user's data), worked out once per configuration:
  /// a merge's explanation leaves them out.
  private(set) var bookkeepingKeys: Set<String>
  /// The app's records.
  public var store: Store
  /// The bookkeeping: persist it with the store after each action and event.
  public var metadata: ReplicaMetadata
  /// Records removed wholesale (with the zone, or the account), handed to the app before they went, oldest first.
  /// The app may clear it once it has offered them to the user.
  public var discarded: [DiscardedRecords] = []
  /// The deletions that were waiting when the fetch under way started (memory only: a relaunch forgets them).
  var fetchCovers: Set<RecordID> = []
  /// Whether the fetch under way shows the zone there: its database feed lists it, or its records were fetched
  /// (memory only).
  var zoneListed = false
  /// Whether this launch has checked the engine's pending changes against the store (memory only).
  var launchChecked = false
  /// Whether the replica keeps a log of its decisions in ``decisions``; off unless the app asks, so a replica that is
  /// not watched does no work for it.
  public var recordsDecisions = false
  /// The decisions made since the app last took them (``takeDecisions()``), oldest first, while
  /// ``recordsDecisions`` is on (memory only).
  public private(set) var decisions: [SyncDecision] = []

  /// A replica over `store`, from the metadata persisted at the last launch (a new one at the first).
  ///
  /// Store writes the metadata carries (``ReplicaMetadata/unsavedStoreWrites``: a crash struck after the metadata
  /// was written and before the store was) are written into `store` again; they stay carried until ``storeSaved()``,
  /// so save the store before the next action or event.
  /// - Parameters:
  ///   - configuration: The policies.
  ///   - store: The app's records.
  ///   - metadata: What was persisted; a first launch's unless given.
  public init(configuration: ReplicaConfiguration, store: Store, metadata: ReplicaMetadata = ReplicaMetadata()) {
    self.configuration = configuration
    self.bookkeepingKeys = Self.bookkeepingKeys(of: configuration)
    self.store = store
    self.metadata = metadata
    if self.metadata.clock == nil { self.metadata.clock = try? HybridLogicalClock(nodeID: configuration.deviceName) }
    for (id, record) in metadata.unsavedStoreWrites { self.store[id] = record }
  }

  /// Writes `record` to the store under `id` (`nil` removes it); under ``ReplicaPersistence/metadataThenStore`` the
  /// metadata carries the write until the app saves the store. Every store write of the replica goes through here.
  mutating func put(_ record: Record?, at id: RecordID) {
    store[id] = record
    if configuration.persistence == .metadataThenStore { metadata.unsavedStoreWrites[id] = .some(record) }
  }

  /// Removes the record stored under `id`, through ``put(_:at:)``.
  /// - Returns: The record removed, or `nil` when none was stored.
  mutating func removeStored(_ id: RecordID) -> Record? {
    guard let record = store[id] else { return nil }
    put(nil, at: id)
    return record
  }

  /// The app saved its store: the metadata stops carrying the store's writes. Under
  /// ``ReplicaPersistence/metadataThenStore``, call it after each store write that follows a metadata write; until it
  /// is called, the metadata carries every record written since (it stays correct, only larger).
  public mutating func storeSaved() {
    if !metadata.unsavedStoreWrites.isEmpty { metadata.unsavedStoreWrites = [:] }
  }

  var zoneID: ZoneID { configuration.zoneID }

  /// The keys written for the resolver rather than by the user: the configuration's bookkeeping and what the resolver
  /// stamps itself.
  private static func bookkeepingKeys(of configuration: ReplicaConfiguration) -> Set<String> {
    Set(configuration.bookkeeping.keys).union((configuration.resolver as? any EditStamping)?.stampedKeys ?? [])
  }

  /// Why the replica stopped sending, or `nil`.
  public var halt: SyncHalt? { metadata.halt }

  /// Whether the replica stopped sending (``halt`` is set). Cheaper than reading ``halt``: a host asks on every poll,
  /// and this reads the halt where it is stored instead of copying it out.
  @inlinable public var isHalted: Bool {
    if case .some = metadata.halt { return true }
    return false
  }

  /// A new app version is installed: its schema checks what is fetched and edited from now on, and a halt is lifted.
  /// - Parameter schema: The new app's schema.
  public mutating func upgrade(to schema: Schema?) {
    configuration.schema = schema
    metadata.halt = nil
  }

  /// The app was killed and launched again from what it persisted: a request in flight may have landed with its
  /// answer lost, so every new record handed out may yet land late.
  public mutating func relaunch() {
    fetchCovers = []
    zoneListed = false
    launchChecked = false
    metadata.changeWaitingRecords { _, state in
      if state.flags.contains(.createHandedOut) { state.flags.insert(.lateCreateMayLand) }
    }
  }

  /// The user reset sync: the app replaced its engine by one with no state. What the old engine had pending is added
  /// to the new one, and the zone is listed from its beginning again: a record the listing leaves out was deleted
  /// while this device held a copy.
  /// - Parameters:
  ///   - old: The replaced engine's state.
  ///   - syncEngine: The new engine's state.
  public mutating func resetSync(replacing old: SyncEngine.State, syncEngine: inout SyncEngine.State) {
    metadata.listEverythingAgain()
    if !rules.resetSyncKeepsUnsent {
      // Starts over from the server's copies: what was unsent goes back to the last version acknowledged, or away.
      for change in old.pendingRecords {
        guard case .saveRecord(let id) = change else { continue }
        put(metadata[id].serverVersion, at: id)
      }
      metadata.changeWaitingRecords { _, state in
        state.deletion = nil
        state.flags.remove(.deletionAwaitsFetch)
      }
      launchChecked = true
      return
    }
    syncEngine.add(pendingDatabaseChanges: old.pendingDatabaseChanges)
    syncEngine.add(pendingRecordZoneChanges: old.pendingRecordZoneChanges)
  }

  /// Makes sure the engine has pending what the store holds unsent — a record with unsent values or never saved, a
  /// deletion not yet confirmed, and the zone while the server may not have it — and nothing the replica settled.
  /// Done once per launch, when the engine first starts a fetch or a send (not at a state update or an account change,
  /// which may come first and reset the engine for another account), since CKSyncEngine's state from before a crash
  /// may lack changes added just before it.
  mutating func requeueUnsent(_ syncEngine: inout SyncEngine.State) {
    launchChecked = true
    guard rules.requeuesUnsentAtLaunch else { return }
    // Matched by kind: a save the engine still has pending from before the user deleted the record is no deletion.
    let pending = Set(syncEngine.pendingRecords)
    var missing: [SyncEngine.PendingRecordZoneChange] = []
    for record in store.records
    where record.hasUnsentChanges && !pending.contains(.saveRecord(record.recordID)) {
      missing.append(.saveRecord(record.recordID))
    }
    for id in metadata.waiting(where: { $0.deletion != nil })
    where !pending.contains(.deleteRecord(id)) && store[id] == nil {
      missing.append(.deleteRecord(id))
    }
    if !missing.isEmpty { syncEngine.add(pendingRecordZoneChanges: missing) }
    // And what it has pending that the replica settled since: a deletion no longer owed (answered, moot, replaced by
    // a create), sent blindly, could delete a record created anew elsewhere; a save with nothing unsent sends nothing.
    let settled = syncEngine.pendingRecords.filter { change in
      guard change.recordID.zoneID == zoneID else { return false }
      switch change {
      case .deleteRecord(let id): return deletionOwed(of: id) == nil
      case .saveRecord(let id): return store[id].map { !$0.hasUnsentChanges } ?? false
      }
    }
    if !settled.isEmpty { syncEngine.remove(pendingRecordZoneChanges: settled) }
    if !metadata.zone.created, !store.recordIDs.isEmpty, !syncEngine.pendingDatabaseChanges.contains(.saveZone(zoneID))
    {
      syncEngine.add(pendingDatabaseChanges: [.saveZone(zoneID)])
    }
  }

  /// Returns the decisions made since the last call, and forgets them.
  /// - Returns: The decisions, oldest first; empty unless ``recordsDecisions`` is on.
  public mutating func takeDecisions() -> [SyncDecision] {
    defer { decisions = [] }
    return decisions
  }

  /// Notes a decision, when the app watches them.
  mutating func decide(_ decision: SyncDecision) {
    if recordsDecisions { decisions.append(decision) }
  }
}
