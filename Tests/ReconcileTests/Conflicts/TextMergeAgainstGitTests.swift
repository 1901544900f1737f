import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// The line merge held to `git merge-file` on texts built to be hard: lines drawn from a few values (so runs of equal
/// lines, and both sides writing the same lines, are common), Windows line endings, texts without a final line break.
/// Wherever git merges cleanly, the merge is clean (its result does not depend on which side an overlap favours) and
/// equal to git's byte for byte.
@Suite("FieldMerge .text against git merge-file")
struct TextMergeAgainstGitTests {
  /// The three texts of one seed.
  static func texts(seed: UInt64) -> (ancestor: Data, client: Data, server: Data) {
    var random = SeededRandom(seed: seed)
    let alphabet = ["a", "b", "c", "x", "y", "", "milk", "eggs"]
    let width = Int.random(in: 2...alphabet.count, using: &random)
    func line() -> String { alphabet[Int.random(in: 0..<width, using: &random)] }
    let ancestor = (0..<Int.random(in: 0...14, using: &random)).map { _ in line() }
    func edited() -> [String] {
      var lines = ancestor
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let position = Int.random(in: 0...lines.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0 where position < lines.count: lines[position] = line()
        case 1 where position < lines.count: lines.remove(at: position)
        default: lines.insert(line(), at: position)
        }
      }
      return lines
    }
    let (client, server) = (edited(), edited())
    let ending = seed % 3 == 0 ? "\r\n" : "\n"
    // A text of a seed whose fifth bit is set may end without a final line break.
    func join(_ lines: [String]) -> Data {
      let text = lines.map { $0 + ending }.joined()
      let drop = seed & 16 != 0 && Bool.random(using: &random) && !lines.isEmpty
      return Data((drop ? String(text.dropLast(ending.count)) : text).utf8)
    }
    return (join(ancestor), join(client), join(server))
  }

  static func merge(_ texts: (ancestor: Data, client: Data, server: Data), _ overlap: FieldMerge.TextOverlap) throws
    -> Data
  {
    let row = MergeCase(
      name: "", ancestor: .values(["body": .bytes(texts.ancestor)]), server: ["body": .bytes(texts.server)],
      client: ["body": .bytes(texts.client)], policy: .text(.line, overlap: overlap), expected: [:],
      expectedChanged: [])
    let resolved = try FieldMerge(.text(.line, overlap: overlap)).resolve(try row.conflict(encrypted: false))
    guard case .bytes(let merged)? = resolved["body"] else { return Data() }
    return merged
  }

  @Test("wherever git merges cleanly, the line merge is clean and equal to git's byte for byte (seeded budget)")
  func cleanWhereGitIsClean() throws {
    guard GitMergeFileProcess.path != nil else {
      Issue.record("\(GitMergeFileProcess.Missing())")
      return
    }
    let budget = SweepBudget(unit: (600, 0), quick: (4_000, 0), full: (40_000, 0))
    var gitClean = 0
    var cleanOnlyHere = 0
    var sameMarkers = 0
    var gitConflicted = 0
    var failures = 0
    var firstFailure = ""
    for seed in budget.seeds {
      let texts = Self.texts(seed: seed)
      let git = try GitMergeFileProcess.merge(ancestor: texts.ancestor, client: texts.client, server: texts.server)
      let keepingServer = try Self.merge(texts, .server)
      let keepingClient = try Self.merge(texts, .client)
      guard git.conflicts == 0 else {
        if keepingServer == keepingClient { cleanOnlyHere += 1 }
        // Where git leaves conflicts, conflict markers are written as git writes them.
        let markers = try Self.merge(texts, .markers)
        if markers == git.merged { sameMarkers += 1 }
        gitConflicted += 1
        continue
      }
      gitClean += 1
      guard keepingServer == keepingClient, keepingServer == git.merged else {
        failures += 1
        let replay = TestSeeds.replay(seed, test: "TextMergeAgainstGitTests")
        if firstFailure.isEmpty { firstFailure = "seed \(seed)" }
        Issue.record(
          """
          \(keepingServer == keepingClient ? "the merges differ" : "git merged cleanly, Reconcile met an overlap"); \
          \(replay)
          ancestor \(String(decoding: texts.ancestor, as: UTF8.self).debugDescription)
          client   \(String(decoding: texts.client, as: UTF8.self).debugDescription)
          server   \(String(decoding: texts.server, as: UTF8.self).debugDescription)
          git      \(String(decoding: git.merged, as: UTF8.self).debugDescription)
          here     \(String(decoding: keepingServer, as: UTF8.self).debugDescription)
          """)
        if failures >= 5 { break }
        continue
      }
    }
    #expect(gitClean >= budget.seeds.count / 4, "only \(gitClean) seeds gave git a clean merge: too little judged")
    print("text merge against git merge-file: markers byte-identical to git's in \(sameMarkers) of \(gitConflicted)")
    budget.report(
      "text merge against git merge-file", failures: failures,
      detail: "\(gitClean) clean in git, \(cleanOnlyHere) clean only here \(firstFailure)")
  }
}
