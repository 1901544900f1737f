package import Foundation
package import Reconcile

/// A sync client the ``Simulation`` drives: Reconcile's reference ``SimulatedDevice``, or a CKSyncEngine-style app
/// around a ``SimulatedSyncEngine`` (how outside code plugs in).
///
/// The protocol is sans-I/O and small: the user's operations (``perform(_:at:)``), what the user sees (``records``),
/// requests and answers (``nextRequest(at:)``, ``receive(_:for:at:crashingAfterWrites:)`` and its ``AnswerReceipt``,
/// timeouts through ``nextWakeTime``), what the host around it does (``handle(_:)``: network, process, account, clock,
/// app version, storage), and the state the oracles and the scheduler read. The client never touches a network, a
/// clock or a disk the simulation does not hand it. Nothing is `async`, so a run is byte-for-byte deterministic.
///
/// What belongs to the host, not the client, the world keeps itself (`Hosts`): the device's name (given to the client
/// in its ``ClientSetup``), whether it has a network, whether its app runs, which account it is signed in to.
///
/// The oracles read only what any client exposes: the records the user sees (``records``), what the client still has
/// to send (``pendingChangeCount``), whether it halted (``haltReason``) and the zone token it persisted
/// (``persistedZoneToken``). They never read a client's queues or flags, so the same oracles judge clients Reconcile did
/// not write.
///
/// ## The persistence contract
/// A client keeps two kinds of state: what it persisted (its database, its engine state) and what lives in memory. On
/// ``HostEvent/crashed`` it must come back from what it persisted alone, as a relaunched app does. A *torn* crash lands between
/// two persistence writes while the client handles an answer: ``receive(_:for:at:crashingAfterWrites:)`` asks the
/// client to stop after that many writes, then crash. Count every write that is its own transaction (applying a fetched
/// page, committing a token, taking a save's results); ``PersistenceWrites`` does the counting.
///
/// ## Conforming
/// Build requests from ``ServerRequest`` and read ``ServerReply`` and ``CloudKitError``, exactly what the
/// ``SimulatedServer`` speaks. Give each request an ID with ``OutgoingRequest``; an answer carries it back. Wrap the
/// client in a ``ClientUnderTest`` to run it under a ``PropertyRunner`` and to name it in replay scripts.
package protocol SyncClient: Sendable {
  // MARK: The user's operations

  /// The user acts on the app's data: creates, edits or deletes a record.
  /// - Parameters:
  ///   - operation: What the user does.
  ///   - now: True (virtual) time; the client applies its own clock skew.
  /// - Throws: Any error, when the client refuses the operation (a schema halt, a record it does not hold).
  mutating func perform(_ operation: UserOperation, at now: Date) throws

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
  /// - Returns: What the client made of it: whether it still waited for it, whether a torn crash struck, and the sync
  ///   decisions it made since its last receipt.
  @discardableResult
  mutating func receive(
    _ answer: Result<ServerReply, CloudKitError>, for id: Int, at now: Date, crashingAfterWrites writes: Int?
  ) -> AnswerReceipt
  /// When the client next wants attention without an answer arriving (a retry wait ends, a request times out); `nil`
  /// when only an answer or a sync request can move it. (A `mutating get`, so the world reads it in place, every
  /// turn of its loop, without copying the client; an implementation's getter need not mutate.)
  var nextWakeTime: Date? { mutating get }

  // MARK: The host around it

  /// Something happens to the client from outside its sync code: its network, its process, its user's account and
  /// settings, its clock, its app version, its storage.
  /// - Parameter event: What happened.
  /// - Returns: Whether the event applied: `false` when the client has no question open to answer, or holds no
  ///   stored copy to damage; `true` for every other event.
  @discardableResult
  mutating func handle(_ event: HostEvent) -> Bool
  /// What the app does with its local data when the account changes, which the oracles hold it to. The default,
  /// `AccountChangePolicy.deleteLocalData`, is what Apple asks; a client offering the choice reports the one its
  /// setup made (``ClientSetup/accountChange``).
  var accountChangeResponse: AccountChangePolicy { get }
  /// How many persistence writes the client makes after one user operation, each its own transaction. When more than
  /// one, a torn crash armed on the device may strike between them
  /// (``perform(_:at:crashingAfterWrites:)``); the default is 1, and an armed torn crash waits for the next answer.
  var writesPerUserOperation: Int { get }
  /// The user's operation, torn: the client keeps only the first `writes` of the operation's persistence writes and
  /// persists nothing more; the world then crashes it (``HostEvent/crashed``). The default performs it whole.
  /// - Parameters:
  ///   - operation: What the user does.
  ///   - now: True (virtual) time.
  ///   - writes: The writes that complete (fewer than ``writesPerUserOperation``).
  /// - Throws: As ``perform(_:at:)``; nothing is written then.
  mutating func perform(_ operation: UserOperation, at now: Date, crashingAfterWrites writes: Int) throws

  // MARK: State the oracles read

  /// Why the client stopped syncing, or `nil`.
  var haltReason: HaltReason? { get }
  /// Whether the client halted; the default compares ``haltReason`` with `nil`. The world asks on every request and
  /// every answer, so a client that can tell without building its halt reason should.
  var isHalted: Bool { get }
  /// Whether the client has nothing left to do: no sync running or asked for, nothing to send.
  var isIdle: Bool { get }
  /// How many local changes the client has not had accepted by the server.
  var pendingChangeCount: Int { get }
  /// The zone change token the client has persisted for its zone, so the simulation can check that it never moves
  /// backwards; the default is `nil` (not checked). Read in place, as ``nextWakeTime`` is.
  var persistedZoneToken: ZoneChangeToken? { mutating get }
}

extension SyncClient {
  /// Maps ``records``.
  package var recordIDs: [RecordID] { records.map(\.recordID) }
  /// Compares ``haltReason`` with `nil`.
  package var isHalted: Bool { haltReason != nil }
  /// Not checked.
  package var persistedZoneToken: ZoneChangeToken? { nil }
  /// `AccountChangePolicy.deleteLocalData`, as Apple asks.
  package var accountChangeResponse: AccountChangePolicy { .deleteLocalData }
  /// One: a user operation is persisted in one transaction.
  package var writesPerUserOperation: Int { 1 }
  /// The whole operation: one write is never torn.
  package mutating func perform(_ operation: UserOperation, at now: Date, crashingAfterWrites writes: Int) throws {
    try perform(operation, at: now)
  }
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
