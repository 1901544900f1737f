import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// The line merge on real merges: file triples from two-parent merge commits of public repositories, named in
/// `Tests/MergeCorpus/manifest.tsv` (`Scripts/merge-corpus.sh` builds it and clones the repositories). It runs where
/// `RECONCILE_MERGE_CORPUS` names a directory of the clones (the deep sweep passes it on), and holds the contract:
/// wherever git merges a triple cleanly, the merge is clean and byte-identical to git's; never an overlap where git is
/// clean; no more conflicts than git leaves.
@Suite("FieldMerge .text on a corpus of real merges")
struct TextMergeCorpusTests {
  struct Triple {
    var repository: String
    var merge: String
    var base: String
    var ours: String
    var theirs: String
    var path: String
  }

  static let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("MergeCorpus/manifest.tsv")

  static func triples() throws -> [Triple] {
    try String(contentsOf: manifest, encoding: .utf8).split(separator: "\n").dropFirst().compactMap { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 6 else { return nil }
      return Triple(
        repository: fields[0], merge: fields[1], base: fields[2], ours: fields[3], theirs: fields[4], path: fields[5])
    }
  }

  /// The git directory of `repository` in `directory`: `OWNER+NAME.git` or `OWNER+NAME/repo`.
  static func gitDirectory(_ repository: String, in directory: URL) -> URL? {
    let name = repository.replacingOccurrences(of: "/", with: "+")
    return [directory.appendingPathComponent("\(name).git"), directory.appendingPathComponent("\(name)/repo")]
      .first { FileManager.default.fileExists(atPath: $0.path) }
  }

  static func blob(_ revision: String, _ path: String, in gitDirectory: URL) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: GitMergeFileProcess.path ?? "/usr/bin/git")
    process.arguments = ["--git-dir=\(gitDirectory.path)", "cat-file", "blob", "\(revision):\(path)"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
  }

  static func merge(ancestor: Data, ours: Data, theirs: Data, _ overlap: FieldMerge.TextOverlap) throws -> Data {
    let row = MergeCase(
      name: "", ancestor: .values(["body": .bytes(ancestor)]), server: ["body": .bytes(ours)],
      client: ["body": .bytes(theirs)], policy: .text(.line, overlap: overlap), expected: [:], expectedChanged: [])
    let resolved = try FieldMerge(.text(.line, overlap: overlap)).resolve(try row.conflict(encrypted: false))
    guard case .bytes(let merged)? = resolved["body"] else { return Data() }
    return merged
  }

  /// How many conflict blocks a merge written with markers holds.
  static func conflicts(_ merged: Data) -> Int {
    var count = 0
    var atLineStart = true
    let marker = Array("<<<<<<< ".utf8)
    let bytes = [UInt8](merged)
    for index in bytes.indices {
      if atLineStart, bytes[index...].starts(with: marker) { count += 1 }
      atLineStart = bytes[index] == 0x0A
    }
    return count
  }

  @Test("wherever git merges a real triple cleanly, the line merge is clean and byte-identical to git's")
  func corpusContract() throws {
    let triples = try Self.triples()
    let budget = SweepBudget(
      unit: (UInt64(triples.count), 0), quick: (UInt64(triples.count), 0), full: (UInt64(triples.count), 0))
    guard let root = ProcessInfo.processInfo.environment["RECONCILE_MERGE_CORPUS"] else {
      print(
        "sweep\ttext merge corpus (real merges)\t\(SweepDepth.current.rawValue)\t\(triples.count) triples\tnot run\t"
          + "RECONCILE_MERGE_CORPUS unset: Scripts/merge-corpus.sh clone DIR, then set it to DIR")
      return
    }
    #expect(triples.count >= 1_000, "the manifest names \(triples.count) triples")
    let directory = URL(fileURLWithPath: root)
    var counts = (
      triples: 0, gitClean: 0, clean: 0, identical: 0, overlapWhereGitClean: 0, gitConflicts: 0,
      conflicts: 0, moreConflicts: 0, sameMarkers: 0, gitConflicted: 0
    )
    var failures: [String] = []
    for (index, triple) in triples.enumerated() where budget.seeds.contains(UInt64(index)) {
      guard let git = Self.gitDirectory(triple.repository, in: directory) else {
        Issue.record("\(triple.repository) is not cloned in \(root)")
        return
      }
      let ancestor = try Self.blob(triple.base, triple.path, in: git)
      let ours = try Self.blob(triple.ours, triple.path, in: git)
      let theirs = try Self.blob(triple.theirs, triple.path, in: git)
      let reference = try GitMergeFileProcess.merge(ancestor: ancestor, client: theirs, server: ours)
      let keepingOurs = try Self.merge(ancestor: ancestor, ours: ours, theirs: theirs, .server)
      let keepingTheirs = try Self.merge(ancestor: ancestor, ours: ours, theirs: theirs, .client)
      let markers = try Self.merge(ancestor: ancestor, ours: ours, theirs: theirs, .markers)
      let clean = keepingOurs == keepingTheirs
      let conflicts = clean ? 0 : Self.conflicts(markers)
      counts.triples += 1
      counts.clean += clean ? 1 : 0
      counts.gitConflicts += reference.conflicts
      counts.conflicts += conflicts
      let name = "\(triple.repository) \(triple.merge.prefix(10)) \(triple.path) (index \(index))"
      if reference.conflicts == 0 {
        counts.gitClean += 1
        if !clean {
          counts.overlapWhereGitClean += 1
          failures.append("an overlap where git is clean: \(name)")
        } else if keepingOurs == reference.merged {
          counts.identical += 1
        } else {
          failures.append("clean in both, different bytes: \(name)")
        }
      } else {
        counts.gitConflicted += 1
        if markers == reference.merged { counts.sameMarkers += 1 }
        if conflicts > reference.conflicts {
          counts.moreConflicts += 1
          failures.append("\(conflicts) conflicts where git leaves \(reference.conflicts): \(name)")
        }
      }
    }
    for failure in failures.prefix(10) { Issue.record(Comment(rawValue: failure)) }
    print(
      """
      corpus: triples \(counts.triples), clean in git \(counts.gitClean), clean here \(counts.clean), \
      byte-identical where git is clean \(counts.identical), overlaps where git is clean \
      \(counts.overlapWhereGitClean), conflicts here \(counts.conflicts) against git's \(counts.gitConflicts) \
      (more than git's in \(counts.moreConflicts) triples), markers byte-identical to git's in \(counts.sameMarkers) of \
      \(counts.gitConflicted) conflicted triples
      """)
    budget.report(
      "text merge corpus (real merges)", failures: failures.count,
      detail:
        "\(counts.gitClean) clean in git, \(counts.identical) byte-identical, \(counts.moreConflicts) with more conflicts"
    )
  }
}
