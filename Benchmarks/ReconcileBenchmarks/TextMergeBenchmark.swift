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
