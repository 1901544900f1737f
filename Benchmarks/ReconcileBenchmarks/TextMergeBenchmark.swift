import Foundation
import Reconcile
import ReconcileTestSupport

/// `FieldMerge`'s `.text` line merge against GNU `diff3 -m` on the same three files, and the list and counter policies
/// against the floor.
///
/// The documents have unique lines (``RandomTextEdits``), so a merge's alignment is never ambiguous: where the two
/// merges agree hunk by hunk, their outputs are equal line for line. `diff3`'s time includes starting the process,
/// which is what calling it from an app costs.
enum TextMergeBenchmark {
  struct Row {
    var size: String
    var edits: String
    var bytes: Int
    var reconcileMilliseconds: Double
    var diff3Milliseconds: Double
    /// `diff3 -m` on three empty files, the same way: what starting it costs.
    var diff3StartMilliseconds: Double
    /// `diff3 -m`'s time less its start-up, at least a microsecond.
    var diff3WorkMilliseconds: Double { max(0.001, diff3Milliseconds - diff3StartMilliseconds) }
    /// Hunks `diff3` left in conflict.
    var diff3Conflicts: Int
    /// Whether Reconcile's merge, each overlap written as the server's lines then the client's, equals `diff3`'s with
    /// each conflict written the same way: every hunk `diff3` merged, Reconcile merged the same.
    var sameMerge: Bool
  }

  /// The documents: about 1 KB, 100 KB and 1 MB of 50-character lines, with a few edits per side or one line in a
  /// hundred edited per side.
  static func run(quick: Bool) throws -> [Row] {
    var rows: [Row] = []
    let start = try Diff3.run(ancestor: "", client: "", server: "", rounds: quick ? 1 : 5).milliseconds
    let sizes = [("1 KB", 20), ("100 KB", 2_000), ("1 MB", 20_000)]
    for (size, lines) in sizes {
      for (edits, count) in [("few (3 a side)", 3), ("many (1% a side)", max(3, lines / 100))] {
        var random = SeededRandom(seed: UInt64(lines * 31 + count))
        let ancestorLines = RandomTextEdits.document(lines: lines, width: 50)
        let client = RandomTextEdits.edited(
          ancestorLines, edits: count, within: 0..<lines, tag: "client", random: &random
        ).joined()
        let server = RandomTextEdits.edited(
          ancestorLines, edits: count, within: 0..<lines, tag: "server", random: &random
        ).joined()
        let ancestor = ancestorLines.joined()
        let conflict = try Self.conflict(ancestor: ancestor, client: client, server: server)
        let merge = FieldMerge(.text(.line, overlap: .both))
        let rounds = quick ? 2 : (lines > 10_000 ? 5 : 20)
        var reconcile = Double.infinity
        var merged = ""
        for _ in 0..<rounds {
          let start = DispatchTime.now().uptimeNanoseconds
          let resolved = try merge.resolve(conflict)
          reconcile = min(reconcile, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
          merged = resolved["body"]?.stringValue ?? ""
        }
        let reference = try Diff3.run(ancestor: ancestor, client: client, server: server, rounds: quick ? 1 : 5)
        rows.append(
          Row(
            size: size, edits: edits, bytes: ancestor.utf8.count, reconcileMilliseconds: reconcile,
            diff3Milliseconds: reference.milliseconds, diff3StartMilliseconds: start,
            diff3Conflicts: reference.conflicts,
            sameMerge: merged == reference.bothSides))
      }
    }
    return rows
  }

  /// What callgrind counts for the text merge: one merge of the 1 MB document with one line in a hundred edited per
  /// side. Returns the units done.
  static func instructionWorkload(lines count: Int = 20_000, repeats: Int = 1) throws -> Int {
    var random = SeededRandom(seed: 1)
    let lines = RandomTextEdits.document(lines: count, width: 50)
    let edits = max(3, count / 100)
    let client = RandomTextEdits.edited(lines, edits: edits, within: 0..<count, tag: "client", random: &random)
    let server = RandomTextEdits.edited(lines, edits: edits, within: 0..<count, tag: "server", random: &random)
    let conflict = try Self.conflict(ancestor: lines.joined(), client: client.joined(), server: server.joined())
    var done = 0
    for _ in 0..<repeats {
      let resolved = try FieldMerge(.text(.line, overlap: .both)).resolve(conflict)
      done += resolved.changedKeys.isEmpty ? 0 : 1
    }
    return done
  }

  static func conflict(ancestor: String, client: String, server: String) throws -> Conflict {
    let id = try RecordID(recordName: "note")
    var base = Record(recordType: "Note", recordID: id)
    base["body"] = .string(ancestor)
    base.recordChangeTag = "t1"
    base.clearChangedKeys()
    var serverRecord = base
    serverRecord["body"] = .string(server)
    serverRecord.recordChangeTag = "t2"
    serverRecord.clearChangedKeys()
    var clientRecord = base
    clientRecord["body"] = .string(client)
    return Conflict(client: clientRecord, ancestor: base, server: serverRecord)
  }

  /// GNU `diff3 -m`, run as an app would run it.
  enum Diff3 {
    struct Output {
      var milliseconds: Double
      var conflicts: Int
      /// The merge with each conflict written as the server's lines, then the client's.
      var bothSides: String
    }

    static let path = Diff3Process.path

    static func run(ancestor: String, client: String, server: String, rounds: Int) throws -> Output {
      // diff3 MINE OLDER YOURS: the server's lines come first in a conflict, as in `overlap: .both`.
      let run = try Diff3Process.merge(mine: server, older: ancestor, yours: client, rounds: rounds)
      let (conflicts, both) = bothSides(run.output)
      return Output(milliseconds: run.milliseconds, conflicts: conflicts, bothSides: both)
    }

    /// `diff3 -m` output with each conflict block replaced by its first file's lines, then its third's.
    static func bothSides(_ output: String) -> (conflicts: Int, text: String) {
      var result = ""
      var conflicts = 0
      enum Part { case outside, mine, older, yours }
      var part = Part.outside
      var mine = ""
      var yours = ""
      for line in output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map({ $0 + "\n" }) {
        switch part {
        case .outside:
          if line.hasPrefix("<<<<<<< ") {
            part = .mine
            conflicts += 1
          } else {
            result += line
          }
        case .mine:
          if line.hasPrefix("||||||| ") {
            part = .older
          } else if line == "=======\n" {
            part = .yours
          } else {
            mine += line
          }
        case .older:
          if line == "=======\n" { part = .yours }
        case .yours:
          if line.hasPrefix(">>>>>>> ") {
            result += mine + yours
            mine = ""
            yours = ""
            part = .outside
          } else {
            yours += line
          }
        }
      }
      return (conflicts, result)
    }
  }
}

/// `.counter`, `.set` and `.orderedList` on a ten-field record whose merged key both sides changed, each timed in
/// alternating rounds with the floor (copy the server record, write one key), as the FieldMerge row is.
enum ListPolicyBenchmark {
  struct Row {
    var name: String
    var mergeNanoseconds: Double
    var floorNanoseconds: Double
  }

  static func run(iterations: Int, rounds: Int = 15, only: String? = nil) throws -> [Row] {
    let cases: [(String, String, FieldMerge.Policy, FieldValue, FieldValue, FieldValue)] = [
      (".counter", "plays", .counter, 5, 7, 6),
      (
        ".set(.addWins)", "tags", .set(.addWins), ["a", "b", "c", "d", "e"], ["a", "b", "c", "d", "e", "f"],
        ["a", "c", "d", "e"]
      ),
      (
        ".orderedList", "order", .orderedList, ["a", "b", "c", "d", "e"], ["a", "b", "x", "c", "d", "e"],
        ["b", "c", "d", "e", "a"]
      ),
    ]
    var rows: [Row] = []
    for (name, key, policy, ancestor, server, client) in cases where only.map(name.hasPrefix) ?? true {
      let conflict = try Self.conflict(key: key, ancestor: ancestor, server: server, client: client)
      let merge = FieldMerge(.server, overrides: [key: policy])
      var best = (merge: Double.infinity, floor: Double.infinity)
      for _ in 0..<rounds {
        let floor = nanosecondsPerCall(iterations: iterations, rounds: 1) { MergeBenchmark.floorCopy(conflict.server) }
        let merged = try nanosecondsPerCall(iterations: iterations, rounds: 1) {
          try merge.resolve(conflict).changedKeys.count
        }
        best = (min(best.merge, merged.ns), min(best.floor, floor.ns))
      }
      rows.append(Row(name: name, mergeNanoseconds: best.merge, floorNanoseconds: best.floor))
    }
    return rows
  }

  /// Ten fields: `key`, changed on both sides, and nine others, one changed on each side.
  static func conflict(key: String, ancestor: FieldValue, server: FieldValue, client: FieldValue) throws -> Conflict {
    let id = try RecordID(recordName: "bench-\(key)")
    var base = Record(recordType: "Item", recordID: id)
    for i in 0..<9 { base["field\(i)"] = i % 2 == 0 ? .string("value \(i)") : .int64(Int64(i)) }
    base[key] = ancestor
    base.recordChangeTag = "t1"
    base.clearChangedKeys()
    var serverRecord = base
    serverRecord[key] = server
    serverRecord["field0"] = "server"
    serverRecord.recordChangeTag = "t2"
    serverRecord.clearChangedKeys()
    var clientRecord = base
    clientRecord[key] = client
    clientRecord["field2"] = "client"
    return Conflict(client: clientRecord, ancestor: base, server: serverRecord)
  }
}

/// The text merge on the inputs that make a diff slow, beside `git merge-file` and GNU `diff3 -m` on the same files in
/// the same run:
/// lines with no unique one among them (a log, a table of repeated values), and prose merged character by character.
/// Growth is counted in instructions (callgrind) between a tenth of each input and the whole.
enum HardTextMergeBenchmark {
  struct Row {
    var input: String
    var granularity: FieldMerge.TextGranularity
    var bytes: Int
    var reconcileMilliseconds: Double
    var gitMilliseconds: Double
    /// `git merge-file` on three empty files: what starting it costs.
    var gitStartMilliseconds: Double
    var gitWorkMilliseconds: Double { max(0.001, gitMilliseconds - gitStartMilliseconds) }
    /// Instructions (callgrind) of one merge here, and of git's work (its run less its run on empty files); `nil`
    /// unless counted.
    var reconcileInstructions: Double?
    var gitInstructions: Double?
    /// `diff3 -m` on the same files: its time (process start included) and its instructions beyond its run on empty
    /// files.
    var diff3Milliseconds: Double
    var diff3Instructions: Double?
    /// Instructions here per instruction of git's work, when both were counted.
    var instructionRatio: Double? {
      guard let reconcileInstructions, let gitInstructions, gitInstructions > 0 else { return nil }
      return reconcileInstructions / gitInstructions
    }
  }

  enum Input: String, CaseIterable {
    /// Lines drawn from four values, about one in a hundred changed on each side.
    case repetitive
    /// Sentences of common words, about one word in a hundred changed on each side.
    case prose
  }

  /// The three texts of `input` at `scale` (lines for `.repetitive`, bytes for `.prose`).
  static func texts(_ input: Input, scale: Int) -> (ancestor: String, client: String, server: String) {
    var random = SeededRandom(seed: UInt64(scale) &* 7 &+ (input == .prose ? 1 : 0))
    switch input {
    case .repetitive:
      let values = ["0\n", "1\n", "2\n", "3\n"]
      let ancestor = (0..<scale).map { _ in values[Int.random(in: 0..<4, using: &random)] }
      func edited() -> String {
        var lines = ancestor
        for _ in 0..<max(1, scale / 100) {
          let at = Int.random(in: 0..<lines.count, using: &random)
          switch Int.random(in: 0..<3, using: &random) {
          case 0: lines[at] = values[Int.random(in: 0..<4, using: &random)]
          case 1: lines.remove(at: at)
          default: lines.insert(values[Int.random(in: 0..<4, using: &random)], at: at)
          }
        }
        return lines.joined()
      }
      return (ancestor.joined(), edited(), edited())
    case .prose:
      let words = [
        "the", "of", "and", "to", "a", "in", "that", "it", "was", "he", "for", "on", "are", "with", "as", "his",
        "they", "be", "at", "one", "have", "this", "from", "by", "hot", "word", "but", "what", "some", "is",
        "you", "or", "had", "water", "long", "little", "very", "after", "where", "through", "sentence", "great",
      ]
      var ancestor: [String] = []
      var size = 0
      while size < scale {
        let word = words[Int.random(in: 0..<words.count, using: &random)]
        let end = Int.random(in: 0..<12, using: &random) == 0 ? ".\n" : " "
        ancestor.append(word + end)
        size += word.utf8.count + end.utf8.count
      }
      func edited() -> String {
        var pieces = ancestor
        for _ in 0..<max(1, pieces.count / 100) {
          let at = Int.random(in: 0..<pieces.count, using: &random)
          pieces[at] = words[Int.random(in: 0..<words.count, using: &random)] + "s "
        }
        return pieces.joined()
      }
      return (ancestor.joined(), edited(), edited())
    }
  }

  /// The merge the rows time: `.both` keeps every edit.
  static func merge(
    _ texts: (ancestor: String, client: String, server: String), _ granularity: FieldMerge.TextGranularity
  )
    throws -> Int
  {
    let conflict = try TextMergeBenchmark.conflict(ancestor: texts.ancestor, client: texts.client, server: texts.server)
    let resolved = try FieldMerge(.text(granularity, overlap: .both)).resolve(conflict)
    return resolved["body"]?.stringValue?.utf8.count ?? 0
  }

  static func run(quick: Bool, countsInstructions: Bool) throws -> [Row] {
    let start = try GitMergeFile.run(ancestor: "", client: "", server: "", rounds: quick ? 1 : 5)
    var rows: [Row] = []
    let cases: [(Input, Int, [FieldMerge.TextGranularity])] = [
      (.repetitive, 40_000, [.line]), (.prose, 100_000, [.line, .word, .character]),
    ]
    for (input, scale, granularities) in cases {
      let texts = Self.texts(input, scale: scale)
      let git = try GitMergeFile.run(
        ancestor: texts.ancestor, client: texts.client, server: texts.server, rounds: quick ? 1 : 3)
      let gitInstructions = countsInstructions ? try GitMergeFile.instructions(texts) : nil
      let diff3 = try Diff3Process.merge(
        mine: texts.server, older: texts.ancestor, yours: texts.client, rounds: quick ? 1 : 3
      ).milliseconds
      let diff3Instructions = countsInstructions ? try Self.diff3Instructions(texts) : nil
      for granularity in granularities {
        var best = Double.infinity
        for _ in 0..<(quick ? 1 : 3) {
          let began = DispatchTime.now().uptimeNanoseconds
          _ = try merge(texts, granularity)
          best = min(best, Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
        }
        rows.append(
          Row(
            input: "\(input.rawValue) (\(scale.formatted()) \(input == .repetitive ? "lines" : "bytes"))",
            granularity: granularity, bytes: texts.ancestor.utf8.count, reconcileMilliseconds: best,
            gitMilliseconds: git, gitStartMilliseconds: start,
            reconcileInstructions: countsInstructions ? instructions(input, scale: scale, granularity) : nil,
            gitInstructions: gitInstructions, diff3Milliseconds: diff3, diff3Instructions: diff3Instructions))
      }
    }
    return rows
  }

  /// Instructions `diff3 -m` spends merging `texts` beyond merging three empty files (callgrind).
  static func diff3Instructions(_ texts: (ancestor: String, client: String, server: String)) throws -> Double? {
    let files = [("server", texts.server), ("ancestor", texts.ancestor), ("client", texts.client), ("empty", "")]
    return try MergeToolProcess.withFiles(files.map { (name: $0.0, bytes: Data($0.1.utf8)) }) { paths in
      Callgrind.instructions(
        of: Diff3Process.path, ["-m", paths[0], paths[1], paths[2]], beyond: ["-m", paths[3], paths[3], paths[3]])
    }
  }

  /// Instructions one merge of `input` at `scale` costs here (callgrind, the benchmark's own `hard-text-merge-work`).
  static func instructions(_ input: Input, scale: Int, _ granularity: FieldMerge.TextGranularity) -> Double? {
    Callgrind.instructionsPerRepeat(
      section: "hard-text-merge-work",
      environment: [
        "HARD_TEXT_INPUT": input.rawValue, "HARD_TEXT_SCALE": String(scale),
        "HARD_TEXT_GRANULARITY": granularity.rawValue,
      ], repeats: 2)
  }

  /// What callgrind counts: REPEATS merges of `input` at `scale`, by `granularity`.
  static func instructionWorkload(_ input: Input, scale: Int, granularity: FieldMerge.TextGranularity, repeats: Int)
    throws -> Int
  {
    let texts = Self.texts(input, scale: scale)
    var done = 0
    for _ in 0..<repeats { done += try merge(texts, granularity) > 0 ? 1 : 0 }
    return done
  }

  /// `git merge-file -p`, run as an app would run a tool, best of `rounds`, in milliseconds.
  enum GitMergeFile {
    static func run(ancestor: String, client: String, server: String, rounds: Int) throws -> Double {
      try GitMergeFileProcess.merge(
        ancestor: Data(ancestor.utf8), client: Data(client.utf8), server: Data(server.utf8), rounds: rounds
      ).milliseconds
    }

    /// Instructions git spends merging `texts` beyond merging three empty files (callgrind).
    static func instructions(_ texts: (ancestor: String, client: String, server: String)) throws -> Double? {
      guard let git = GitMergeFileProcess.path else { return nil }
      let files = [("server", texts.server), ("ancestor", texts.ancestor), ("client", texts.client), ("empty", "")]
      return try MergeToolProcess.withFiles(files.map { (name: $0.0, bytes: Data($0.1.utf8)) }) { paths in
        Callgrind.instructions(
          of: git, ["merge-file", "-p", paths[0], paths[1], paths[2]],
          beyond: ["merge-file", "-p", paths[3], paths[3], paths[3]])
      }
    }
  }
}
