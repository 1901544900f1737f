import Foundation
import Testing

/// The CKSyncEngine article quotes the code the tests run: each of its Swift blocks is a `// snippet:` region of the
/// delegate, the simulator wrapper or the app example (indentation removed), and every region is quoted.
@Suite("The CKSyncEngine article quotes the code the tests run")
struct SyncEngineArticleSnippetTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let article = "Docs/Reconcile.docc/Articles/UsingReconcileWithCKSyncEngine.md"
  static let sources = [
    "Tests/ReconcileSimulatorTests/SyncEngine/NotesSyncDelegate.swift",
    "Tests/ReconcileSimulatorTests/SyncEngine/SyncEngineArticleTests.swift",
    "Tests/CloudKitStandIn/Examples/SyncEngineExample.swift",
    "Tests/ReconcileSimulatorTests/SyncEngine/TwoWriteDelegate.swift",
  ]

  /// The `// snippet: name` … `// end snippet` regions of `text`, each without its common indentation.
  static func snippets(in text: String) -> [String: String] {
    var result: [String: String] = [:]
    var name: String?
    var lines: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("// snippet: ") {
        name = String(trimmed.dropFirst("// snippet: ".count))
        lines = []
      } else if trimmed == "// end snippet", let current = name {
        let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        result[current] = lines.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
        name = nil
      } else if name != nil {
        lines.append(line)
      }
    }
    return result
  }

  /// The bodies of the ```swift blocks of a Markdown text.
  static func swiftBlocks(in text: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if let body = current, line == "```" {
        blocks.append(body.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  static func read(_ path: String) throws -> String {
    try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
  }

  @Test("every Swift block of the article is a snippet of the tested code, and every snippet is in the article")
  func articleMatchesCode() throws {
    var snippets: [String: String] = [:]
    for source in Self.sources { snippets.merge(Self.snippets(in: try Self.read(source))) { a, _ in a } }
    #expect(snippets.count >= 5, "\(snippets.keys.sorted())")
    let blocks = Self.swiftBlocks(in: try Self.read(Self.article))
    for block in blocks {
      #expect(snippets.values.contains(block), "the article quotes code no test runs:\n\(block)")
    }
    for (name, body) in snippets.sorted(by: { $0.key < $1.key }) {
      #expect(blocks.contains(body), "snippet '\(name)' is not quoted as it stands in the article")
    }
  }

  @Test("the snippet check fails on a changed line")
  func snippetCheckFails() {
    let code = "struct A {\n  // snippet: x\n  let a = 1\n  // end snippet\n}"
    let snippets = Self.snippets(in: code)
    #expect(snippets == ["x": "let a = 1"])
    #expect(Self.swiftBlocks(in: "text\n```swift\nlet a = 2\n```\n") == ["let a = 2"])
    #expect(!snippets.values.contains("let a = 2"))
  }
}
