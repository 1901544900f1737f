import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// The "Where each one loses data" table of the Choosing a resolver article, checked row by row.
@Suite("The resolver comparison table")
struct ResolverComparisonTests {
  static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
  static let hlc = HybridLogicalClockMerge()

  /// Which resolver, and what the article says it does in the two scenarios.
  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    let resolver: any ConflictResolver
    /// Does the second of two queued edits survive?
    let keepsQueuedEdit: Bool
    /// Which of two different-field edits survive: (the server's, the client's).
    let keepsFields: (server: Bool, client: Bool)
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    Row(
      name: "ServerLastWriterWins", resolver: .serverLastWriterWins, keepsQueuedEdit: false, keepsFields: (true, false)),
    Row(name: "LocalClock", resolver: .localClock(key: "editedAt"), keepsQueuedEdit: true, keepsFields: (false, true)),
    Row(name: "EditCount", resolver: .editCount(key: "editCount"), keepsQueuedEdit: true, keepsFields: (true, false)),
    Row(
      name: "FieldMerge(.editCount)", resolver: .fieldMerge(.editCount(key: "editCount")), keepsQueuedEdit: true,
      keepsFields: (true, true)),
    Row(name: "FieldMerge(.server)", resolver: .fieldMerge(), keepsQueuedEdit: false, keepsFields: (true, true)),
    Row(
      name: "HybridLogicalClockMerge", resolver: .hybridLogicalClock(), keepsQueuedEdit: true, keepsFields: (true, true)
    ),
  ]

  /// An edit as an app makes it: the value, the edit counter, the device timestamp and the HLC stamps.
  static func edit(
    _ record: inout Record, _ key: String, _ value: FieldValue, at seconds: TimeInterval,
    clock: inout HybridLogicalClock
  ) throws {
    let when = t0.addingTimeInterval(seconds)
    record[key] = value
    record["editCount"] = .int64((record["editCount"]?.int64Value ?? 0) + 1)
    record["editedAt"] = .timestamp(when)
    try hlc.stamp(&record, with: &clock, at: when)
  }

  static func base() throws -> Record {
    var base = try Scenario.note(["title": "draft", "body": "empty"])
    var creator = try HybridLogicalClock(nodeID: "creator")
    try edit(&base, "title", "draft", at: 0, clock: &creator)
    return base.savedByServer(tag: "t1", at: t0)
  }

  @Test("two quick edits queued with one change tag", arguments: rows)
  func queuedEdits(row: Row) throws {
    let base = try Self.base()
    var clock = try HybridLogicalClock(nodeID: "phone")
    try Self.hlc.observe(base, with: &clock, at: Self.t0)
    var first = base
    try Self.edit(&first, "title", "first", at: 10, clock: &clock)
    var second = first
    try Self.edit(&second, "title", "second", at: 11, clock: &clock)
    let server = base.applying(first, tag: "t2", at: Self.t0.addingTimeInterval(12))
    let resolved = try row.resolver.resolve(Conflict(client: second, ancestor: base, server: server))
    #expect((resolved["title"] == "second") == row.keepsQueuedEdit)
  }

  @Test("two devices edit different fields", arguments: rows)
  func differentFields(row: Row) throws {
    let base = try Self.base()
    var clockA = try HybridLogicalClock(nodeID: "A")
    var clockB = try HybridLogicalClock(nodeID: "B")
    var a = base
    try Self.edit(&a, "title", "title from A", at: 10, clock: &clockA)
    var b = base
    try Self.edit(&b, "body", "body from B", at: 20, clock: &clockB)
    let server = base.applying(a, tag: "t2", at: Self.t0.addingTimeInterval(15))
    let resolved = try row.resolver.resolve(Conflict(client: b, ancestor: base, server: server))
    #expect((resolved["title"] == "title from A") == row.keepsFields.server)
    #expect((resolved["body"] == "body from B") == row.keepsFields.client)
  }
}
