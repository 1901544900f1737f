import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// The merging policies' rows of the three-way table (``FieldMergeTests`` runs them with the rest): what each keeps and
/// loses when both sides changed a key.
extension MergeCase {
  static let body = "Shopping\nmilk\neggs\nbread\n"

  static let merging: [MergeCase] = [
    MergeCase(
      name: "text: a typo fixed on one side and a line appended on the other both survive",
      ancestor: .values(["body": .string(body)]), server: ["body": .string("Shopping\nmilk\neggs\nbread\nbutter\n")],
      client: ["body": .string("Shopping\nmilk\neggs!\nbread\n")], policy: .text(),
      expected: ["body": .string("Shopping\nmilk\neggs!\nbread\nbutter\n")], expectedChanged: ["body"]),
    MergeCase(
      name: "text: one line edited on both sides keeps the server's line under overlap .server",
      ancestor: .values(["body": .string(body)]), server: ["body": .string("Shopping\nmilk\nEGGS\nbread\n")],
      client: ["body": .string("Shopping\nmilk\neggs (6)\nbread\n")], policy: .text(.line, overlap: .server),
      expected: ["body": .string("Shopping\nmilk\nEGGS\nbread\n")], expectedChanged: []),
    MergeCase(
      name: "text: one line edited on both sides keeps both lines under overlap .both",
      ancestor: .values(["body": .string(body)]), server: ["body": .string("Shopping\nmilk\nEGGS\nbread\n")],
      client: ["body": .string("Shopping\nmilk\neggs (6)\nbread\n")], policy: .text(.line, overlap: .both),
      expected: ["body": .string("Shopping\nmilk\nEGGS\neggs (6)\nbread\n")], expectedChanged: ["body"]),
    MergeCase(
      name: "text: two words of one line changed on two sides both survive at word granularity",
      ancestor: .values(["body": "the quick brown fox"]), server: ["body": "the slow brown fox"],
      client: ["body": "the quick brown cat"], policy: .text(.word),
      expected: ["body": "the slow brown cat"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: two letters of one word changed on two sides both survive at character granularity",
      ancestor: .values(["body": "colour grey"]), server: ["body": "color grey"], client: ["body": "colour gray"],
      policy: .text(.character), expected: ["body": "color gray"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: UTF-8 bytes merge as text and stay bytes",
      ancestor: .values(["body": .bytes(Data(body.utf8))]),
      server: ["body": .bytes(Data("Shopping\nmilk\neggs\nbread\nbutter\n".utf8))],
      client: ["body": .bytes(Data("Shopping\noat milk\neggs\nbread\n".utf8))], policy: .text(),
      expected: ["body": .bytes(Data("Shopping\noat milk\neggs\nbread\nbutter\n".utf8))], expectedChanged: ["body"]),
    MergeCase(
      name: "text: without an ancestor both texts are insertions, and overlap .both keeps both",
      ancestor: .none, server: ["body": "server\n"], client: ["body": "client\n"], policy: .text(overlap: .both),
      expected: ["body": "server\nclient\n"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: a line appended to a note without a final line break and an edit of its first line both survive",
      ancestor: .values(["body": "milk\neggs"]), server: ["body": "milk\neggs\nbutter"],
      client: ["body": "oat milk\neggs"], policy: .text(.line, overlap: .both),
      expected: ["body": "oat milk\neggs\nbutter"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: without a final line break, the append and the edit do not overlap, so no side is picked",
      ancestor: .values(["body": "milk\neggs"]), server: ["body": "oat milk\neggs"],
      client: ["body": "milk\neggs\nbutter"], policy: .text(.line, overlap: .server),
      expected: ["body": "oat milk\neggs\nbutter"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: overlap .both keeps two versions of a last line without a final break on lines of their own",
      ancestor: .values(["body": "a\nb"]), server: ["body": "a\nB"], client: ["body": "a\nbb"],
      policy: .text(.line, overlap: .both), expected: ["body": "a\nB\nbb"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: a final line break one side added is kept",
      ancestor: .values(["body": "a\nb"]), server: ["body": "a\nb\n"], client: ["body": "A\nb"],
      policy: .text(.line, overlap: .both), expected: ["body": "A\nb\n"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: overlap .both at word granularity puts a space between two words that would touch",
      ancestor: .values(["body": "the quick fox"]), server: ["body": "the slow fox"], client: ["body": "the fast fox"],
      policy: .text(.word, overlap: .both), expected: ["body": "the slow fast fox"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: overlap .both at character granularity keeps each side's edit as a whole word",
      ancestor: .values(["body": "a cat sat"]), server: ["body": "a cut sat"], client: ["body": "a cot sat"],
      policy: .text(.character, overlap: .both), expected: ["body": "a cut cot sat"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: overlap .markers writes both versions between conflict markers, as git merge-file does",
      ancestor: .values(["body": "a\nb\nc\n"]), server: ["body": "a\nB\nc\n"], client: ["body": "a\nbb\nc\n"],
      policy: .text(.line, overlap: .markers),
      expected: ["body": "a\n<<<<<<< server\nB\n=======\nbb\n>>>>>>> client\nc\n"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: conflict markers at word granularity stand on lines of their own",
      ancestor: .values(["body": "the quick fox"]), server: ["body": "the slow fox"], client: ["body": "the fast fox"],
      policy: .text(.word, overlap: .markers),
      expected: ["body": "the \n<<<<<<< server\nslow\n=======\nfast\n>>>>>>> client\n fox"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: an overlap goes to the later local clock",
      ancestor: .values(["body": "a\n", "at": at(0)]), server: ["body": "s\n", "at": at(10)],
      client: ["body": "c\n", "at": at(20)], policy: .text(overlap: .localClock(key: "at")),
      expected: ["body": "c\n", "at": at(20)], expectedChanged: ["body", "at"]),
    MergeCase(
      name: "text: Windows line endings without a final break: an edit and an append both survive, every line in CRLF",
      ancestor: .values(["body": "milk\r\neggs"]), server: ["body": "oat milk\r\neggs"],
      client: ["body": "milk\r\neggs\r\nbutter"], policy: .text(.line, overlap: .both),
      expected: ["body": "oat milk\r\neggs\r\nbutter"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: Windows line endings: two appends kept both are joined by CRLF, the last still without a break",
      ancestor: .values(["body": "milk\r\neggs"]), server: ["body": "milk\r\neggs\r\nbutter"],
      client: ["body": "milk\r\neggs\r\nbread"], policy: .text(.line, overlap: .both),
      expected: ["body": "milk\r\neggs\r\nbutter\r\nbread"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: conflict markers in CRLF text end their lines with CRLF, as git writes them",
      ancestor: .values(["body": "a\r\nb\r\nc\r\n"]), server: ["body": "a\r\nB\r\nc\r\n"],
      client: ["body": "a\r\nbb\r\nc\r\n"], policy: .text(.line, overlap: .markers),
      expected: ["body": "a\r\n<<<<<<< server\r\nB\r\n=======\r\nbb\r\n>>>>>>> client\r\nc\r\n"],
      expectedChanged: ["body"]),
    MergeCase(
      name: "text: keep-both writes once a line both sides appended, then the rest of the longer append",
      ancestor: .values(["body": "milk\n"]), server: ["body": "milk\neggs\n"], client: ["body": "milk\neggs\nbread\n"],
      policy: .text(.line, overlap: .both), expected: ["body": "milk\neggs\nbread\n"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: keep-both writes once a typo both sides fixed alike, beside a line one side added",
      ancestor: .values(["body": "Shopping lsit\nmilk"]), server: ["body": "Shopping list\nmilk"],
      client: ["body": "Shopping list\nfor Sunday\nmilk"], policy: .text(.line, overlap: .both),
      expected: ["body": "Shopping list\nfor Sunday\nmilk"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: a removal inside a run of equal lines does not overlap a removal after it (compacted, as git)",
      ancestor: .values(["body": "b\ny\ny\nx\n"]), server: ["body": "y\nx\n"], client: ["body": "b\ny\ny\n"],
      policy: .text(.line, overlap: .client), expected: ["body": "y\n"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: an empty last line stays when the line whose missing break one side made is removed by the other",
      ancestor: .values(["body": "a\n\nz\n"]), server: ["body": "A\n\nz"], client: ["body": "a\n\n"],
      policy: .text(.line, overlap: .both), expected: ["body": "A\n\n"], expectedChanged: ["body"]),
    MergeCase(
      name: "text: Latin-1 bytes merge by lines and stay bytes",
      ancestor: .values(["body": .bytes(Data([0x63, 0x61, 0x66, 0xE9, 0x0A, 0x74, 0x68, 0xE9, 0x0A]))]),
      server: ["body": .bytes(Data([0x43, 0x61, 0x66, 0xE9, 0x0A, 0x74, 0x68, 0xE9, 0x0A]))],
      client: ["body": .bytes(Data([0x63, 0x61, 0x66, 0xE9, 0x0A, 0x74, 0x68, 0xE9, 0x0A, 0xE9, 0x0A]))],
      policy: .text(.character, overlap: .server),
      expected: ["body": .bytes(Data([0x43, 0x61, 0x66, 0xE9, 0x0A, 0x74, 0x68, 0xE9, 0x0A, 0xE9, 0x0A]))],
      expectedChanged: ["body"]),
    MergeCase(
      name: "counter: both increments land", ancestor: .values(["plays": 5]), server: ["plays": 7],
      client: ["plays": 6], policy: .counter, expected: ["plays": 8], expectedChanged: ["plays"]),
    MergeCase(
      name: "counter: a decrement and an increment of a double", ancestor: .values(["stock": 2.5]),
      server: ["stock": 4.0], client: ["stock": 1.5], policy: .counter, expected: ["stock": 3.0],
      expectedChanged: ["stock"]),
    MergeCase(
      name: "counter: a missing ancestor counts as zero", ancestor: .none, server: ["plays": 3], client: ["plays": 2],
      policy: .counter, expected: ["plays": 5], expectedChanged: ["plays"]),
    MergeCase(
      name: "counter: two increments that reach one number both count", ancestor: .values(["plays": 5]),
      server: ["plays": 7], client: ["plays": 7], policy: .counter, expected: ["plays": 9], expectedChanged: ["plays"]),
    MergeCase(
      name: "counter: without an ancestor, equal counts are two increments from zero", ancestor: .none,
      server: ["plays": 6], client: ["plays": 6], policy: .counter, expected: ["plays": 12], expectedChanged: ["plays"]),
    MergeCase(
      name: "counter: one the server removed counts from zero", ancestor: .values(["plays": 7]), server: [:],
      client: ["plays": 5], policy: .counter, expected: ["plays": -2], expectedChanged: ["plays"]),
    MergeCase(
      name: "set: a tag removed on one side stays removed while the other adds one",
      ancestor: .values(["tags": ["a", "b", "c"]]), server: ["tags": ["a", "b", "c", "d"]],
      client: ["tags": ["a", "c"]], policy: .set(.addWins), expected: ["tags": ["a", "c", "d"]],
      expectedChanged: ["tags"]),
    MergeCase(
      name: "set: without an ancestor addWins keeps the union", ancestor: .none, server: ["tags": ["a", "b"]],
      client: ["tags": ["b", "c"]], policy: .set(.addWins), expected: ["tags": ["a", "b", "c"]],
      expectedChanged: ["tags"]),
    MergeCase(
      name: "set: without an ancestor removeWins keeps the intersection", ancestor: .none,
      server: ["tags": ["a", "b"]], client: ["tags": ["b", "c"]], policy: .set(.removeWins), expected: ["tags": ["b"]],
      expectedChanged: ["tags"]),
    MergeCase(
      name: "set: a tag spelled another way but canonically equal (the Kelvin sign, K) is the same tag",
      ancestor: .values(["tags": ["K", "a"]]), server: ["tags": ["a"]], client: ["tags": ["\u{212A}", "a", "c"]],
      policy: .set(.addWins), expected: ["tags": ["a", "c"]], expectedChanged: ["tags"]),
    MergeCase(
      name: "set: a long tag composed on one side and decomposed on the other is the same tag",
      ancestor: .values(["tags": ["caf\u{E9} au lait", "a"]]), server: ["tags": ["a"]],
      client: ["tags": ["cafe\u{301} au lait", "a", "c"]], policy: .set(.addWins), expected: ["tags": ["a", "c"]],
      expectedChanged: ["tags"]),
    MergeCase(
      name: "set: long tags alike but for their last letter are different tags",
      ancestor: .values(["tags": ["a longer tag 1"]]), server: ["tags": ["a longer tag 1", "a longer tag 2"]],
      client: ["tags": ["a longer tag 3"]], policy: .set(.addWins),
      expected: ["tags": ["a longer tag 2", "a longer tag 3"]], expectedChanged: ["tags"]),
    MergeCase(
      name: "ordered list: a NUL byte and an empty string are elements of their own",
      ancestor: .values(["order": ["", "a", "b", "a\u{0}"]]), server: ["order": ["", "a", "s", "b", "a\u{0}"]],
      client: ["order": ["a\u{0}", "", "a", "b"]], policy: .orderedList,
      expected: ["order": ["a\u{0}", "", "a", "s", "b"]], expectedChanged: ["order"]),
    MergeCase(
      name: "ordered list: integers move and insert as strings do",
      ancestor: .values(["order": [1, 2, 3, 4]]), server: ["order": [1, 2, 9, 3, 4]], client: ["order": [2, 3, 4, 1]],
      policy: .orderedList, expected: ["order": [2, 9, 3, 4, 1]], expectedChanged: ["order"]),
    MergeCase(
      name: "ordered list: insertions at both ends and a removal all land in place",
      ancestor: .values(["order": ["a", "b", "c", "d"]]), server: ["order": ["s", "a", "b", "c", "d"]],
      client: ["order": ["a", "b", "d", "z"]], policy: .orderedList, expected: ["order": ["s", "a", "b", "d", "z"]],
      expectedChanged: ["order"]),
    MergeCase(
      name: "ordered list: a move on one side and an insertion on the other both land",
      ancestor: .values(["order": ["a", "b", "c", "d"]]), server: ["order": ["a", "b", "x", "c", "d"]],
      client: ["order": ["b", "c", "d", "a"]], policy: .orderedList, expected: ["order": ["b", "x", "c", "d", "a"]],
      expectedChanged: ["order"]),
    MergeCase(
      name: "ordered list: an element both sides moved goes to the server's place",
      ancestor: .values(["order": ["a", "b", "c", "d"]]), server: ["order": ["b", "a", "c", "d"]],
      client: ["order": ["b", "c", "d", "a"]], policy: .orderedList, expected: ["order": ["b", "a", "c", "d"]],
      expectedChanged: []),
    MergeCase(
      name: "ordered list: an element one side removed is removed where the other moved it",
      ancestor: .values(["order": ["a", "b", "c"]]), server: ["order": ["b", "c", "a"]],
      client: ["order": ["b", "c"]], policy: .orderedList, expected: ["order": ["b", "c"]],
      expectedChanged: ["order"]),
    MergeCase(
      name: "ordered list: both sides inserting at one place keeps the server's first, each once",
      ancestor: .values(["order": ["a"]]), server: ["order": ["a", "s", "both"]],
      client: ["order": ["a", "both", "c"]],
      policy: .orderedList, expected: ["order": ["a", "s", "both", "c"]], expectedChanged: ["order"]),
    MergeCase(
      name: "ordered list: a list the server removed keeps only what the client added since",
      ancestor: .values(["order": ["a", "b", "c"]]), server: [:], client: ["order": ["a", "b", "c", "d"]],
      policy: .orderedList, expected: ["order": ["d"]], expectedChanged: ["order"]),
    MergeCase(
      name: "ordered list: a list the client removed takes the ancestor's elements from the server's",
      ancestor: .values(["order": ["a", "b"]]), server: ["order": ["a", "b", "s"]], client: [:],
      clientRemoved: ["order"], policy: .orderedList, expected: ["order": ["s"]], expectedChanged: ["order"]),
    MergeCase(
      name: "set: a set the server removed keeps only the client's additions; none left removes the key",
      ancestor: .values(["tags": ["a"]]), server: [:], client: ["tags": ["a", "b"]], policy: .set(.addWins),
      expected: ["tags": ["b"]], expectedChanged: ["tags"]),
    MergeCase(
      name: "keepBoth: the server's value stays, the client's goes into the named key",
      ancestor: .values(["body": "x"]), server: ["body": "server's"], client: ["body": "client's"],
      policy: .keepBoth(into: "bodyConflict"), expected: ["body": "server's", "bodyConflict": "client's"],
      expectedChanged: ["bodyConflict"]),
  ]
}

@Suite("FieldMerge: merging policies (text, counter, ordered list, set, keep both)")
struct MergePolicyTests {
  @Test("keepBoth hands the client's value back beside the record, and keeps the server's")
  func keepBothHandsBack() throws {
    let row = MergeCase(
      name: "", ancestor: .values(["body": "x", "title": "t"]), server: ["body": "server's", "title": "t"],
      client: ["body": "client's", "title": "T"], policy: .keepBoth(), expected: [:], expectedChanged: [])
    let resolution = try FieldMerge(.keepBoth()).resolveKeepingAside(try row.conflict(encrypted: true))
    #expect(resolution.keptAside == [FieldMerge.KeptAside(key: "body", value: "client's", isEncrypted: true)])
    #expect(resolution.record.encryptedValues["body"] == "server's")
    #expect(resolution.record.encryptedValues["title"] == "T", "a one-sided change is still kept")
    #expect(resolution.record.changedKeys == ["title"])
  }

  @Test("policies given values they cannot merge throw errors naming the key and the side")
  func wrongTypesAreErrors() throws {
    func failure(_ policy: FieldMerge.Policy, ancestor: FieldValue?, server: FieldValue, client: FieldValue) throws
      -> ConflictResolutionError?
    {
      let row = MergeCase(
        name: "", ancestor: ancestor.map { .values(["k": $0]) } ?? .none, server: ["k": server],
        client: ["k": client], policy: policy, expected: [:], expectedChanged: [])
      do {
        _ = try FieldMerge(policy).resolve(try row.conflict(encrypted: false))
        return nil
      } catch let error as ConflictResolutionError {
        return error
      }
    }
    #expect(
      try failure(.text(), ancestor: "a", server: "b", client: .bytes(Data("c".utf8)))
        == .notText(key: "k", role: .client, found: .bytes))
    #expect(
      try failure(.text(), ancestor: "a", server: 1, client: "c") == .notText(key: "k", role: .server, found: .int64))
    #expect(
      try failure(.counter, ancestor: 0, server: .int64(.max), client: 1) == .counterOverflow(key: "k"))
    #expect(
      try failure(.counter, ancestor: 0, server: 1, client: 2.5)
        == .unexpectedFieldType(key: "k", role: .client, expected: .int64, found: .double))
    #expect(try failure(.counter, ancestor: 0, server: "x", client: 2) != nil)
    #expect(
      try failure(.orderedList, ancestor: ["a"], server: "b", client: ["c"])
        == .notAList(key: "k", role: .server, found: .string))
    #expect(
      try failure(.set(.addWins), ancestor: ["a"], server: ["b"], client: 3)
        == .notAList(key: "k", role: .client, found: .int64))
  }
}

@Suite("FieldMerge .text against GNU diff3")
struct TextMergeAgainstDiff3Tests {
  /// `diff3 -m client ancestor server`: its output, and whether it merged without a conflict.
  static func diff3(ancestor: String, client: String, server: String) throws -> (text: String, clean: Bool) {
    let run = try Diff3Process.merge(mine: client, older: ancestor, yours: server)
    return (run.output, run.clean)
  }

  static func merge(_ ancestor: String, _ client: String, _ server: String, _ overlap: FieldMerge.TextOverlap) throws
    -> String
  {
    let row = MergeCase(
      name: "", ancestor: .values(["body": .string(ancestor)]), server: ["body": .string(server)],
      client: ["body": .string(client)], policy: .text(.line, overlap: overlap), expected: [:], expectedChanged: [])
    let resolved = try FieldMerge(.text(.line, overlap: overlap)).resolve(try row.conflict(encrypted: false))
    return resolved["body"]?.stringValue ?? ""
  }

  @Test(
    "wherever diff3 merges cleanly, the line merge is clean too and equal to it, with or without final line breaks (seeds 0...149)"
  )
  func cleanWhereDiff3IsClean() throws {
    guard FileManager.default.isExecutableFile(atPath: Diff3Process.path) else {
      Issue.record("GNU diff3 is not installed at /usr/bin/diff3; install diffutils to compare against it")
      return
    }
    var clean = 0
    var fewerOverlaps = 0
    for seed in TestSeeds.seeds(0...149) {
      var random = SeededRandom(seed: seed)
      let lines = RandomTextEdits.document(lines: Int.random(in: 5...60, using: &random), width: 30)
      // Even seeds keep the two sides' edits apart; odd ones let them meet.
      let split = Int.random(in: 0...lines.count, using: &random)
      let apart = seed % 2 == 0
      let client = RandomTextEdits.edited(
        lines, edits: Int.random(in: 1...4, using: &random), within: 0..<(apart ? max(0, split - 1) : lines.count),
        tag: "client", random: &random)
      let server = RandomTextEdits.edited(
        lines, edits: Int.random(in: 1...4, using: &random),
        within: min(lines.count, apart ? split + 1 : 0)..<lines.count,
        tag: "server", random: &random)
      // Every third seed's texts end without a final line break, as notes usually do.
      func text(_ lines: [String]) -> String {
        let joined = lines.joined()
        return seed % 3 == 0 && joined.hasSuffix("\n") ? String(joined.dropLast()) : joined
      }
      let (ancestorText, clientText, serverText) = (text(lines), text(client), text(server))
      let reference = try Self.diff3(ancestor: ancestorText, client: clientText, server: serverText)
      guard reference.clean else {
        // Where diff3 meets an overlap, Reconcile may merge cleanly (a final line break), never the other way round.
        if try Self.merge(ancestorText, clientText, serverText, .server)
          == Self.merge(ancestorText, clientText, serverText, .client)
        {
          fewerOverlaps += 1
        }
        continue
      }
      clean += 1
      let keepingServer = try Self.merge(ancestorText, clientText, serverText, .server)
      let keepingClient = try Self.merge(ancestorText, clientText, serverText, .client)
      let replay = TestSeeds.replay(seed, test: "TextMergeAgainstDiff3Tests")
      #expect(keepingServer == keepingClient, "diff3 merged cleanly, Reconcile met an overlap; \(replay)")
      #expect(keepingServer == reference.text, "the merges differ; \(replay)")
    }
    #expect(clean >= 50, "only \(clean) of the seeds gave diff3 a clean merge: the comparison judged too little")
    print("text merge against diff3: \(clean) seeds clean in both, \(fewerOverlaps) clean only in Reconcile")
  }

  @Test(
    "appending a line to a text without a final line break collides with an edit of the line before in diff3, not here")
  func appendWithoutFinalBreakIsNoOverlap() throws {
    guard FileManager.default.isExecutableFile(atPath: Diff3Process.path) else {
      Issue.record("GNU diff3 is not installed at /usr/bin/diff3; install diffutils to compare against it")
      return
    }
    let (ancestor, client, server) = ("milk\neggs", "milk\neggs\nbutter", "oat milk\neggs")
    #expect(try !Self.diff3(ancestor: ancestor, client: client, server: server).clean)
    #expect(try Self.merge(ancestor, client, server, .server) == "oat milk\neggs\nbutter")
    #expect(try Self.merge(ancestor, client, server, .client) == "oat milk\neggs\nbutter")
    // With final line breaks both agree.
    let terminated = try Self.diff3(ancestor: ancestor + "\n", client: client + "\n", server: server + "\n")
    #expect(terminated.clean && terminated.text == "oat milk\neggs\nbutter\n")
  }
}

@Suite("FieldMerge list policies: short lists and long lists follow one rule")
struct ListPolicyScaleTests {
  /// `list` with `edits` random insertions, removals and moves of elements named `tag…`.
  /// `list` after `edits` random inserts, removals and moves; with `repeats`, also copies of an element already there
  /// and inserts both sides may make alike.
  static func edited(
    _ list: [String], _ tag: String, edits: Int, repeats: Bool = false, _ random: inout SeededRandom
  ) -> [String] {
    var result = list
    for number in 0..<edits {
      switch Int.random(in: 0..<(repeats ? 5 : 3), using: &random) {
      case 0: result.insert("\(tag)\(number)", at: Int.random(in: 0...result.count, using: &random))
      case 3 where !result.isEmpty:
        let copy = result[Int.random(in: 0..<result.count, using: &random)]
        result.insert(copy, at: Int.random(in: 0...result.count, using: &random))
      case 4: result.insert("both\(number % 2)", at: Int.random(in: 0...result.count, using: &random))
      case 1 where !result.isEmpty: result.remove(at: Int.random(in: 0..<result.count, using: &random))
      default:
        guard !result.isEmpty else { continue }
        let element = result.remove(at: Int.random(in: 0..<result.count, using: &random))
        result.insert(element, at: Int.random(in: 0...result.count, using: &random))
      }
    }
    return result
  }

  static func merge(_ policy: FieldMerge.Policy, _ ancestor: [String], _ server: [String], _ client: [String]) throws
    -> [FieldValue]
  {
    func list(_ items: [String]) -> FieldValue { .list(items.map(FieldValue.string)) }
    let row = MergeCase(
      name: "", ancestor: .values(["k": list(ancestor)]), server: ["k": list(server)], client: ["k": list(client)],
      policy: policy, expected: [:], expectedChanged: [])
    let resolved = try FieldMerge(policy).resolve(try row.conflict(encrypted: false))
    return resolved["k"]?.listValue ?? []
  }

  /// Sixty elements every version ends with: enough to take a merge past the short-list path.
  static let tail = (0..<60).map { "tail\($0)" }

  /// Expects the short lists and the same lists padded with ``tail`` to merge alike — the ordered merge (when
  /// `ordered`) gaining only the tail, each set rule holding the same elements — and returns the short ordered merge.
  @discardableResult
  static func expectPathsAgree(
    _ ancestor: [String], _ server: [String], _ client: [String], ordered: Bool = true, _ replay: String
  ) throws -> [FieldValue] {
    let short = try merge(.orderedList, ancestor, server, client)
    if ordered {
      let long = try merge(.orderedList, ancestor + tail, server + tail, client + tail)
      #expect(long == short + tail.map(FieldValue.string), "orderedList; \(replay)")
    }
    for rule in FieldMerge.SetRule.allCases {
      let shortSet = try merge(.set(rule), ancestor, server, client)
      let longSet = try merge(.set(rule), ancestor + tail, server + tail, client + tail)
      #expect(Set(longSet) == Set(shortSet + tail.map(FieldValue.string)), "set(\(rule)); \(replay)")
    }
    return short
  }

  @Test(
    "a merge of short lists, padded past the short-list path with a common tail, gains only the tail (seeds 0...199)")
  func paddingChangesNothing() throws {
    for seed in TestSeeds.seeds(0...199) {
      var random = SeededRandom(seed: seed)
      let ancestor = (0..<Int.random(in: 0...8, using: &random)).map { "a\($0)" }
      let server = Self.edited(ancestor, "s", edits: Int.random(in: 1...4, using: &random), &random)
      let client = Self.edited(ancestor, "c", edits: Int.random(in: 1...4, using: &random), &random)
      let replay = TestSeeds.replay(seed, test: "ListPolicyScaleTests")
      let short = try Self.expectPathsAgree(ancestor, server, client, replay)
      // What each policy promises, on the short lists.
      let removedBySomeone = Set(ancestor).subtracting(server).union(Set(ancestor).subtracting(client))
      let added = Set(server).union(client).subtracting(ancestor)
      let kept = Set(short.compactMap(\.stringValue))
      #expect(kept.isDisjoint(with: removedBySomeone), "orderedList kept a removed element; \(replay)")
      #expect(added.isSubset(of: kept), "orderedList lost an insertion; \(replay)")
      #expect(short.count == kept.count, "orderedList holds an element twice; \(replay)")
    }
  }

  @Test(
    "short lists of strings spelled alike, of every length and none, merge as the long-list path does (seeds 0...299)")
  func spellingsNumberAlike() throws {
    // Canonically equal spellings (Swift's String equality), strings past eight bytes alike but for one letter, a NUL.
    let pool = [
      "K", "\u{212A}", "\u{E9}", "e\u{301}", "a", "a\u{0}", "", "a longer tag", "a longer tah", "caf\u{E9} au lait",
      "cafe\u{301} au lait",
    ]
    for seed in TestSeeds.seeds(0...299) {
      var random = SeededRandom(seed: seed)
      func draw() -> [String] {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in pool[Int.random(in: 0..<pool.count, using: &random)] }
      }
      let (ancestor, server, client) = (draw(), draw(), draw())
      let replay = TestSeeds.replay(seed, test: "ListPolicyScaleTests")
      // Where an element repeats, the two paths' diffs may match different copies (either is a longest common
      // subsequence), so the ordered merge is held to the long path only where every element is distinct.
      let distinct = [ancestor, server, client].allSatisfy { Set($0).count == $0.count }
      try Self.expectPathsAgree(ancestor, server, client, ordered: distinct, replay)
    }
  }

  @Test(
    "sets of short lists with repeated elements and alike inserts hold what the long-list path holds (seeds 0...199)")
  func repeatsNumberAlike() throws {
    let tail = (0..<60).map { "tail\($0)" }
    for seed in TestSeeds.seeds(0...199) {
      var random = SeededRandom(seed: seed)
      let ancestor = (0..<Int.random(in: 0...8, using: &random)).map { "a\($0 % 3)" }
      let server = Self.edited(ancestor, "s", edits: Int.random(in: 1...5, using: &random), repeats: true, &random)
      let client = Self.edited(ancestor, "c", edits: Int.random(in: 1...5, using: &random), repeats: true, &random)
      let replay = TestSeeds.replay(seed, test: "ListPolicyScaleTests")
      for rule in FieldMerge.SetRule.allCases {
        let short = try Self.merge(.set(rule), ancestor, server, client)
        let long = try Self.merge(.set(rule), ancestor + tail, server + tail, client + tail)
        #expect(Set(long) == Set(short + tail.map(FieldValue.string)), "set(\(rule)); \(replay)")
      }
      // The ordered list keeps every element no side removed, at most as often as a side holds it.
      let ordered = try Self.merge(.orderedList, ancestor, server, client).compactMap(\.stringValue)
      for element in Set(server + client) {
        let most = max(server.count { $0 == element }, client.count { $0 == element })
        #expect(ordered.count { $0 == element } <= most, "orderedList holds \(element) too often; \(replay)")
      }
    }
  }
}
