import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// One row of the field-merge table: the three versions' values, the policy, and the expected result.
struct MergeCase: Sendable, CustomTestStringConvertible {
  enum Ancestor: Sendable {
    case values([String: FieldValue])
    case none
    case systemFieldsOnly
  }

  let name: String
  var ancestor: Ancestor
  var server: [String: FieldValue]
  var client: [String: FieldValue]
  var clientRemoved: Set<String> = []
  /// Keys whose client value is left out of `changedKeys`, as when a local copy was rewritten without marking.
  var clientUnmarked: Set<String> = []
  var policy: FieldMerge.Policy = .server
  var overrides: [String: FieldMerge.Policy] = [:]
  var expected: [String: FieldValue]
  var expectedChanged: Set<String>

  var testDescription: String { name }

  static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
  static func at(_ seconds: TimeInterval) -> FieldValue { .timestamp(t0.addingTimeInterval(seconds)) }

  /// Keys that hold stamps or counters: they stay plain in the encrypted variant, as an app would keep them.
  static let stampKeys: Set<String> = ["at", "n"]

  static let all: [MergeCase] = [
    MergeCase(
      name: "change on the client only", ancestor: .values(["title": "x"]), server: ["title": "x"],
      client: ["title": "y"], expected: ["title": "y"], expectedChanged: ["title"]),
    MergeCase(
      name: "change on the server only", ancestor: .values(["title": "x"]), server: ["title": "y"],
      client: ["title": "x"], expected: ["title": "y"], expectedChanged: []),
    MergeCase(
      name: "one-sided changes to different keys are both kept",
      ancestor: .values(["title": "x", "body": "p"]), server: ["title": "x", "body": "q"],
      client: ["title": "y", "body": "p"], expected: ["title": "y", "body": "q"], expectedChanged: ["title"]),
    MergeCase(
      name: "both sides to the same value", ancestor: .values(["title": "x"]), server: ["title": "y"],
      client: ["title": "y"], expected: ["title": "y"], expectedChanged: []),
    MergeCase(
      name: "both differently under .server", ancestor: .values(["title": "x"]), server: ["title": "y"],
      client: ["title": "z"], expected: ["title": "y"], expectedChanged: []),
    MergeCase(
      name: "both differently under .client", ancestor: .values(["title": "x"]), server: ["title": "y"],
      client: ["title": "z"], policy: .client, expected: ["title": "z"], expectedChanged: ["title"]),
    MergeCase(
      name: "both differently under .localClock, client later",
      ancestor: .values(["title": "x", "at": at(0)]), server: ["title": "y", "at": at(10)],
      client: ["title": "z", "at": at(20)], policy: .localClock(key: "at"),
      expected: ["title": "z", "at": at(20)], expectedChanged: ["title", "at"]),
    MergeCase(
      name: "both differently under .localClock, client earlier",
      ancestor: .values(["title": "x", "at": at(0)]), server: ["title": "y", "at": at(10)],
      client: ["title": "z", "at": at(5)], policy: .localClock(key: "at"),
      expected: ["title": "y", "at": at(10)], expectedChanged: []),
    MergeCase(
      name: "both differently under .editCount, client higher",
      ancestor: .values(["title": "x", "n": 1]), server: ["title": "y", "n": 2], client: ["title": "z", "n": 3],
      policy: .editCount(key: "n"), expected: ["title": "z", "n": 3], expectedChanged: ["title", "n"]),
    MergeCase(
      name: "both differently under .editCount, a tie keeps the server",
      ancestor: .values(["title": "x", "n": 1]), server: ["title": "y", "n": 2], client: ["title": "z", "n": 2],
      policy: .editCount(key: "n"), expected: ["title": "y", "n": 2], expectedChanged: []),
    MergeCase(
      name: "a counter named by a policy keeps the larger count even when its own policy is .server",
      ancestor: .values(["title": "x", "n": 1]), server: ["title": "y", "n": 2], client: ["title": "z", "n": 5],
      overrides: ["title": .editCount(key: "n")], expected: ["title": "z", "n": 5], expectedChanged: ["title", "n"]),
    MergeCase(
      name: "both differently under .listUnion: additions kept, removals honoured, deterministic order",
      ancestor: .values(["tags": ["a", "b", "c"]]), server: ["tags": ["a", "b", "d"]],
      client: ["tags": ["b", "c", "e"]], policy: .listUnion, expected: ["tags": ["b", "d", "e"]],
      expectedChanged: ["tags"]),
    MergeCase(
      name: "list union without an ancestor keeps every element once",
      ancestor: .none, server: ["tags": ["a", "b", "b"]], client: ["tags": ["c", "b", "a"]], policy: .listUnion,
      expected: ["tags": ["a", "b", "c"]], expectedChanged: ["tags"]),
    MergeCase(
      name: "both differently under .custom", ancestor: .values(["title": "x"]), server: ["title": "y"],
      client: ["title": "z"],
      policy: .custom { field in .string("\(field.server.stringValue ?? "")+\(field.client.stringValue ?? "")") },
      expected: ["title": "y+z"], expectedChanged: ["title"]),
    MergeCase(
      name: "a .custom policy returning nil removes the key", ancestor: .values(["title": "x"]), server: ["title": "y"],
      client: ["title": "z"], policy: .custom { _ in nil }, expected: [:], expectedChanged: ["title"]),
    MergeCase(
      name: "key added on the client", ancestor: .values(["title": "x"]), server: ["title": "x"],
      client: ["title": "x", "extra": 7], expected: ["title": "x", "extra": 7], expectedChanged: ["extra"]),
    MergeCase(
      name: "key added on the server", ancestor: .values(["title": "x"]), server: ["title": "x", "extra": 7],
      client: ["title": "x"], expected: ["title": "x", "extra": 7], expectedChanged: []),
    MergeCase(
      name: "key added on both sides differently goes to the policy", ancestor: .values([:]), server: ["extra": 1],
      client: ["extra": 2], policy: .client, expected: ["extra": 2], expectedChanged: ["extra"]),
    MergeCase(
      name: "removed on the client, unchanged on the server: removed",
      ancestor: .values(["title": "x", "body": "b"]), server: ["title": "x", "body": "b"], client: ["title": "x"],
      clientRemoved: ["body"], expected: ["title": "x"], expectedChanged: ["body"]),
    MergeCase(
      name: "removed on the client, changed on the server: the change wins",
      ancestor: .values(["body": "b"]), server: ["body": "b2"], client: [:], clientRemoved: ["body"], policy: .client,
      expected: ["body": "b2"], expectedChanged: []),
    MergeCase(
      name: "removed on the server, changed on the client: the change wins",
      ancestor: .values(["body": "b"]), server: [:], client: ["body": "b2"], expected: ["body": "b2"],
      expectedChanged: ["body"]),
    MergeCase(
      name: "removed on the server, unchanged on the client: stays removed",
      ancestor: .values(["body": "b"]), server: [:], client: ["body": "b"], expected: [:], expectedChanged: []),
    MergeCase(
      name: "a key the client does not carry and did not remove keeps the server's value",
      ancestor: .values(["body": "b"]), server: ["body": "b"], client: [:], expected: ["body": "b"],
      expectedChanged: []),
    MergeCase(
      name: "a value the client holds but did not mark changed keeps the server's, as a CloudKit save would",
      ancestor: .values(["title": "x", "body": "p"]), server: ["title": "y", "body": "p"],
      client: ["title": "z", "body": "q"], clientUnmarked: ["title"], policy: .client,
      expected: ["title": "y", "body": "q"], expectedChanged: ["body"]),
    MergeCase(
      name: "no ancestor: a differing key goes to the policy (.server)", ancestor: .none, server: ["title": "y"],
      client: ["title": "z"], expected: ["title": "y"], expectedChanged: []),
    MergeCase(
      name: "no ancestor: a differing key goes to the policy (.client)", ancestor: .none, server: ["title": "y"],
      client: ["title": "z"], policy: .client, expected: ["title": "z"], expectedChanged: ["title"]),
    MergeCase(
      name: "no ancestor: a removal never beats a value", ancestor: .none, server: ["body": "b"], client: [:],
      clientRemoved: ["body"], policy: .client, expected: ["body": "b"], expectedChanged: []),
    MergeCase(
      name: "an ancestor with system fields only counts as no ancestor", ancestor: .systemFieldsOnly,
      server: ["title": "y", "body": "p"], client: ["title": "z", "body": "p"], policy: .client,
      expected: ["title": "z", "body": "p"], expectedChanged: ["title"]),
    MergeCase(
      name: "per-key overrides beat the default policy",
      ancestor: .values(["title": "x", "body": "p"]), server: ["title": "y", "body": "q"],
      client: ["title": "z", "body": "r"], overrides: ["title": .client],
      expected: ["title": "z", "body": "q"], expectedChanged: ["title"]),
  ]

  /// The three records, with every non-stamp value plain or encrypted.
  func conflict(encrypted: Bool) throws -> Conflict {
    let id = try RecordID(recordName: "note-1")
    func make(_ values: [String: FieldValue]) -> Record {
      var record = Record(recordType: "Note", recordID: id)
      for (key, value) in values { record.set(value, forKey: key, encrypted: encrypted) }
      return record
    }
    let base: Record?
    switch ancestor {
    case .values(let values): base = make(values).savedByServer(tag: "t1", at: Self.t0)
    case .none: base = nil
    case .systemFieldsOnly: base = make(server).savedByServer(tag: "t1", at: Self.t0).systemFieldsOnly
    }
    let server = make(self.server).savedByServer(tag: "t2", at: Self.t0.addingTimeInterval(30))
    var client = base ?? Record(recordType: "Note", recordID: id)
    for (key, value) in self.client where (client[key] ?? client.encryptedValues[key]) != value {
      client.set(value, forKey: key, encrypted: encrypted)
    }
    for key in clientRemoved { client.set(nil, forKey: key, encrypted: encrypted) }
    if !clientUnmarked.isEmpty {
      let marked = client.changedKeys.subtracting(clientUnmarked)
      client.clearChangedKeys()
      for key in marked { client.markChanged(key) }
    }
    return Conflict(client: client, ancestor: base, server: server)
  }
}

extension Record {
  /// Writes a test value plain, or encrypted unless it is a stamp.
  mutating func set(_ value: FieldValue?, forKey key: String, encrypted: Bool) {
    if encrypted && !MergeCase.stampKeys.contains(key) { encryptedValues[key] = value } else { self[key] = value }
  }
}

@Suite("FieldMerge")
struct FieldMergeTests {
  @Test("the three-way table, plain and encrypted", arguments: MergeCase.all + MergeCase.merging, [false, true])
  func table(row: MergeCase, encrypted: Bool) throws {
    let conflict = try row.conflict(encrypted: encrypted)
    let resolved = try FieldMerge(row.policy, overrides: row.overrides).resolve(conflict)
    let all = resolved.values.merging(resolved.encryptedValuesByKey) { plain, _ in plain }
    #expect(all == row.expected)
    #expect(resolved.changedKeys == row.expectedChanged)
    #expect(resolved.recordChangeTag == "t2")
    for key in resolved.allKeys where !MergeCase.stampKeys.contains(key) {
      #expect((resolved.encryptedValues[key] != nil) == encrypted, "\(key) kept its namespace")
    }
  }

  @Test(".listUnion on a value that is not a list is an error naming the key")
  func listUnionNeedsLists() throws {
    let row = MergeCase(
      name: "", ancestor: .values(["tags": "x"]), server: ["tags": "y"], client: ["tags": ["z"]], policy: .listUnion,
      expected: [:], expectedChanged: [])
    #expect(throws: ConflictResolutionError.notAList(key: "tags", role: .server, found: .string)) {
      try FieldMerge(.listUnion).resolve(row.conflict(encrypted: false))
    }
  }

  @Test("a custom policy sees the key, the three values and whether it is encrypted")
  func customPolicySeesTheConflict() throws {
    let row = MergeCase(
      name: "", ancestor: .values(["title": "x"]), server: ["title": "y"], client: ["title": "z"],
      expected: [:], expectedChanged: [])
    let merge = FieldMerge(
      .custom { field in
        .string(
          "\(field.key) \(field.ancestor?.description ?? "-") \(field.server) \(field.client) \(field.isEncrypted)")
      })
    let resolved = try merge.resolve(row.conflict(encrypted: true))
    #expect(resolved.encryptedValues["title"] == .string("title \"x\" \"y\" \"z\" true"))
  }

  @Test("a custom policy's error reaches the caller")
  func customPolicyThrows() throws {
    struct Refused: Error {}
    let row = MergeCase(
      name: "", ancestor: .values(["title": "x"]), server: ["title": "y"], client: ["title": "z"],
      expected: [:], expectedChanged: [])
    #expect(throws: Refused.self) {
      try FieldMerge(.custom { _ in throw Refused() }).resolve(row.conflict(encrypted: false))
    }
  }

  @Test("a parent changed on the client alone is kept; changed on both, the server's stays")
  func parentRule() throws {
    let base = try Scenario.note(["title": "x"]).savedByServer(tag: "t1", at: Scenario.t0)
    let folderA = Reference(recordID: try RecordID(recordName: "folder-a"))
    let folderB = Reference(recordID: try RecordID(recordName: "folder-b"))
    var client = base
    client.parent = folderA
    let resolved = try FieldMerge().resolve(Conflict(client: client, ancestor: base, server: base))
    #expect(resolved.parent == folderA)
    var server = base
    server.parent = folderB
    #expect(try FieldMerge().resolve(Conflict(client: client, ancestor: base, server: server)).parent == folderB)
  }

  @Test("FieldMerge never loses a one-sided change, over random conflicts")
  func oneSidedChangesSurvive() throws {
    for seed in TestSeeds.seeds(1...2_000) {
      var gen = RandomConflicts(seed: seed)
      let conflict = try gen.conflict()
      guard let ancestor = conflict.ancestor, !ancestor.allKeys.isEmpty else { continue }
      let resolved = try FieldMerge(.server, overrides: [RandomConflicts.tagsKey: .listUnion]).resolve(conflict)
      let replay = TestSeeds.replay(seed, test: "oneSidedChangesSurvive")
      func value(_ r: Record, _ k: String) -> FieldValue? { r[k] ?? r.encryptedValuesByKey[k] }
      for key in Set(conflict.client.allKeys + conflict.server.allKeys + ancestor.allKeys) {
        let (a, s, c) = (value(ancestor, key), value(conflict.server, key), value(conflict.client, key))
        let clientRemoved = c == nil && conflict.client.changedKeys.contains(key)
        if s == a && c != a && (c != nil || clientRemoved) {
          #expect(value(resolved, key) == c, "client's change to \(key) lost; \(replay)")
        }
        if (c == a || (c == nil && !clientRemoved)) && s != a {
          #expect(value(resolved, key) == s, "server's change to \(key) lost; \(replay)")
        }
      }
    }
  }
}
