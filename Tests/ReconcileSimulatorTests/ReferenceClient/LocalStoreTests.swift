import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// The reference client's local store on its own: a stored state and a server version in, the stored result out — no
/// server, no network, no sync session.
@Suite("Reference client's local store: its rules without a server")
struct LocalStoreTests {
  static let zone = Simulation.zoneID
  static let id = try! RecordID(recordName: "n1", zoneID: zone)
  static let start = Date(timeIntervalSince1970: 1_000_000)

  static func store(_ policy: DeletePolicy = .deleteWins) throws -> LocalStore {
    try LocalStore(
      configuration: SimulatedDevice.Configuration(
        name: "phone", zoneID: zone, resolver: .fieldMerge(), deletePolicy: policy))
  }

  /// A version of the note as the server holds it.
  static func server(tag: String, _ values: [String: FieldValue], created: Date = start) -> Record {
    var record = Record(recordType: "Note", recordID: id)
    for (key, value) in values { record[key] = value }
    record.recordChangeTag = tag
    record.creationDate = created
    record.clearChangedKeys()
    return record
  }

  static func page(_ changed: [Record], deleted: [RecordID] = []) -> ZoneChanges {
    ZoneChanges(
      changed: changed, deleted: deleted.map { DeletedRecord(recordID: $0, recordType: "Note") },
      token: ZoneChangeToken(zoneID: zone, incarnation: 1, sequence: 1), moreComing: false)
  }

  /// What the store shows and queues for the note.
  struct Outcome: Equatable, CustomStringConvertible {
    var values: [String: FieldValue]?
    var queued: PendingQueue.Kind?
    var tombstone: Bool

    var description: String {
      "values \(values.map { "\($0)" } ?? "none"), queued \(queued.map { "\($0)" } ?? "nothing"), tombstone \(tombstone)"
    }
  }

  static func outcome(of store: LocalStore) -> Outcome {
    Outcome(
      values: store.record(id)?.values, queued: store.storage.pending[id],
      tombstone: store.storage.tombstones[id] != nil)
  }

  /// Each case: the user's edit after the first fetch (or a deletion), then what the next fetch brings.
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var policy: DeletePolicy
    var localEdit: [String: FieldValue?]?
    var localDelete = false
    var next: Record?
    var nextIsDeletion = false
    var expected: Outcome

    var description: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a fetched version replaces a record with nothing unsent", policy: .deleteWins, localEdit: nil,
      next: server(tag: "t2", ["title": "a", "body": "y"]),
      expected: Outcome(values: ["title": "a", "body": "y"], queued: nil, tombstone: false)),
    Case(
      name: "unsent edits merge with a fetched version: the one-sided edit of each side is kept",
      policy: .deleteWins, localEdit: ["title": "b"], next: server(tag: "t2", ["title": "a", "body": "y"]),
      expected: Outcome(values: ["title": "b", "body": "y"], queued: .save, tombstone: false)),
    Case(
      name: "under deleteWins a fetched deletion removes a record with unsent edits and keeps a tombstone",
      policy: .deleteWins, localEdit: ["title": "b"], nextIsDeletion: true,
      expected: Outcome(values: nil, queued: nil, tombstone: true)),
    Case(
      name: "under editWins a fetched deletion of a record with unsent edits queues it again",
      policy: .editWins, localEdit: ["title": "b"], nextIsDeletion: true,
      expected: Outcome(values: ["title": "b", "body": "x"], queued: .save, tombstone: false)),
    Case(
      name: "a fetched copy of the version deleted here stays deleted: the tombstone blocks it",
      policy: .deleteWins, localEdit: nil, localDelete: true, next: server(tag: "t1", ["title": "a", "body": "x"]),
      expected: Outcome(values: nil, queued: .delete, tombstone: true)),
    Case(
      name: "a fetched deletion of a record with nothing unsent removes it",
      policy: .editWins, localEdit: nil, nextIsDeletion: true,
      expected: Outcome(values: nil, queued: nil, tombstone: true)),
  ]

  @Test("the store's rules for fetched versions and deletions", arguments: cases)
  func rules(_ rule: Case) throws {
    var store = try Self.store(rule.policy)
    let first = store.apply(Self.page([Self.server(tag: "t1", ["title": "a", "body": "x"])]), at: Self.start)
    #expect(first == nil)
    if let edit = rule.localEdit { try store.edit(Self.id, setting: edit, at: Self.start.addingTimeInterval(1)) }
    if rule.localDelete { try store.delete(Self.id, at: Self.start.addingTimeInterval(1)) }
    let page = rule.nextIsDeletion ? Self.page([], deleted: [Self.id]) : Self.page(rule.next.map { [$0] } ?? [])
    let halt = store.apply(page, at: Self.start.addingTimeInterval(2))
    #expect(halt == nil)
    #expect(Self.outcome(of: store) == rule.expected, "\(rule.name)")
  }

  @Test("a server version met in a conflict merges with the unsent edit and stays queued")
  func conflictMerges() throws {
    var store = try Self.store()
    _ = store.apply(Self.page([Self.server(tag: "t1", ["title": "a", "body": "x"])]), at: Self.start)
    try store.edit(Self.id, setting: ["title": "b"], at: Self.start)
    let refused = store.resolveConflict(Self.id, server: Self.server(tag: "t2", ["title": "a", "body": "y"]))
    #expect(refused == nil)
    #expect(
      Self.outcome(of: store) == Outcome(values: ["title": "b", "body": "y"], queued: .save, tombstone: false))
    #expect(store.record(Self.id)?.recordChangeTag == "t2", "the merge is saved on the server's tag")
  }

  @Test("a damaged copy is thrown away before it is edited, and the store asks for the zone again")
  func damageIsDiscarded() throws {
    var store = try Self.store()
    _ = store.apply(Self.page([Self.server(tag: "t1", ["title": "a"])]), at: Self.start)
    let held = store.corruptStoredRecord(Self.id)
    #expect(held)
    #expect(throws: DeviceError.recordDamaged(Self.id)) {
      try store.edit(Self.id, setting: ["title": "b"], at: Self.start)
    }
    #expect(store.record(Self.id) == nil)
    #expect(store.refetchRequested)
    #expect(store.discardNotice?.contains("storage corruption") == true)
  }

  @Test("a page holding a record from a newer app is refused whole, naming the halt")
  func newerAppHalts() throws {
    var store = try Self.store()
    let schema = Schema(
      [RecordSchema(recordType: "Note", version: SchemaVersion(major: 1, minor: 0, patch: 0), fields: [])],
      unknownKeys: .preserve, futureVersions: .halt)
    store.configuration.schema = schema
    var newer = Self.server(tag: "t1", ["title": "a"])
    try Schema(
      [RecordSchema(recordType: "Note", version: SchemaVersion(major: 2, minor: 0, patch: 0), fields: [])]
    ).stampVersion(&newer)
    guard case .schema? = store.apply(Self.page([newer]), at: Self.start) else {
      Issue.record("a newer app's record must halt the page")
      return
    }
    #expect(store.record(Self.id) == nil)
  }
}
