package import Foundation
package import Reconcile

/// A simulated `CKSyncEngine` with your ``SimulatedSyncEngineDelegate`` inside: the engine's part — pending changes kept in a
/// state the app persists through `SyncEngine.Event.stateUpdate(_:)` events, fetch and send scheduling, batches from the
/// delegate under the request limits, automatic retries — played against a ``SimulatedServer``, as a ``SyncClient`` the
/// ``Simulation`` drives.
///
/// What it reproduces of CKSyncEngine:
/// - **Fetching**: database changes first (`fetchedDatabaseChanges`), then each changed zone page by page
///   (`fetchedRecordZoneChanges`, then a `stateUpdate` carrying the page's token), bracketed by the will/did events. An
///   expired token is dropped and the fetch starts over.
/// - **Sending**: pending zone changes first (`sentDatabaseChanges`), then record batches from
///   `nextRecordZoneChangeBatch(_:syncEngine:)` (`sentRecordZoneChanges`, then a `stateUpdate`), until
///   nothing is pending. Sends are scheduled automatically after each change the app adds.
/// - **Errors**: transient errors and `batchRequestFailed` items are retried after the server's retry-after (else an
///   exponential backoff) and stay pending; `limitExceeded` halves the batch; every other failed save is removed from
///   the pending changes and handed to the delegate, which decides (re-add, re-create the zone, drop).
/// - A change re-added while its batch was in flight stays pending when the batch succeeds.
///
/// What it does not: push scheduling (a fetch happens when the simulation asks for a sync), the shared database (one
/// private database, of the account signed in), and the exact timing of CKSyncEngine's
/// scheduler. A batch of `nil` while record changes are pending ends the send and keeps them: the engine tries again when
/// the app adds a change, a fetch completes or the app asks to sync.
package struct SimulatedSyncEngine<Delegate: SimulatedSyncEngineDelegate>: SyncClient {
  /// The app.
  package internal(set) var delegate: Delegate
  /// The engine's state, as the delegate sees it.
  package internal(set) var state: SyncEngine.State
  /// The engine's change tokens: they live in the state's serialization, which the app persists.
  var tokens: SimulatedEngineTokens { SimulatedEngineTokens(state.serialization) }
  /// What the simulation set up.
  package let setup: ClientSetup
  /// Waits and retries.
  package var retry = RetryPolicy()

  enum Phase: Sendable, Hashable {
    case idle, fetchingDatabase, fetchingZones, sending
  }

  struct InFlight: Sendable {
    var id: Int
    var request: ServerRequest
    var sentAt: Date
  }

  /// What lives in memory only: a crash starts a new session.
  struct Session: Sendable {
    var phase = Phase.idle
    /// A fetch is due; at launch, one is.
    var fetchRequested = true
    /// The app asked to sync: the next send's reason is `.explicit`. Sends themselves are automatic whenever changes
    /// are pending.
    var explicitSendRequested = false
    /// The delegate had nothing to send although changes are pending: no send starts again until the app adds a
    /// change, a fetch completes or the app asks to sync.
    var nothingToSend = false
    var inFlight: InFlight?
    /// The wait, the retries and the batch limit (shared with the reference client).
    var pacing = RequestPacing(batchLimit: 400)
    var zonesToFetch: [ZoneID] = []
    /// During a fetch of database changes from the beginning (no token, or an expired one), the zones its pages listed
    /// so far: a zone the engine holds a token for that the whole listing leaves out is gone.
    var listedFromStart: Set<ZoneID>?
    /// Whether `willFetchRecordZoneChanges` was sent for the first zone of `zonesToFetch`.
    var zoneFetchStarted = false
    /// Records the app changed again while their batch was in flight: their pending changes stay when it lands.
    var readded: Set<RecordID> = []
    var sendContext = SyncEngine.SendChangesContext(reason: .scheduled, maximumItems: 400)
    var serial = 0
  }

  var session = Session()
  /// Counts the events handed to the delegate while one answer is handled, for torn crashes.
  var writes = PersistenceWrites()
  /// Whether a torn crash struck while handling the current answer or user operation: no more events go out.
  var stopped = false
  /// While a user operation is performed torn: the delegate's writes that complete before the crash.
  var tearOperation: Int?
  /// Engines started so far — at launch, after a crash, a forced resync or an account change: request IDs carry it, so
  /// an answer to a request an earlier engine sent is never taken for an answer to one sent after (a relaunched
  /// process, or a new engine, has new connections; a new session counts its requests from zero again).
  var launches = 0
  /// Whether the device has a network.
  package internal(set) var isOnline = true
  /// Why the engine stopped (an error it cannot retry, or its delegate halted), or `nil`.
  package internal(set) var haltReason: HaltReason?

  /// Launches the app and its engine for the first time.
  /// - Parameter setup: What the simulation set up.
  /// - Throws: What the delegate's first launch throws.
  package init(setup: ClientSetup) throws {
    self.setup = setup
    delegate = try Delegate(setup: setup)
    state = SyncEngine.State(delegate.stateSerialization ?? SyncEngine.StateSerialization())
  }

  /// Launches the app for the first time with a delegate built already (one with options of its own).
  /// - Parameters:
  ///   - delegate: The app's delegate, as its first launch made it.
  ///   - setup: What the simulation set up.
  package init(delegate: Delegate, setup: ClientSetup) {
    self.setup = setup
    self.delegate = delegate
    state = SyncEngine.State(delegate.stateSerialization ?? SyncEngine.StateSerialization())
  }

  /// The device's name.
  package var name: String { setup.name }

  // MARK: The user's operations

  /// The app creates a record.
  package mutating func create(_ record: Record, at now: Date) throws {
    try delegate.create(record, at: now, syncEngine: &state)
    changesAdded([record.recordID])
  }

  /// The app edits a record.
  /// The user edits plain values; a delegate keeps no encrypted ones, so an encrypted edit is refused.
  package mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], encrypting encrypted: [String: FieldValue?], at now: Date
  ) throws {
    guard encrypted.isEmpty else { throw DeviceError.encryptedValuesUnsupported }
    try edit(id, setting: values, at: now)
  }

  package mutating func edit(_ id: RecordID, setting values: [String: FieldValue?], at now: Date) throws {
    try delegate.edit(id, setting: values, at: now, syncEngine: &state)
    changesAdded([id])
  }

  /// The app deletes a record.
  package mutating func delete(_ id: RecordID, at now: Date) throws {
    try delegate.delete(id, at: now, syncEngine: &state)
    changesAdded([id])
  }

  private mutating func changesAdded(_ ids: [RecordID]) {
    if let writes = tearOperation {
      if writes < delegate.persistenceWrites { delegate.tornCrash(afterWrites: writes) }
      stopped = true
    }
    if case .modifyRecords(let batch)? = session.inFlight?.request {
      for id in ids where batch.saving.contains(where: { $0.recordID == id }) || batch.deleting.contains(id) {
        session.readded.insert(id)
      }
    }
    persistStateIfChanged()
    session.nothingToSend = false
  }

  // MARK: What the user sees

  /// The record the app shows.
  package func record(_ id: RecordID) -> Record? { delegate.record(id) }
  /// Every record the app shows.
  package var records: [Record] { delegate.records }
  /// What the app was handed before local data went (its delegate's hook).
  package var localDataDeletions: [LocalDataDeletion] { delegate.localDataDeletions }

  // MARK: State

  /// Pending record and zone changes.
  package var pendingChangeCount: Int { state.pendingRecords.count + state.pendingDatabaseChanges.count }
  /// The zone token in the serialization the app persisted.
  package var persistedZoneToken: ZoneChangeToken? {
    SimulatedEngineTokens(delegate.stateSerialization).zones[setup.zoneID]
  }
  /// Nothing running, asked for or pending.
  package var isIdle: Bool {
    session.phase == .idle && !session.fetchRequested && session.inFlight == nil && pendingChangeCount == 0
  }

  // MARK: Life

  /// Asks for a fetch, then a send of what is pending (reason `.explicit`), as `fetchChanges()` and `sendChanges()` do.
  package mutating func requestSync() {
    session.fetchRequested = true
    session.explicitSendRequested = true
    session.nothingToSend = false
  }
  /// Nothing to do: the engine sends whenever changes are pending, as CKSyncEngine's automatic sync does.
  package mutating func requestSend() {}
  /// Loses the network and with it the request in flight. A send whose records were on their way ends as CKSyncEngine
  /// ends one: each item is reported failed with a network error (it may have landed), then `didSendChanges`; the
  /// engine fetches before it sends again. A fetch under way is not over: it resumes when the network returns, as
  /// CKSyncEngine retries its operation, so its events keep their order (a `willFetchChanges` never comes inside a
  /// fetch the delegate was not told had ended).
  package mutating func goOffline() {
    isOnline = false
    guard let flight = session.inFlight else { return }
    session.inFlight = nil
    guard session.phase == .sending, case .modifyRecords(let request) = flight.request,
      reportEveryItem(of: request, failedWith: .networkFailure(retryAfter: nil))
    else { return }
    session.phase = .idle
    _ = emit(.didSendChanges(session.sendContext))
  }
  /// The network is back: the engine fetches before it sends anything held while offline.
  package mutating func goOnline() {
    if !isOnline { session.fetchRequested = true }
    isOnline = true
  }

  /// The app is killed and relaunched: the delegate keeps what it persisted, and the engine starts from the
  /// serialization the delegate persisted, then fetches and sends, as at launch.
  package mutating func crash() {
    stopped = false
    delegate.relaunch()
    state = SyncEngine.State(delegate.stateSerialization ?? SyncEngine.StateSerialization())
    launches += 1
    session = Session()
  }

  /// The user resets sync: the app abandons the request in flight and replaces the engine by one started from no
  /// state serialization (the wait a retry-after asked for still holds: the app did not relaunch); the delegate hands it what the old one had pending
  /// (``SimulatedSyncEngineDelegate/resetSync(replacing:syncEngine:)``) and persists the new state. The new engine
  /// fetches everything, then sends.
  package mutating func resetSync() {
    abandonInFlight()
    let old = state
    state = SyncEngine.State(SyncEngine.StateSerialization())
    delegate.resetSync(replacing: old, syncEngine: &state)
    state.changed = true
    persistStateIfChanged()
    startNewEngine()
  }

  /// A new engine in a process that lives on: a retry-after the app was handed still holds, and its batch limit with
  /// it; its requests are numbered as a new engine's, so an answer to the old one's is never taken for one of them.
  private mutating func startNewEngine() {
    let pacing = session.pacing
    session = Session()
    session.pacing = pacing
    launches += 1
  }

  /// The device's iCloud account changed. As CKSyncEngine does: the engine resets its state — tokens gone, pending
  /// database and record-zone changes cleared — and delivers `accountChange`, whose handling is the delegate's (Apple's
  /// sample deletes local data on a sign-out or switch, and uploads local data again on a sign-in). A halt goes: a new
  /// account is not the old one's to answer for.
  ///
  /// Several changes while the app is not running (``SimulationStep/quit(device:)``) arrive as one, at launch, from
  /// the account the app last knew to the current one, as CKSyncEngine's documentation says.
  package mutating func accountChanged(_ change: SyncEngine.AccountChange) {
    abandonInFlight()
    haltReason = nil
    state = SyncEngine.State(SyncEngine.StateSerialization())
    state.changed = true
    guard persistStateIfChanged(), deliver(.accountChange(change)) else { return }
    persistStateIfChanged()
    startNewEngine()
    if change.currentUser != nil { requestSync() }
  }

  /// What the delegate does with local data when the account changes.
  package var accountChangeResponse: AccountChangePolicy { delegate.accountChangeResponse }

  /// The delegate takes the user's answer; the app then replaces the engine by one started from no state, as for a
  /// forced resync (what was fetched while the question was open was set aside), which fetches everything again and
  /// sends what the answer left pending.
  package mutating func answerAccountQuestion(keepingData: Bool) -> Bool {
    guard delegate.answerAccountQuestion(keepingData: keepingData, syncEngine: &state) else { return false }
    haltReason = nil
    resetSync()
    requestSync()
    return true
  }

  /// Clears a halt and syncs.
  package mutating func restart() {
    haltReason = nil
    requestSync()
  }

  /// Tells the delegate.
  package mutating func jumpClock(by seconds: TimeInterval) { delegate.jumpClock(by: seconds) }
  /// Tells the delegate.
  package mutating func upgrade(to schema: Schema?) { delegate.upgrade(to: schema) }

  private mutating func abandonInFlight() {
    guard session.inFlight != nil else { return }
    session.inFlight = nil
    // Start an interrupted fetch over when the network returns; pending changes are sent again anyway.
    if session.phase == .fetchingDatabase || session.phase == .fetchingZones { session.fetchRequested = true }
    session.phase = .idle
    session.zonesToFetch = []
    session.zoneFetchStarted = false
  }

  // MARK: Events

  /// Hands the delegate an event, then a `stateUpdate` if the state changed; `false` when a torn crash struck (stop
  /// handling the answer).
  mutating func emit(_ event: SyncEngine.Event) -> Bool {
    deliver(event) && persistStateIfChanged()
  }

  /// Changes the tokens and puts them in the state the app persists at the next `stateUpdate`.
  mutating func updateTokens(_ change: (inout SimulatedEngineTokens) -> Void) {
    var changed = tokens
    change(&changed)
    state.serialization.engineState = SyncEngine.EngineState(changed)
    state.changed = true
  }

  /// Emits a `stateUpdate` when the state changed; `false` when a torn crash struck.
  @discardableResult
  mutating func persistStateIfChanged() -> Bool {
    guard state.changed else { return !stopped }
    state.changed = false
    return deliver(.stateUpdate(state.serialization))
  }

  /// One event, then the delegate's persistence writes (``SimulatedSyncEngineDelegate/persistenceWrites``), a torn
  /// crash able to strike after any of them.
  private mutating func deliver(_ event: SyncEngine.Event) -> Bool {
    guard !stopped else { return false }
    delegate.handleEvent(event, syncEngine: &state)
    if haltReason == nil, let reason = delegate.haltReason {
      haltReason = reason
    } else if case .accountChanged? = haltReason, delegate.haltReason == nil {
      // The account question is over without an answer (the records' own account came back): so is its halt.
      haltReason = nil
    }
    guard writes.isArmed else { return true }
    let eventWrites = delegate.persistenceWrites
    for write in 1...max(1, eventWrites) where writes.wrote() {
      if write < eventWrites { delegate.tornCrash(afterWrites: write) }
      stopped = true
      break
    }
    return !stopped
  }
}

extension SimulatedSyncEngine {
  /// The delegate's writes after the operation, then the `stateUpdate` that carries the pending changes it added:
  /// CKSyncEngine delivers that later, so a crash can fall between (apple/sample-cloudkit-sync-engine#5).
  package var writesPerUserOperation: Int { delegate.persistenceWrites + 1 }
  /// The operation, then the delegate told which of its writes reached the disk (all of them when the crash falls
  /// before the state update); the engine delivers nothing more until it crashes.
  package mutating func perform(_ operation: UserOperation, at now: Date, crashingAfterWrites writes: Int) throws {
    tearOperation = writes
    defer { tearOperation = nil }
    try perform(operation, at: now)
  }
}

extension SimulatedSyncEngine: ClientMethods {
  /// A delegate's store cannot be damaged from outside it: nothing to damage.
  package mutating func damageStoredRecord(_ id: RecordID) -> Bool { false }
}

extension SimulatedSyncEngine: HandsOverLocalData {}

extension SimulatedSyncEngine: ShowsRecordSyncStates {
  /// The delegate's record states.
  package var recordSyncStates: [RecordID: RecordSyncState] { delegate.recordSyncStates }
}
