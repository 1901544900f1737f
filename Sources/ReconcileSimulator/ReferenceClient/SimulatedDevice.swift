package import Foundation
package import Reconcile

/// The reference sync client: an app that syncs one custom zone of its user's private database with a
/// ``SimulatedServer`` through CloudKit's operations themselves — no CKSyncEngine — and keeps every sync rule in
/// Reconcile's `ZoneReplica`, the core a CKSyncEngine app runs too.
///
/// - **The app's part** is what a client of the operations must do itself: its requests, tokens and paging, the
///   schedule (a sync reads the database feed, then the zone's changes page by page, committing each token only after
///   the page is applied, then sends the queue in batches of at most 400, one operation in flight at a time), retries
///   (transient errors wait for the retry-after, else an exponential backoff; a throttle between operations doubles on
///   failure and shrinks by a third on success; `limitExceeded` halves the batch), a seal on each stored row checked
///   before the row is read, and halts for errors only the user can answer (a sign-in, full storage).
/// - **The rules** are the replica's: it hears each answer as the `SyncEngine.Event` a CKSyncEngine would deliver — the
///   same events in the same order — and builds each batch, so conflicts, deletions, zone loss, account changes and
///   halts over a newer app's records are settled exactly as in the `sync-engine` client.
///
/// The device is a state machine with no clock of its own: a driver asks it for ``nextRequest(at:)``, delivers the
/// server's answer with ``receive(_:for:at:)``, and moves time. ``sync(with:maximumRequests:)`` is such a driver, without faults; the
/// ``Simulation`` is another, with a network that loses, delays and duplicates messages.
package struct SimulatedDevice: Sendable {
  /// How a device is set up.
  package struct Configuration: Sendable {
    /// The device's name, recorded by the server on every save it makes.
    package var name: String
    /// The signed-in user's record name; `nil` for no iCloud account.
    package var userRecordName: String?
    /// The custom zone the device syncs, in its user's private database.
    package var zoneID: ZoneID
    /// How conflicts are merged.
    package var resolver: any ConflictResolver
    /// Who wins between a delete and an edit.
    package var deletePolicy: DeletePolicy
    /// The app's schema: fetched records are checked against it and conflicts are guarded by it. `nil` for none.
    package var schema: Schema?
    /// The fields written on each edit for the resolver.
    package var bookkeeping: EditBookkeeping
    /// How far the device's clock is ahead of true (virtual) time, in seconds; negative for behind.
    package var clockOffset: TimeInterval
    /// Waits, retries and the throttle.
    package var retry: RetryPolicy
    /// The most items per request; CloudKit's 400 unless given. Halved on `limitExceeded`.
    package var batchLimit: Int
    /// The page size asked of change feeds; `nil` for the server's.
    package var fetchPageSize: Int?
    /// What the device does when another client deletes its zone.
    package var zoneDeletion: ZoneLossPolicy
    /// What the app does with its local data when the account changes.
    package var accountChange: AccountChangePolicy = .deleteLocalData
    /// Deliberate mistakes the device makes, for showing that an invariant catches them.
    package var defects: DefectSet

    /// Creates a configuration.
    /// - Parameters:
    ///   - name: The device's name.
    ///   - userRecordName: The signed-in user, or `nil`.
    ///   - zoneID: The zone to sync.
    ///   - resolver: How conflicts are merged; server last-writer-wins unless given.
    ///   - deletePolicy: `.deleteWins` unless given.
    ///   - schema: The app's schema, if any.
    ///   - bookkeeping: Fields for the resolver; none unless given.
    ///   - clockOffset: Clock skew in seconds; 0 unless given.
    ///   - retry: The default ``RetryPolicy`` unless given.
    ///   - batchLimit: 400 unless given.
    ///   - fetchPageSize: `nil` unless given.
    ///   - zoneDeletion: `.dropLocalData` unless given.
    ///   - defects: None unless given.
    package init(
      name: String,
      userRecordName: String? = "_user",
      zoneID: ZoneID,
      resolver: any ConflictResolver = .serverLastWriterWins,
      deletePolicy: DeletePolicy = .deleteWins,
      schema: Schema? = nil,
      bookkeeping: EditBookkeeping = .none,
      clockOffset: TimeInterval = 0,
      retry: RetryPolicy = RetryPolicy(),
      batchLimit: Int = 400,
      fetchPageSize: Int? = nil,
      zoneDeletion: ZoneLossPolicy = .dropLocalData,
      defects: Set<ClientDefect> = []
    ) {
      self.name = name
      self.userRecordName = userRecordName
      self.zoneID = zoneID
      self.resolver = resolver
      self.deletePolicy = deletePolicy
      self.schema = schema
      self.bookkeeping = bookkeeping
      self.clockOffset = clockOffset
      self.retry = retry
      self.batchLimit = batchLimit
      self.fetchPageSize = fetchPageSize
      self.zoneDeletion = zoneDeletion
      self.defects = DefectSet(defects)
    }
  }

  /// Where a sync stands.
  enum Phase: String, Sendable {
    case idle, fetchingDatabase, fetchingZone, sending
  }

  /// What one in-flight request carried, to interpret its answer. A class, fixed once sent: the device asks whether
  /// it has a request in flight on every poll, and an optional reference answers without copying the request.
  final class InFlight: Sendable {
    let id: Int
    let request: ServerRequest
    let sentAt: Date
    /// The listing of the zone the request belongs to (``Session/listing`` when it was sent).
    let listing: Int

    init(id: Int, request: ServerRequest, sentAt: Date, listing: Int) {
      self.id = id
      self.request = request
      self.sentAt = sentAt
      self.listing = listing
    }
  }

  /// What a crash loses.
  struct Session: Sendable {
    var phase = Phase.idle
    var syncRequested = false
    /// A send of the queue without fetching first, as CKSyncEngine schedules after local changes.
    var sendRequested = false
    var inFlight: InFlight?
    /// Counts restarts of the zone's listing (a damaged copy thrown away, an expired token, the zone deleted): a page
    /// answering a fetch sent for an earlier listing continues a listing the device no longer follows.
    var listing = 0
    /// The wait, the retries and the batch limit (shared with the CKSyncEngine stand-in).
    var pacing: RequestPacing
    var throttle: TimeInterval
    var lastError: String?
    /// Kept as the request itself: its description is built only when diagnostics are read, not on every answer.
    var lastCompletedOperation: CompletedOperation?
    /// Clean saves since the batch limit last changed: after ten, a halved limit doubles back toward the configured one.
    var cleanSaves = 0
    /// Counts persistence writes while an answer is handled, for a torn crash.
    var writes = PersistenceWrites()
    /// A torn crash struck while the answer was handled: nothing more is written.
    var stopped = false
    /// During a read of the database feed from the beginning, whether its pages so far named the zone.
    var listedFromStart: Bool?
    /// Whether the replica heard `willFetchRecordZoneChanges` for the zone's fetch under way.
    var zoneFetchStarted = false
    var sendContext = SyncEngine.SendChangesContext(reason: .scheduled, maximumItems: 400)
    /// Records the user changed again while their batch was in flight: their pending changes stay when it lands.
    var readded: Set<RecordID> = []
    /// The replica held back everything queued, and the sync asked for then has not been followed by a change: a
    /// second empty batch ends the send until the next reason to sync.
    var heldBackAfterFetch = false
  }

  /// Everything the device holds, behind one reference: a device is a large value that drivers read often (through
  /// array subscripts, which copy), so copying one costs a retain, and the state is copied only when a shared copy is
  /// written to.
  final class State: @unchecked Sendable {
    // @unchecked: a State is mutated only through `SimulatedDevice.mutableState`, after a uniqueness check, so no two
    // values ever share a State that changes.
    // Unchecked exclusivity: the device reads these on every poll, and a dynamic check costs more than the read. Only
    // the owning value reaches them, through accessors that never overlap a read with a write.
    @exclusivity(unchecked) var configuration: Configuration
    @exclusivity(unchecked) var storage: DeviceStorage
    @exclusivity(unchecked) var isOnline = true
    @exclusivity(unchecked) var session: Session

    init(configuration: Configuration, storage: DeviceStorage, isOnline: Bool, session: Session) {
      self.configuration = configuration
      self.storage = storage
      self.isOnline = isOnline
      self.session = session
    }

    func copy() -> State {
      State(configuration: configuration, storage: storage, isOnline: isOnline, session: session)
    }
  }

  var state: State

  /// The state, copied first if another value shares it.
  private var mutableState: State {
    mutating get {
      if !isKnownUniquelyReferenced(&state) { state = state.copy() }
      return state
    }
  }

  /// How the device is set up.
  package internal(set) var configuration: Configuration {
    _read { yield state.configuration }
    _modify { yield &mutableState.configuration }
  }
  /// What the device keeps on disk.
  package internal(set) var storage: DeviceStorage {
    _read { yield state.storage }
    _modify { yield &mutableState.storage }
  }
  /// Whether the device has a network.
  package internal(set) var isOnline: Bool {
    _read { yield state.isOnline }
    _modify { yield &mutableState.isOnline }
  }
  var session: Session {
    _read { yield state.session }
    _modify { yield &mutableState.session }
  }

  /// Creates a device with an empty store, set up as ``ClientUnderTest/reference`` sets up every device of a run.
  /// - Parameter setup: The device's name, user, zone, resolver, delete policy, schema and defects.
  /// - Throws: ``DeviceError/invalidDeviceName(_:)`` for a name that is empty or longer than 255 UTF-8 bytes.
  package init(setup: ClientSetup) throws(DeviceError) { try self.init(configuration: Configuration(setup)) }

  /// Creates a device with an empty store.
  /// - Parameter configuration: How it is set up.
  /// - Throws: ``DeviceError/invalidDeviceName(_:)`` for a name that is empty or longer than 255 UTF-8 bytes (the
  ///   name is the clock's node ID).
  package init(configuration: Configuration) throws(DeviceError) {
    guard (try? HybridLogicalClock(nodeID: configuration.name)) != nil else {
      throw .invalidDeviceName(configuration.name)
    }
    let replica = ZoneReplica(configuration: configuration.replicaConfiguration, store: SealedStore())
    var storage = DeviceStorage(replica: replica)
    storage.replica.recordsDecisions = true
    state = State(
      configuration: configuration, storage: storage, isOnline: true,
      session: Session(
        pacing: RequestPacing(batchLimit: configuration.batchLimit), throttle: configuration.retry.minimumInterval))
  }

  /// The device's name.
  package var name: String { configuration.name }

  /// Who the device is, as the server sees it.
  package var identity: ClientIdentity {
    ClientIdentity(userRecordName: configuration.userRecordName, deviceName: configuration.name)
  }

  /// The device's own clock reading at true time `now`: skewed by the clock offset.
  /// - Parameter now: True (virtual) time.
  /// - Returns: What the device believes the time is.
  package func deviceTime(at now: Date) -> Date { now.addingTimeInterval(configuration.clockOffset) }

  // MARK: Looking

  /// The record with `id` as the app sees it, or `nil`.
  /// - Parameter id: A record ID.
  package func record(_ id: RecordID) -> Record? { storage.replica.store[id] }

  /// Every record the app sees, sorted by ID.
  package var records: [Record] { storage.replica.store.records }

  /// Why the device halted, or `nil`: an error only the user can answer, or a halt of the sync rules (a newer app's
  /// record, a conflict the resolver refused, an account question).
  package var haltReason: HaltReason? { storage.operationHalt ?? storage.replica.halt.map(HaltReason.init) }

  /// Whether the device has halted.
  package var isHalted: Bool {
    if case .some = storage.operationHalt { return true }
    return storage.replica.isHalted
  }

  /// One word for what the device is doing.
  package var status: DeviceStatus {
    if isHalted { return .halted }
    if !isOnline { return .offline }
    if session.inFlight != nil { return .syncing }
    if session.phase != .idle || session.syncRequested || session.sendRequested {
      return session.pacing.waitUntil != nil ? .waiting : .syncing
    }
    return .idle
  }

  /// Whether the device has nothing left to do: no sync requested or running, nothing queued.
  package var isIdle: Bool {
    session.phase == .idle && !session.syncRequested && !session.sendRequested && session.inFlight == nil
      && pendingChangeCount == 0
  }

  /// What the device can tell about its sync.
  package var diagnostics: DeviceDiagnostics {
    let records = storage.replica.store.all
    return DeviceDiagnostics(
      status: status,
      queuedCount: pendingChangeCount,
      recordCount: records.count,
      recordsWithChangeTags: records.values.filter { $0.recordChangeTag != nil }.count,
      lastSuccessfulFetch: storage.lastSuccessfulFetch,
      lastSuccessfulSave: storage.lastSuccessfulSave,
      inFlightOperation: session.inFlight.map { $0.request.description },
      lastCompletedOperation: session.lastCompletedOperation?.description,
      throttle: session.throttle,
      retryCount: session.pacing.retryCount,
      lastError: session.lastError,
      haltReason: haltReason,
      clockOffset: configuration.clockOffset,
      appVersion: configuration.schema.flatMap { $0.recordSchemas.values.first?.version.description },
      queuedKinds: queuedKinds)
  }

  // MARK: Life cycle

  /// Asks the device to sync: fetch, then send what is queued. A sync already running picks the request up when it
  /// finishes.
  package mutating func requestSync() { session.syncRequested = true }

  /// Asks the device to send its queue without fetching first, as CKSyncEngine does shortly after local changes; a
  /// conflict then comes back from the server as `serverRecordChanged`. A sync already running sends the queue anyway.
  package mutating func requestSend() { session.sendRequested = true }

  /// Takes the device off the network. A request in flight is abandoned, as one whose answer was lost; nothing is sent
  /// until ``goOnline()``.
  package mutating func goOffline() {
    abandonInFlight()
    isOnline = false
  }

  /// Puts the device back on the network: it fetches before it sends what it held.
  package mutating func goOnline() {
    if !isOnline { session.syncRequested = true }
    isOnline = true
  }

  /// The app crashes and relaunches: everything but its storage is lost — the operation in flight, retry counts, the
  /// throttle — and a sync is requested, as an app does at launch. The relaunched app checks its store and throws away
  /// damaged records (see ``corruptStoredRecord(_:)``).
  package mutating func crash() {
    session = Session(
      pacing: RequestPacing(batchLimit: configuration.batchLimit), throttle: configuration.retry.minimumInterval)
    session.syncRequested = true
    storage.replica.relaunch()
    if configuration.defects.contains(.forgetQueueOnCrash) { storage.queue = SyncEngine.State() }
    if configuration.defects.contains(.rewindTokenOnCrash), storage.zoneToken != nil {
      storage.zoneToken = storage.firstZoneToken
    }
    discardDamagedRecords()
  }

  /// The user resets sync: the change tokens and the sync under way go — a save in flight may have landed — and a
  /// sync lists the database and the zone from the beginning, so a record the listing leaves out is dropped as
  /// deleted. The replica keeps what was pending and queues it again, so nothing unsent is lost. A halt stays.
  package mutating func resetSync() {
    dropRound()
    let old = storage.queue
    storage.queue = SyncEngine.State()
    storage.withReplica { replica, queue in replica.resetSync(replacing: old, syncEngine: &queue) }
    forgetTokens()
    session.syncRequested = true
  }

  /// The device's iCloud account changed. As a CKSyncEngine does, the app forgets its tokens and its queue, then the
  /// replica does with the records what its account-change policy says (`AccountChangePolicy`); an operation halt
  /// goes, as a new account is not the old one's to answer for.
  package mutating func accountChanged(_ change: SyncEngine.AccountChange) {
    dropRound()
    storage.operationHalt = nil
    if !configuration.defects.contains(.keepSyncStateAcrossAccounts) {
      forgetTokens()
      storage.queue = SyncEngine.State()
    } else {
      // The defect: the tokens stay, and the deletions still queued with them.
      let deletions = storage.queue.pendingRecords.filter {
        if case .deleteRecord = $0 { return true }
        return false
      }
      storage.queue = SyncEngine.State()
      storage.queue.add(pendingRecordZoneChanges: deletions)
    }
    deliver(.accountChange(change))
    session.stopped = false
    if change.currentUser != nil { session.syncRequested = true }
  }

  /// What the app does with local data when the account changes.
  package var accountChangeResponse: AccountChangePolicy { storage.replica.configuration.accountChange }

  /// The replica takes the user's answer to the account question; the app then lists everything again and sends what
  /// the answer left pending, as after a forced resync.
  package mutating func answerAccountQuestion(keepingData: Bool) -> Bool {
    let resolved = storage.withReplica { replica, queue in
      replica.resolveAccountChange(keepingData: keepingData, syncEngine: &queue)
    }
    guard resolved else {
      return false
    }
    resetSync()
    return true
  }

  /// Clears a halt, checks the store (see ``corruptStoredRecord(_:)``) and requests a sync, as an app does when the
  /// user acts on the halt reason.
  package mutating func restart() {
    discardDamagedRecords()
    storage.operationHalt = nil
    dropRound()
    session.pacing.waitUntil = nil
    session.pacing.retryCount = 0
    session.syncRequested = true
  }

  /// Moves the device's clock by `seconds` (a user or network time change).
  /// - Parameter seconds: Positive to jump ahead, negative to fall behind.
  package mutating func jumpClock(by seconds: TimeInterval) { configuration.clockOffset += seconds }

  /// Installs a new app version's schema (an app update): a halt over a newer app's record is lifted.
  /// - Parameter schema: The new schema.
  package mutating func upgrade(to schema: Schema?) {
    configuration.schema = schema
    storage.replica.upgrade(to: schema)
  }

  /// Replaces the resolver, the fields written for it, and the delete policy (the app ships another merge).
  /// - Parameters:
  ///   - resolver: How conflicts are merged.
  ///   - bookkeeping: The fields each edit writes for `resolver`.
  ///   - deletePolicy: Who wins between a delete and an edit.
  package mutating func use(
    _ resolver: any ConflictResolver, bookkeeping: EditBookkeeping, deletePolicy: DeletePolicy
  ) {
    configuration.resolver = resolver
    configuration.bookkeeping = bookkeeping
    configuration.deletePolicy = deletePolicy
    storage.replica.configuration.resolver = resolver
    storage.replica.configuration.bookkeeping = bookkeeping
    storage.replica.configuration.deletePolicy = deletePolicy
  }

  /// Forgets the change tokens: the next sync reads the database feed and lists the zone from the beginning, and a
  /// page still on its way for the listing before continues one the device no longer follows.
  mutating func forgetTokens() {
    storage.databaseToken = nil
    storage.zoneToken = nil
    storage.zoneNeedsFetch = false
    session.listing += 1
  }

  /// The request in flight is abandoned without an answer, as one whose answer was lost: a send's items each fail
  /// with a network error (each may have landed), the send ends and the next sync fetches first; a fetch resumes.
  mutating func abandonInFlight() {
    guard let flight = session.inFlight else { return }
    session.inFlight = nil
    guard case .modifyRecords(let request) = flight.request else { return }
    reportEveryItem(of: request, failedWith: .networkFailure(retryAfter: nil))
    endRound(nil)
    session.stopped = false
    session.syncRequested = true
  }

  /// Drops the sync under way without ending it, as an app replacing its sync machinery does: the next sync starts
  /// from the beginning.
  mutating func dropRound() {
    abandonInFlight()
    session.phase = .idle
    session.zoneFetchStarted = false
    session.listedFromStart = nil
  }

  /// Stops the operation layer for a halt it must wait out with the user.
  mutating func halt(_ reason: HaltReason) {
    storage.operationHalt = reason
    session.inFlight = nil
    endRound(nil)
    session.pacing.waitUntil = nil
    session.lastError = reason.description
  }
}

/// The last operation a device completed, for its diagnostics.
enum CompletedOperation: Sendable, Hashable, CustomStringConvertible {
  /// A sync ended with nothing left to send.
  case syncComplete
  /// A request was answered.
  case answered(ServerRequest, error: CloudKitError?)

  /// `sync complete`, `REQUEST: ok` or `REQUEST: ERROR`.
  var description: String {
    switch self {
    case .syncComplete: "sync complete"
    case .answered(let request, let error): "\(request): \(error?.code.name ?? "ok")"
    }
  }
}
