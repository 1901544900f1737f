import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// FieldMerge against a reference written straight from its documented table, key by key, with nothing shared with the
/// resolver: plain dictionary-free reads through the public subscripts, every key of every version visited.
@Suite("FieldMerge agrees with its table, written out as a reference")
struct FieldMergeReferenceTests {
  /// A key's value and whether it is encrypted; `nil` when the record has no value for the key.
  struct Slot: Equatable, CustomStringConvertible {
    var value: FieldValue
    var encrypted: Bool
    var description: String { encrypted ? "encrypted \(value)" : "\(value)" }
  }

  static func slot(_ key: String, in record: Record) -> Slot? {
    if let value = record[key] { return Slot(value: value, encrypted: false) }
    return record.encryptedValues[key].map { Slot(value: $0, encrypted: true) }
  }

  /// What the table says `key` ends up as, for a policy that keeps one side (`clientWinsTies`) when both changed it.
  static func expected(_ key: String, in conflict: Conflict, clientWinsTies: Bool) -> Slot? {
    let client = slot(key, in: conflict.client)
    let server = slot(key, in: conflict.server)
    let ancestorHasValues = conflict.ancestor.map { !$0.allKeys.isEmpty } ?? false
    if let ancestorRecord = conflict.ancestor, ancestorHasValues {
      let ancestor = slot(key, in: ancestorRecord)
      let clientChanged = conflict.client.changedKeys.contains(key) && client != ancestor
      guard clientChanged else { return server }
      if server == ancestor || client == server { return client }
    } else {
      // No ancestor: the client's values meet the server's; a removal never beats a value.
      guard let client, client != server else { return server }
      guard server != nil else { return client }
    }
    guard let client else { return server }
    guard server != nil else { return client }
    return clientWinsTies ? client : server
  }

  /// Every key whose resolved value is not what the table says.
  static func disagreements(_ resolved: Record, _ conflict: Conflict, clientWinsTies: Bool) -> [String] {
    let keys = Set(conflict.client.allKeys + conflict.server.allKeys + (conflict.ancestor?.allKeys ?? []))
    return keys.sorted().compactMap { key in
      let want = expected(key, in: conflict, clientWinsTies: clientWinsTies)
      let got = slot(key, in: resolved)
      return want == got
        ? nil : "\(key): \(got.map(\.description) ?? "nil"), the table says \(want.map(\.description) ?? "nil")"
    }
  }

  @Test("every key of thousands of random conflicts ends as the table says", arguments: [false, true])
  func agreesWithTheTable(clientWinsTies: Bool) throws {
    let merge = FieldMerge(clientWinsTies ? .client : .server)
    for seed in TestSeeds.seeds(1...3_000) {
      var generator = RandomConflicts(seed: seed)
      let conflict = try generator.conflict()
      let wrong = Self.disagreements(try merge.resolve(conflict), conflict, clientWinsTies: clientWinsTies)
      #expect(wrong.isEmpty, "\(wrong); \(TestSeeds.replay(seed, test: "agreesWithTheTable"))")
      if !wrong.isEmpty { break }
    }
  }

  @Test("wide records whose versions hold different keys, so positions in one are not positions in another")
  func wideRecordsWithShiftedKeys() throws {
    let id = try RecordID(recordName: "wide")
    var base = Record(recordType: "Item", recordID: id)
    for i in stride(from: 0, to: 200, by: 2) { base["k\(1000 + i)"] = .int64(Int64(i)) }
    base.clearChangedKeys()
    var server = base
    // The server inserts keys between the base's, and changes some of its own.
    for i in stride(from: 1, to: 200, by: 6) { server["k\(1000 + i)"] = .string("server \(i)") }
    for i in stride(from: 0, to: 200, by: 10) { server["k\(1000 + i)"] = .string("server edit \(i)") }
    server.clearChangedKeys()
    var client = base
    // The client inserts keys of its own (some the server also added), removes some, and edits others.
    for i in stride(from: 1, to: 200, by: 4) { client["k\(1000 + i)"] = .string("client \(i)") }
    for i in stride(from: 4, to: 200, by: 12) { client["k\(1000 + i)"] = nil }
    for i in stride(from: 2, to: 200, by: 8) { client.encryptedValues["k\(1000 + i)"] = .string("secret \(i)") }
    client["aaa-first"] = "before every key"
    client["zzz-last"] = "after every key"
    let conflict = Conflict(client: client, ancestor: base, server: server)
    for clientWinsTies in [false, true] {
      let resolved = try FieldMerge(clientWinsTies ? .client : .server).resolve(conflict)
      let wrong = Self.disagreements(resolved, conflict, clientWinsTies: clientWinsTies)
      #expect(wrong.isEmpty, "\(wrong)")
      let differing = Set(
        (resolved.allKeys + server.allKeys).filter { Self.slot($0, in: resolved) != Self.slot($0, in: server) })
      #expect(resolved.changedKeys == differing)
    }
  }

  @Test("the reference catches a resolver that is not FieldMerge")
  func referenceCatchesAWrongResolver() throws {
    // Server-wins drops every one-sided client change: over a few seeds the reference must say so.
    var caught = 0
    for seed in UInt64(1)...50 {
      var generator = RandomConflicts(seed: seed)
      let conflict = try generator.conflict()
      let resolved = try ServerLastWriterWins().resolve(conflict)
      if !Self.disagreements(resolved, conflict, clientWinsTies: false).isEmpty { caught += 1 }
    }
    #expect(caught > 10)
  }
}
