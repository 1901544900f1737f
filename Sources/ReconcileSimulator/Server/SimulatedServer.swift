public import Foundation
package import Reconcile

/// An in-memory CloudKit container that behaves like the real server, on virtual time.
///
/// It holds a public database, a private database per user and the shared view of zones users share with each other;
/// zones with capabilities; change tags, save policies and the conflict decision table; batch limits, atomic zones and
/// per-item errors; zone and database change feeds with tokens; fetches by ID and queries with cursors; throttling with
/// retry-after; permissions per database. Behaviour follows CloudKit's documentation; where CloudKit is silent the choice
/// is written on the method that makes it.
///
/// ```swift
/// var server = SimulatedServer()
/// let phone = ClientIdentity(userRecordName: "_alice", deviceName: "phone")
/// let notes = try ZoneID(zoneName: "Notes")
/// _ = server.respond(to: .modifyZones(.init(operations: [.create(notes)])), database: .private, from: phone)
/// var note = Record(recordType: "Note", recordID: try RecordID(recordName: "n1", zoneID: notes))
/// note["title"] = "Hello"
/// let reply = server.respond(
///   to: .modifyRecords(.init(zoneID: notes, operations: [.create(note)])), database: .private, from: phone)
/// // reply is .records(page), and page.records[0].recordChangeTag is the server's new tag
/// ```
///
/// Outside Reconcile's own clients, the server speaks CloudKit's two public dialects only: CloudKit Web Services
/// bodies (``respond(to:database:from:)``, ``respond(toBody:endpoint:database:from:)``) and, through a
/// ``ClientUnderTest`` built from your delegate, CKSyncEngine's events. Its internal request dialect is not public.
///
/// The server is a value: copy it to fork a world, compare copies in tests. Time moves only through
/// ``advanceClock(by:)`` and ``advanceClock(to:)``.
public struct SimulatedServer: Sendable {
  /// How the server behaves.
  public var configuration: Configuration
  /// The server's virtual clock: modification dates and throttling read it.
  public private(set) var clock: VirtualClock
  /// Every change the server made, oldest first, when ``Configuration/recordsEvents`` is on.
  package private(set) var events: [ServerEvent] = []

  var publicDatabase = DatabaseStore()
  var privateDatabases: [String: DatabaseStore] = [:]
  var budgets: [String: RequestBudget] = [:]
  var injected: [InjectedFailure] = []
  /// Per device, errors the next modify requests answer for one of their saves (the others are handled as usual).
  var injectedItemFailures: [String: [CloudKitError]] = [:]
  var throttledUntil: Date?
  var quotaExceededUsers: Set<String> = []
  /// Users whose storage is full until a time (``fillQuota(for:until:)``), by user record name.
  var quotaFullUntil: [String: Date] = [:]
  /// The type each key of each record type was first saved with (development schema).
  var fieldTypes: [String: FieldTypeTable] = [:]
  var tagCounter = 0
  /// `serverRecordChanged` answers so far, to leave out the server's record every
  /// ``Limits/conflictWithoutRecordEvery`` answers.
  var conflictsAnswered = 0
  /// A deliberately broken server, for showing that ``Invariant/serverInvariants`` catches it: every change tag from
  /// now on repeats the last one issued. Never set outside the package's own tests.
  package var reusesChangeTags = false
  var incarnationCounter = 0
  var eventCounter = 0

  /// Creates an empty container whose public database holds only its default zone.
  /// - Parameters:
  ///   - configuration: How it behaves; the defaults unless given.
  ///   - clock: Where virtual time starts.
  public init(configuration: Configuration = Configuration(), clock: VirtualClock = VirtualClock()) {
    self.configuration = configuration
    self.clock = clock
    publicDatabase.zones[.default] = ZoneStore(zone: RecordZone(zoneID: .default), incarnation: 0)
  }

  /// The current virtual time.
  public var now: Date { clock.now }

  /// Moves the server's clock forward.
  /// - Parameter seconds: How far; negative values are ignored.
  public mutating func advanceClock(by seconds: TimeInterval) { clock.advance(by: seconds) }

  /// Moves the server's clock to `date`, if it is later.
  /// - Parameter date: The new time.
  public mutating func advanceClock(to date: Date) { clock.advance(by: date.timeIntervalSince(clock.now)) }

  // MARK: Requests

  /// Answers one request from `client`, whatever its kind: the entry point a simulated network uses.
  ///
  /// Before the request itself, the server applies throttling (a forced throttle, then the device's
  /// ``ThrottlePolicy`` budget) and any failure injected with ``injectFailure(_:count:device:)``.
  /// - Parameters:
  ///   - request: The request.
  ///   - client: Who sends it.
  /// - Returns: The reply, or the error for the whole request. Per-item errors are inside the reply.
  package mutating func handle(_ request: ServerRequest, from client: ClientIdentity) -> Result<
    ServerReply, CloudKitError
  > {
    if let refusal = admit(request, from: client) { return .failure(refusal) }
    let result: Result<ServerReply, CloudKitError>
    do {
      switch request {
      case .modifyRecords(let r): result = .success(.modifyRecords(try performModifyRecords(r, as: client)))
      case .modifyZones(let r): result = .success(.modifyZones(try performModifyZones(r, as: client)))
      case .fetchZoneChanges(let r): result = .success(.zoneChanges(try performFetchZoneChanges(r, as: client)))
      case .fetchDatabaseChanges(let r):
        result = .success(.databaseChanges(try performFetchDatabaseChanges(r, as: client)))
      case .fetchRecords(let r): result = .success(.fetchRecords(try performFetchRecords(r, as: client)))
      case .query(let r): result = .success(.query(try performQuery(r, as: client)))
      }
    } catch {
      result = .failure(error)
    }
    settleBudget(for: client, result: result)
    return result
  }

  /// Saves and deletes records; see ``ModifyRecordsRequest``.
  ///
  /// The decision table for each saved record under ``SavePolicy/ifServerRecordUnchanged``:
  ///
  /// | Client record | Server | Result |
  /// |---|---|---|
  /// | tag T | tag T | saved: new tag, modification date, last modifier and device |
  /// | tag T | tag T′ ≠ T | ``CloudKitError/serverRecordChanged(client:ancestor:server:)`` with the version T as ancestor when the server still has it |
  /// | no tag | exists | `serverRecordChanged` with no ancestor (CloudKit's behaviour per Apple; one mock returns `serverRejectedRequest`) |
  /// | tag T | gone | ``CloudKitError/unknownItem(_:)`` |
  /// | no tag | absent | created |
  /// | any | zone missing | ``CloudKitError/zoneNotFound(_:)`` (``CloudKitError/userDeletedZone(_:)`` after a purge) |
  /// | parent missing | – | ``CloudKitError/referenceViolation(_:)`` |
  ///
  /// `changedKeys` and `allKeys` never compare tags. Every policy merges per key: keys not sent keep their server values.
  /// Deleting a missing record succeeds (CloudKit does not document it; this is what Point-Free's mock does). Saving and
  /// deleting one ID in one request, or saving it twice, is refused as ``CloudKitError/invalidArguments(reason:)`` (CloudKit
  /// does not document it; clients must never send it). Deleting a record deletes the records of its zone that point to
  /// it with a `deleteSelf` reference, at once, in every zone (CloudKit does it later in the default zone).
  /// - Parameters:
  ///   - request: The saves and deletes.
  ///   - client: Who sends it.
  /// - Returns: Saved records, deleted IDs and per-item failures.
  /// - Throws: ``CloudKitError`` for the whole request: `notAuthenticated`, `limitExceeded`, `invalidArguments`,
  ///   throttling.
  package mutating func modifyRecords(_ request: ModifyRecordsRequest, as client: ClientIdentity) throws(CloudKitError)
    -> ModifyRecordsReply
  {
    guard case .modifyRecords(let reply) = try handle(.modifyRecords(request), from: client).get() else {
      throw .internalError("reply of the wrong kind")
    }
    return reply
  }

  /// Creates and deletes zones; see ``ModifyZonesRequest``.
  /// - Parameters:
  ///   - request: The zones.
  ///   - client: Who sends it.
  /// - Returns: The zones saved and deleted.
  /// - Throws: ``CloudKitError/badDatabase(reason:)`` outside the private database; `notAuthenticated`; throttling.
  package mutating func modifyZones(_ request: ModifyZonesRequest, as client: ClientIdentity) throws(CloudKitError)
    -> ModifyZonesReply
  {
    guard case .modifyZones(let reply) = try handle(.modifyZones(request), from: client).get() else {
      throw .internalError("reply of the wrong kind")
    }
    return reply
  }

  /// One page of a zone's changes since a token; see ``ZoneChangesRequest``.
  ///
  /// Each record changed since the token comes once, in its latest state; each deletion once, with ID and type; a
  /// record created and deleted since the token comes as a deletion. The work is proportional to the changes since the
  /// token, not to the zone's history.
  /// - Parameters:
  ///   - request: The zone and token.
  ///   - client: Who sends it.
  /// - Returns: A page of changes with the next token.
  /// - Throws: ``CloudKitError/changeTokenExpired`` for a token from a compacted history or an earlier incarnation of
  ///   the zone; `zoneNotFound`; `badDatabase` on the public database; `invalidArguments` for a zone without the
  ///   ``ZoneCapabilities/fetchChanges`` capability.
  package mutating func fetchZoneChanges(_ request: ZoneChangesRequest, as client: ClientIdentity) throws(CloudKitError)
    -> ZoneChanges
  {
    guard case .zoneChanges(let reply) = try handle(.fetchZoneChanges(request), from: client).get() else {
      throw .internalError("reply of the wrong kind")
    }
    return reply
  }

  /// One page of a database's zone changes since a token; see ``DatabaseChangesRequest``.
  /// - Parameters:
  ///   - request: The database and token.
  ///   - client: Who sends it.
  /// - Returns: Changed, deleted and purged zones with the next token.
  /// - Throws: `badDatabase` on the public database; `notAuthenticated`; throttling.
  package mutating func fetchDatabaseChanges(_ request: DatabaseChangesRequest, as client: ClientIdentity)
    throws(CloudKitError) -> DatabaseChanges
  {
    guard case .databaseChanges(let reply) = try handle(.fetchDatabaseChanges(request), from: client).get() else {
      throw .internalError("reply of the wrong kind")
    }
    return reply
  }

  /// Fetches records by ID; see ``FetchRecordsRequest``.
  /// - Parameters:
  ///   - request: The IDs.
  ///   - client: Who sends it.
  /// - Returns: The records found and a per-ID error for the rest.
  /// - Throws: `notAuthenticated`; throttling.
  package mutating func fetchRecords(_ request: FetchRecordsRequest, as client: ClientIdentity) throws(CloudKitError)
    -> FetchRecordsReply
  {
    guard case .fetchRecords(let reply) = try handle(.fetchRecords(request), from: client).get() else {
      throw .internalError("reply of the wrong kind")
    }
    return reply
  }

  /// Runs a query; see ``QueryRequest``.
  /// - Parameters:
  ///   - request: The query.
  ///   - client: Who sends it.
  /// - Returns: One page of results and a cursor when more remain.
  /// - Throws: `invalidArguments` for a predicate or sort on an encrypted field or a cursor of another query;
  ///   `zoneNotFound`; `notAuthenticated` (private and shared); throttling.
  package mutating func query(_ request: QueryRequest, as client: ClientIdentity) throws(CloudKitError) -> QueryReply {
    guard case .query(let reply) = try handle(.query(request), from: client).get() else {
      throw .internalError("reply of the wrong kind")
    }
    return reply
  }

  // MARK: Throttling and injected failures

  private mutating func admit(_ request: ServerRequest, from client: ClientIdentity) -> CloudKitError? {
    if let until = throttledUntil {
      if until > now { return .serviceUnavailable(retryAfter: until.timeIntervalSince(now).rounded(.up)) }
      throttledUntil = nil
    }
    if let index = injected.firstIndex(where: { $0.device == nil || $0.device == client.deviceName }) {
      let failure = injected[index]
      if failure.remaining <= 1 { injected.remove(at: index) } else { injected[index].remaining -= 1 }
      return failure.error
    }
    guard let policy = configuration.throttle else { return nil }
    let now = now  // read before the write below starts: the default value needs it
    let wait = budgets[client.deviceName, default: RequestBudget(policy: policy, now: now)].spend(
      policy: policy, now: now)
    return wait.map { .serviceUnavailable(retryAfter: $0) }
  }

  private mutating func settleBudget(for client: ClientIdentity, result: Result<ServerReply, CloudKitError>) {
    guard let policy = configuration.throttle else { return }
    var wasBad = false
    if case .failure(let error) = result {
      switch error.code {
      case .invalidArguments, .permissionFailure, .badDatabase, .limitExceeded, .serverRejectedRequest,
        .notAuthenticated:
        wasBad = true
      default: break
      }
    }
    budgets[client.deviceName]?.settle(wasBad: wasBad, policy: policy)
  }

  // MARK: Shared internals

  mutating func makeTag() -> String {
    if !reusesChangeTags { tagCounter += 1 }
    return "t" + String(tagCounter, radix: 36)
  }

  mutating func logEvent(_ kind: ServerEvent.Kind, by client: ClientIdentity?, in database: DatabaseKey) {
    guard configuration.recordsEvents else { return }
    eventCounter += 1
    events.append(ServerEvent(sequence: eventCounter, time: now, client: client, owner: database.owner, kind: kind))
  }
}

/// A failure the server returns instead of answering, set by ``SimulatedServer/injectFailure(_:count:device:)``.
struct InjectedFailure: Sendable, Hashable {
  var error: CloudKitError
  var remaining: Int
  var device: String?
}
