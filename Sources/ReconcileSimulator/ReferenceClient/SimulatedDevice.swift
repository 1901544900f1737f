public import Foundation
public import Reconcile

/// The reference sync client: a device that keeps a local store, queues changes, and syncs one custom zone of its
/// user's private database with a ``SimulatedServer`` the way seeds 000–004 recommend.
///
/// - Its local store keeps, per record, the last server version (the conflict ancestor) and the current values with
///   unsent edits; a persistent pending queue holds one entry per record ID; tombstones remember deletions.
/// - A sync fetches database changes, then zone changes page by page (applying parents before children, committing
///   each token only after its changes are applied), then sends the queue in batches of at most 400, one operation in
///   flight at a time.
/// - Conflicts — a `serverRecordChanged` reply, or a fetched change to a record with unsent edits — go through the
///   resolver (``ClientSetup/resolver``), guarded by the device's schema; deletes against edits through the
///   delete policy (``ClientSetup/deletePolicy``).
/// - `limitExceeded` halves the batch; `batchRequestFailed` items are sent again; transient errors wait for the
///   retry-after (else exponential backoff) up to a number of retries; a throttle between operations doubles on failure
///   and shrinks by a third on success.
/// - Not-authenticated, bad-database, quota, user-deleted-zone, schema halts and refusals it cannot fix **halt** the
///   device with a readable ``HaltReason`` until ``restart()``.
///
/// The device is a state machine with no clock of its own: a driver asks it for ``nextRequest(at:)``, delivers the
/// server's answer with ``receive(_:for:at:)``, and moves time. ``sync(with:maximumRequests:)`` is such a driver, without faults; the
/// ``Simulation`` is another, with a network that loses, delays and duplicates messages.
public struct SimulatedDevice: Sendable {
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
    package var zoneDeletion: ZoneDeletionResponse
    /// What the app does with its local data when the account changes.
    package var accountChange: AccountChangeResponse = .deleteLocalData
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
      zoneDeletion: ZoneDeletionResponse = .dropLocalData,
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
    case idle, creatingZone, fetchingDatabase, fetchingZone, sending
  }

  /// What one in-flight request carried, to interpret its answer. A class, fixed once sent: the device asks whether
  /// it has a request in flight on every poll, and an optional reference answers without copying the request.
  final class InFlight: Sendable {
    let id: Int
    let request: ServerRequest
    let sentAt: Date
    /// For saves: each record's generation and values when sent.
    let sentSaves: [RecordID: (generation: Int, record: Record)]
    let sentDeletes: Set<RecordID>
    /// The listing of the zone the request belongs to (``Session/listing`` when it was sent).
    let listing: Int

    init(
      id: Int, request: ServerRequest, sentAt: Date, sentSaves: [RecordID: (generation: Int, record: Record)] = [:],
      sentDeletes: Set<RecordID> = [], listing: Int = 0
    ) {
      self.id = id
      self.request = request
      self.sentAt = sentAt
      self.sentSaves = sentSaves
      self.sentDeletes = sentDeletes
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
    var haltReason: HaltReason? { didSet { halted = haltReason != nil } }
    /// Whether ``haltReason`` is set, read on every poll without copying the reason.
    private(set) var halted = false
    /// Clean saves since the batch limit last changed: after ten, a halved limit doubles back toward the configured one.
    var cleanSaves = 0
    /// Counts persistence writes while an answer is handled, for a torn crash.
    var writes = PersistenceWrites()
    /// The server answered `zoneNotFound` or `userDeletedZone`, with the reason the error implies (a client's deletion;
    /// a purge): the device reads the database feed to learn why the zone went before it drops or uploads anything,
    /// so that it handles the feed's report, once; if the feed does not say, the error's reason stands.
    var zoneMissing: SyncEngine.ZoneDeletion.Reason?
    /// ``databaseReads`` when the zone was found missing: another item of the same reply saying so again does not
    /// stand for the feed's answer.
    var zoneMissingReads = 0
    /// Complete reads of the database feed so far.
    var databaseReads = 0
    /// Records with unsent changes a save found gone or created anew, with ``databaseReads`` at the time: whether the
    /// zone went (and the record is to be uploaded again) or a user deleted or re-created it, the feed says, so the
    /// change waits, queued, until the feed has been read since.
    var goneAwaitingFeed: [RecordID: Int] = [:]
  }

  /// Everything the device holds, behind one reference: a device is a large value that drivers read often (through
  /// array subscripts, which copy), so copying one costs a retain, and the state is copied only when a shared copy is
  /// written to.
  final class State: @unchecked Sendable {
    // @unchecked: a State is mutated only through `SimulatedDevice.mutableState`, after a uniqueness check, so no two
    // values ever share a State that changes.
    // Unchecked exclusivity: the device reads these on every poll, and a dynamic check costs more than the read. Only
    // the owning value reaches them, through accessors that never overlap a read with a write.
    @exclusivity(unchecked) var store: LocalStore
    @exclusivity(unchecked) var isOnline = true
    @exclusivity(unchecked) var session: Session
    /// What the app was handed before local data went (``SyncClient/localDataDeletions``).
    @exclusivity(unchecked) var handedOver: [LocalDataDeletion] = []

    init(store: LocalStore, isOnline: Bool, session: Session) {
      self.store = store
      self.isOnline = isOnline
      self.session = session
    }

    func copy() -> State {
      let copy = State(store: store, isOnline: isOnline, session: session)
      copy.handedOver = handedOver
      return copy
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

  /// The local store: storage and the rules that change it.
  package internal(set) var store: LocalStore {
    _read { yield state.store }
    _modify { yield &mutableState.store }
  }
  /// How the device is set up.
  package internal(set) var configuration: Configuration {
    _read { yield state.store.configuration }
    _modify { yield &mutableState.store.configuration }
  }
  /// What the device keeps on disk.
  package internal(set) var storage: DeviceStorage {
    _read { yield state.store.storage }
    _modify { yield &mutableState.store.storage }
  }
  /// Whether the device has a network.
  public internal(set) var isOnline: Bool {
    _read { yield state.isOnline }
    _modify { yield &mutableState.isOnline }
  }
  var session: Session {
    _read { yield state.session }
    _modify { yield &mutableState.session }
  }
  /// Every hand-over of local data before it went (the app's hook).
  var handedOver: [LocalDataDeletion] {
    _read { yield state.handedOver }
    _modify { yield &mutableState.handedOver }
  }
  /// See ``LocalStore/mayHoldDamage``.
  var mayHoldDamage: Bool { state.store.mayHoldDamage }

  /// Creates a device with an empty store, set up as ``ClientUnderTest/reference`` sets up every device of a run.
  /// - Parameter setup: The device's name, user, zone, resolver, delete policy, schema and defects.
  /// - Throws: ``DeviceError/invalidDeviceName(_:)`` for a name that is empty or longer than 255 UTF-8 bytes.
  public init(setup: ClientSetup) throws(DeviceError) { try self.init(configuration: Configuration(setup)) }

  /// Creates a device with an empty store.
  /// - Parameter configuration: How it is set up.
  /// - Throws: ``DeviceError/invalidDeviceName(_:)`` for a name that is empty or longer than 255 UTF-8 bytes.
  package init(configuration: Configuration) throws(DeviceError) {
    state = State(
      store: try LocalStore(configuration: configuration), isOnline: true,
      session: Session(
        pacing: RequestPacing(batchLimit: configuration.batchLimit), throttle: configuration.retry.minimumInterval))
  }

  /// The device's name.
  public var name: String { configuration.name }

  /// Who the device is, as the server sees it.
  public var identity: ClientIdentity {
    ClientIdentity(userRecordName: configuration.userRecordName, deviceName: configuration.name)
  }

  /// The device's own clock reading at true time `now`: skewed by the clock offset.
  /// - Parameter now: True (virtual) time.
  /// - Returns: What the device believes the time is.
  package func deviceTime(at now: Date) -> Date { store.deviceTime(at: now) }

  // MARK: Looking

  // Read from the storage directly: `store.record(id)` copies the whole store on this hot path (2,200 more
  // instructions per simulated step, measured with callgrind).

  /// The record with `id` as the app sees it, or `nil`.
  /// - Parameter id: A record ID.
  public func record(_ id: RecordID) -> Record? { storage.records[id]?.current }

  /// Every record the app sees, sorted by ID.
  public var records: [Record] { storage.records.values.map(\.current).sorted { $0.recordID < $1.recordID } }

  /// Why the device halted, or `nil`.
  public var haltReason: HaltReason? { session.haltReason }

  /// Whether the device has halted; cheaper than comparing ``haltReason`` with `nil`, which copies the reason.
  public var isHalted: Bool { session.halted }

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
  public var isIdle: Bool {
    session.phase == .idle && !session.syncRequested && !session.sendRequested && session.inFlight == nil
      && storage.pending.isEmpty
  }

  /// What the device can tell about its sync.
  package var diagnostics: DeviceDiagnostics {
    DeviceDiagnostics(
      status: status,
      queuedCount: storage.pending.count,
      recordCount: storage.records.count,
      recordsWithChangeTags: storage.records.values.filter { $0.current.recordChangeTag != nil }.count,
      lastSuccessfulFetch: storage.lastSuccessfulFetch,
      lastSuccessfulSave: storage.lastSuccessfulSave,
      inFlightOperation: session.inFlight.map { $0.request.description },
      lastCompletedOperation: session.lastCompletedOperation?.description,
      throttle: session.throttle,
      retryCount: session.pacing.retryCount,
      lastError: session.lastError,
      haltReason: session.haltReason)
  }

  // MARK: Life cycle

  /// Asks the device to sync: fetch, then send what is queued. A sync already running picks the request up when it
  /// finishes.
  public mutating func requestSync() { session.syncRequested = true }

  /// Asks the device to send its queue without fetching first, as CKSyncEngine does shortly after local changes; a
  /// conflict then comes back from the server as `serverRecordChanged`. A sync already running sends the queue anyway.
  public mutating func requestSend() { session.sendRequested = true }

  /// Takes the device off the network. A request in flight is abandoned; nothing is sent until ``goOnline()``.
  public mutating func goOffline() {
    markInFlightSavesInDoubt()
    isOnline = false
    session.inFlight = nil
    if session.phase != .idle { session.syncRequested = true }
    session.phase = .idle
  }

  /// Puts the device back on the network.
  public mutating func goOnline() { isOnline = true }

  /// The app crashes and relaunches: everything but its storage and a halt is lost — the operation in flight, retry
  /// counts, the throttle — and a sync is requested, as an app does at launch. The relaunched app checks its store and
  /// throws away damaged records (see ``corruptStoredRecord(_:)``).
  public mutating func crash() {
    // A halt waits for the user (an update, a sign-in, freed storage): relaunching does not clear it.
    let halt = session.haltReason
    markInFlightSavesInDoubt()
    session = Session(
      pacing: RequestPacing(batchLimit: configuration.batchLimit), throttle: configuration.retry.minimumInterval)
    session.haltReason = halt
    session.syncRequested = true
    if configuration.defects.contains(.forgetQueueOnCrash) { storage.pending = PendingQueue() }
    if configuration.defects.contains(.rewindTokenOnCrash), storage.zoneToken != nil {
      storage.zoneToken = storage.firstZoneToken
    }
    discardDamagedRecords()
  }

  /// The user resets sync: the change tokens and the sync under way go — a save in flight may have landed — and a
  /// sync lists the database and the zone from the beginning, so a record the listing leaves out is dropped as
  /// deleted. The store stays: records, tombstones and the queue, so nothing unsent is lost. A halt stays too.
  public mutating func resetSync() {
    markInFlightSavesInDoubt()
    session.inFlight = nil
    session.phase = .idle
    storage.databaseToken = nil
    restartZoneListing()
    session.syncRequested = true
    if configuration.defects.contains(.resetSyncDropsUnsent) {
      // The defect: the reset starts from the server's copies, and what waited to be sent is forgotten.
      for (id, local) in storage.records where storage.pending[id] != nil {
        storage.records[id] = local.lastKnownServer.map { LocalRecord(lastKnownServer: $0, current: $0) }
      }
      storage.pending = PendingQueue()
    }
  }

  /// Hands the app the copies a wholesale deletion of local data takes (``LocalDataDeletion``), before they go.
  mutating func handOver(_ cause: LocalDataDeletion.Cause, _ records: [Record]) {
    guard !records.isEmpty else { return }
    handedOver.append(LocalDataDeletion(cause: cause, records: records))
  }

  /// Hands the app the copies of `held` (what the store held before a wholesale deletion) that are gone now.
  mutating func handOver(_ cause: LocalDataDeletion.Cause, goneFrom held: [RecordID: LocalRecord]) {
    handOver(cause, held.filter { storage.records[$0.key] == nil }.map(\.value.current))
  }

  /// The device's iCloud account changed. Where the app deletes its local data (``AccountChangeResponse``: by default
  /// on a sign-out or a switch, as Apple asks; keeping it for the same account, when another account signs in), it
  /// deletes records, queue, tombstones, tokens and a halt (a new account is not the old one's to answer for). A
  /// sign-in that deletes nothing uploads what the device holds, made while signed out, listing the zone from the
  /// beginning — or, signing in again to the account whose data it kept, resumes where it stopped.
  public mutating func accountChanged(_ change: SyncEngine.AccountChange) {
    markInFlightSavesInDoubt()
    session.inFlight = nil
    session.phase = .idle
    session.haltReason = nil
    let owner = storage.dataOwner ?? configuration.userRecordName
    defer { if let user = change.currentUser { storage.dataOwner = user } }
    let deletes = configuration.accountChange.deletesLocalData(
      from: change.previousUser, to: change.currentUser, owner: owner)
    if change.currentUser == nil, !deletes {
      // Kept through the sign-out, for the account to find again.
    } else if change.previousUser == nil, change.currentUser == owner, !deletes,
      configuration.accountChange == .keepForSameAccount
    {
      // The same account again: everything kept is its own, tokens included.
    } else if deletes, !configuration.defects.contains(.keepDataAcrossAccounts) {
      handOver(.accountChange(change), storage.records.values.map(\.current))
      let queued = Set(storage.pending.entries.map(\.recordID))
      let unsent = storage.records.filter { queued.contains($0.key) }
      let state = (storage.zoneToken, storage.databaseToken, storage.zoneCreated)
      let deletes = storage.pending.entries.filter { $0.kind == .delete }.map(\.recordID)
      storage = DeviceStorage(clock: storage.clock)
      if configuration.defects.contains(.uploadPendingToNewAccount) {
        for (id, record) in unsent.sorted(by: { $0.key < $1.key }) {
          storage.records[id] = record
          store.reupload(id)
        }
      }
      if configuration.defects.contains(.keepSyncStateAcrossAccounts) {
        (storage.zoneToken, storage.databaseToken, storage.zoneCreated) = state
        for id in deletes { storage.pending.enqueue(id, .delete) }
      }
    } else {
      // Uploaded as new records, copies are checked first: a damaged one must not pass for the user's data.
      _ = discardDamagedRecords()
      storage.databaseToken = nil
      storage.zoneCreated = false
      restartZoneListing()
      for id in storage.records.keys.sorted() { store.reupload(id) }
    }
    session.syncRequested = change.currentUser != nil
  }

  /// Clears a halt, checks the store (see ``corruptStoredRecord(_:)``) and requests a sync, as an app does when the
  /// user acts on the halt reason.
  public mutating func restart() {
    discardDamagedRecords()
    session.haltReason = nil
    session.phase = .idle
    session.inFlight = nil
    session.pacing.waitUntil = nil
    session.pacing.retryCount = 0
    session.syncRequested = true
  }

  /// Moves the device's clock by `seconds` (a user or network time change).
  /// - Parameter seconds: Positive to jump ahead, negative to fall behind.
  public mutating func jumpClock(by seconds: TimeInterval) { configuration.clockOffset += seconds }

  /// Installs a new app version's schema (an app update).
  /// - Parameter schema: The new schema.
  public mutating func upgrade(to schema: Schema?) { configuration.schema = schema }

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
  }

  /// The request in flight is abandoned without an answer: each save in it may or may not have landed.
  mutating func markInFlightSavesInDoubt() {
    guard let flight = session.inFlight else { return }
    for id in flight.sentSaves.keys { noteInDoubt(id) }
  }

  /// A save of `id` went unanswered: it may have landed, whatever later answers say.
  mutating func noteInDoubt(_ id: RecordID) {
    storage.records[id]?.inDoubt = true
    if storage.deletesOfUnconfirmed[id] != nil { storage.deletesOfUnconfirmed[id] = true }
    // Deleted here since it was sent: a copy of this save may land after the deletion.
    if storage.records[id] == nil, storage.tombstones[id] != nil { storage.staleSavesInDoubt.insert(id) }
  }

  mutating func halt(_ reason: HaltReason) {
    session.haltReason = reason
    session.phase = .idle
    session.inFlight = nil
    session.pacing.waitUntil = nil
    session.lastError = reason.description
  }
}

/// The last operation a device completed, for its diagnostics.
enum CompletedOperation: Sendable, Hashable, CustomStringConvertible {
  /// A sync ended with nothing left to send.
  case syncComplete
  /// A request was answered.
  case answered(ServerRequest, error: ServerError?)

  /// `sync complete`, `REQUEST: ok` or `REQUEST: ERROR`.
  var description: String {
    switch self {
    case .syncComplete: "sync complete"
    case .answered(let request, let error): "\(request): \(error?.name ?? "ok")"
    }
  }
}
