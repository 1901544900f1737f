package import Foundation
package import Reconcile

/// A sync client the ``Simulation`` drives: your own sync engine, Reconcile's reference ``SimulatedDevice``, or a
/// CKSyncEngine-style app around a ``SimulatedSyncEngine``.
///
/// The protocol is sans-I/O: the client never touches a network, a clock or a disk the simulation does not hand it. The
/// simulation gives it the user's operations, asks it for its next request, hands it the server's answer (or nothing,
/// when the network loses it: the client then times out on its own clock, see ``nextWakeTime``), tells it the time,
/// crashes it and takes it offline. Nothing is `async`, so a run is byte-for-byte deterministic.
///
/// The oracles read only what any client exposes: the records the user sees (``records``), what the client still has
/// to send (``pendingChangeCount``), whether it halted (``haltReason``) and the zone token it persisted
/// (``persistedZoneToken``). They never read a client's queues or flags, so the same oracles judge clients Reconcile did
/// not write.
///
/// ## The persistence contract
/// A client keeps two kinds of state: what it persisted (its database, its engine state) and what lives in memory. On
/// ``crash()`` it must come back from what it persisted alone, as a relaunched app does. A *torn* crash lands between
/// two persistence writes while the client handles an answer: ``receive(_:for:at:crashingAfterWrites:)`` asks the
/// client to stop after that many writes, then crash. Count every write that is its own transaction (applying a fetched
/// page, committing a token, taking a save's results); ``PersistenceWrites`` does the counting.
///
/// ## Conforming
/// Build requests from ``ServerRequest`` and read ``ServerReply`` and ``CloudKitError``, exactly what the
/// ``SimulatedServer`` speaks. Give each request an ID with ``OutgoingRequest``; an answer carries it back. Wrap the
/// client in a ``ClientUnderTest`` to run it under a ``PropertyRunner`` and to name it in replay scripts.
package protocol SyncClient: Sendable {
  /// The device's name, recorded by the server on every save it makes.
  var name: String { get }
  /// Who the client is, as the server sees it.
  var identity: ClientIdentity { get }

  // MARK: The user's operations

  /// The user creates a record.
  /// - Parameters:
  ///   - record: The new record, with the user's values.
  ///   - now: True (virtual) time; skew the client's own clock from it if it has one.
  /// - Throws: Any error, when the client refuses the operation (the step is reported as skipped).
  mutating func create(_ record: Record, at now: Date) throws
  /// The user edits a record: sets each key to its value, or removes it for `nil`, among the plain values and the
  /// encrypted ones.
  /// - Parameters:
  ///   - id: The record.
  ///   - values: New plain values; `nil` removes a key.
  ///   - encrypted: New encrypted values; `nil` removes a key. A client that keeps no encrypted values refuses any.
  ///   - now: True (virtual) time.
  /// - Throws: Any error, when the client refuses the operation.
  mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], encrypting encrypted: [String: FieldValue?], at now: Date
  ) throws
  /// The user deletes a record.
  /// - Parameters:
  ///   - id: The record.
  ///   - now: True (virtual) time.
  /// - Throws: Any error, when the client refuses the operation.
  mutating func delete(_ id: RecordID, at now: Date) throws

  // MARK: What the user sees

  /// The record with `id` as the app shows it, or `nil`.
  /// - Parameter id: A record ID.
  func record(_ id: RecordID) -> Record?
  /// Every record the app shows, sorted by ID.
  var records: [Record] { get }
  /// The IDs of ``records``, sorted (the scheduler picks records from this order, so it must not vary between runs);
  /// the default maps ``records``.
  var recordIDs: [RecordID] { get }

  // MARK: The network

  /// The request the client wants sent now, if any.
  /// - Parameter now: True (virtual) time.
  mutating func nextRequest(at now: Date) -> OutgoingRequest?
  /// Hands the client the server's answer to request `id`, crashing it after `writes` persistence writes when given.
  /// - Parameters:
  ///   - answer: The server's answer.
  ///   - id: The ``OutgoingRequest/id`` it answers.
  ///   - now: True (virtual) time.
  ///   - writes: When given, the client stops after this many persistence writes and crashes (see the persistence
  ///     contract above).
  /// - Returns: Whether a torn crash happened; `false` when the answer needed fewer writes (it was handled whole).
  @discardableResult
  mutating func receive(
    _ answer: Result<ServerReply, CloudKitError>, for id: Int, at now: Date, crashingAfterWrites writes: Int?
  ) -> Bool
  /// Whether the client still waits for the answer to request `id`: it has not given up on it (timed out, gone offline,
  /// crashed). The oracles use it to know which saves a client never heard back about.
  /// - Parameter id: A request ID.
  func isAwaitingAnswer(to id: Int) -> Bool
  /// When the client next wants attention without an answer arriving (a retry wait ends, a request times out); `nil`
  /// when only an answer or a sync request can move it.
  var nextWakeTime: Date? { get }
  /// The time is now `now`: the client times out requests and ends waits.
  /// - Parameter now: True (virtual) time.
  mutating func wake(at now: Date)

  // MARK: Life

  /// Whether the client has a network.
  var isOnline: Bool { get }
  /// The network goes away; a request in flight is abandoned.
  mutating func goOffline()
  /// The network comes back.
  mutating func goOnline()
  /// The app asks for a sync (a launch, a push, a pull to refresh).
  mutating func requestSync()
  /// The app asks to send local changes soon, as CKSyncEngine schedules after each change.
  mutating func requestSend()
  /// The app crashes and relaunches from what it persisted.
  mutating func crash()
  /// The user acts on a halt (signs in, upgrades, frees storage): the client clears it and syncs.
  mutating func restart()
  /// The user asks the app to reset sync ("reset sync" in its settings): the client drops its change tokens and sync
  /// state, fetches everything again, and keeps every local change it has not had accepted. The default does nothing,
  /// for a client without such an operation; the oracles judge the step like any other, so nothing unsent may be lost.
  mutating func resetSync()
  /// The device's iCloud account changed (signed in, out, or switched): from now on its requests reach the current
  /// account's private database, or fail with `notAuthenticated` without one. Apple asks apps to delete the previous
  /// account's local data on a sign-out or switch. The default does nothing: a client that ignores the change keeps
  /// one account's records where another's are shown.
  /// - Parameter change: What changed.
  mutating func accountChanged(_ change: SyncEngine.AccountChange)
  /// What the app does with its local data when the account changes, which the oracles hold it to. The default,
  /// `AccountChangePolicy.deleteLocalData`, is what Apple asks; a client offering the choice reports the one its
  /// setup made (``ClientSetup/accountChange``).
  var accountChangeResponse: AccountChangeResponse { get }
  /// The user answers the question an account change asked (under `AccountChangePolicy.ask`, the client halts
  /// with ``HaltReason/accountChanged(_:)``): keep the records for the account signed in now, or delete them. Returns
  /// `false` when no question was open. The default asks nothing and returns `false`.
  /// - Parameter keepingData: `true` to keep the records for the current account.
  mutating func answerAccountQuestion(keepingData: Bool) -> Bool
  /// Every hand-over of local data the client made before deleting it for good (a purge, a deletion standing for the
  /// user's, an account change), oldest first: the app's hook before deletion. The default is empty, for a client
  /// without one.
  var localDataDeletions: [LocalDataDeletion] { get }
  /// The sync decisions the client made since the last call — what a fetch brought, how a conflict merged key by key
  /// and what it gave away, what a deletion did, what went with a zone — for the trace (`show log`, `replay`,
  /// `--json`). The default is none.
  mutating func takeDecisions() -> [SyncDecision]
  /// The device's clock moves by `seconds`.
  /// - Parameter seconds: Positive to jump ahead.
  mutating func jumpClock(by seconds: TimeInterval)
  /// A new app version with this schema is installed.
  /// - Parameter schema: The new schema.
  mutating func upgrade(to schema: Schema?)
  /// **Simulator only**: damages the client's stored copy of `id` behind its back, by writing ``StorageDamage/garbage``
  /// into one of its values. The default does nothing and returns
  /// `false`: a client that cannot be damaged makes ``Invariant/damagedDataNeverUploaded`` not applicable.
  /// - Parameter id: The record.
  /// - Returns: Whether the client held a copy to damage.
  mutating func damageStoredRecord(_ id: RecordID) -> Bool

  // MARK: State the oracles read

  /// Why the client stopped syncing, or `nil`.
  var haltReason: HaltReason? { get }
  /// What the client tells about itself beyond that — its status word, throttle, retries, last error, clock — for the
  /// playground's views; `nil` for a client that tells nothing more.
  var diagnostics: DeviceDiagnostics? { get }
  /// Whether the client halted; the default compares ``haltReason`` with `nil`.
  var isHalted: Bool { get }
  /// Whether the client has nothing left to do: no sync running or asked for, nothing to send.
  var isIdle: Bool { get }
  /// How many local changes the client has not had accepted by the server.
  var pendingChangeCount: Int { get }
  /// The zone change token the client has persisted for its zone, so the simulation can check that it never moves
  /// backwards; the default is `nil` (not checked).
  var persistedZoneToken: ZoneChangeToken? { get }
}

extension SyncClient {
  /// Maps ``records``.
  package var recordIDs: [RecordID] { records.map(\.recordID) }
  /// Compares ``haltReason`` with `nil`.
  package var isHalted: Bool { haltReason != nil }
  /// No diagnostics beyond what every client shows.
  package var diagnostics: DeviceDiagnostics? { nil }
  /// Not checked.
  package var persistedZoneToken: ZoneChangeToken? { nil }
  /// Nothing to damage.
  package mutating func damageStoredRecord(_ id: RecordID) -> Bool { false }
  /// Does nothing: the client has no reset.
  package mutating func resetSync() {}
  /// Does nothing: the client ignores account changes.
  package mutating func accountChanged(_ change: SyncEngine.AccountChange) {}
  /// `AccountChangePolicy.deleteLocalData`, as Apple asks.
  package var accountChangeResponse: AccountChangeResponse { .deleteLocalData }
  /// Nothing was asked.
  package mutating func answerAccountQuestion(keepingData: Bool) -> Bool { false }
  /// None: the client has no hook.
  package var localDataDeletions: [LocalDataDeletion] { [] }
  /// None: the client does not report its decisions.
  package mutating func takeDecisions() -> [SyncDecision] { [] }
}

/// A request a client wants sent, tagged so its answer can be matched.
package struct OutgoingRequest: Sendable, Hashable {
  /// The client's ID for the request; the answer comes back with it. Never reuse one, across crashes too.
  package var id: Int
  /// The request.
  package var request: ServerRequest

  /// Tags a request.
  /// - Parameters:
  ///   - id: The client's ID for it.
  ///   - request: The request.
  package init(id: Int, request: ServerRequest) {
    self.id = id
    self.request = request
  }
}
