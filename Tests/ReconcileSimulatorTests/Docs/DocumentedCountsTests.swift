import Foundation
import ReconcileSimulator
import Testing

/// The counts and lists the docs state about the simulator, checked against the code, so a release that adds a zoo
/// defect, an invariant or a fault kind cannot leave the docs behind.
@Suite("The docs' counts and lists match the code")
struct DocumentedCountsTests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func text(_ path: String) throws -> String {
    try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
  }

  static let ownEngine = "Docs/ReconcileSimulator.docc/Articles/TestingYourOwnSyncEngine.md"
  static let syncLogic = "Docs/ReconcileSimulator.docc/Articles/TestingYourSyncLogic.md"

  /// Every number written before `phrase` in `text` (as in "28 classic sync-engine bugs").
  static func counts(before phrase: String, in text: String) -> [Int] {
    text.ranges(of: phrase).compactMap { range in
      let before = text[..<range.lowerBound].reversed().drop { $0 == " " }
      let digits = String(before.prefix { $0.isNumber || $0 == "," }.reversed()).replacingOccurrences(of: ",", with: "")
      return Int(digits)
    }
  }

  @Test("every count of zoo defects in the README and the articles is the number of ClientDefect cases")
  func zooCounts() throws {
    for path in ["README.md", Self.ownEngine] {
      let found = Self.counts(before: "classic sync-engine bugs", in: try Self.text(path))
      #expect(!found.isEmpty, "\(path) no longer states the zoo's size; update this test with it")
      for count in found {
        #expect(
          count == ClientDefect.allCases.count,
          "\(path) says \(count) defects; there are \(ClientDefect.allCases.count)")
      }
    }
    let core = ClientDefect.allCases.filter(\.removesCoreRule).count
    for path in ["README.md", Self.ownEngine] {
      let found = Self.counts(before: "of them", in: try Self.text(path))
      #expect(!found.isEmpty, "\(path) no longer states how many defects remove a rule of the sync core")
      for count in found {
        #expect(count == core, "\(path) says \(count) defects remove a rule of the sync core; \(core) do")
      }
    }
  }

  @Test("the zoo table of Testing your own sync engine has a row for every defect")
  func zooTable() throws {
    let rows = try Self.text(Self.ownEngine).split(separator: "\n").filter { $0.hasPrefix("| ") }
    for defect in ClientDefect.allCases {
      #expect(
        rows.contains { $0.contains("(`\(defect.rawValue)`") }, "the article's zoo table lacks \(defect.rawValue)")
    }
  }

  /// The seed that first caught a zoo entry (counted from 1) and its shrunk steps, from its committed script's header.
  static func caught(_ script: String) -> String? {
    guard let range = script.range(of: #"caught at seed (\d+) and shrunk to (\d+) steps"#, options: .regularExpression)
    else { return nil }
    let numbers = script[range].split(separator: " ").compactMap { Int($0) }
    guard numbers.count == 2 else { return nil }
    return "\(numbers[0] + 1) | \(numbers[1])"
  }

  @Test("the zoo table's seeds and shrunk steps are the ones the committed scripts were found at")
  func zooTableMatchesScripts() throws {
    let rows = try Self.text(Self.ownEngine).split(separator: "\n").filter { $0.hasPrefix("| ") }
    for defect in ClientDefect.allCases {
      let row = try #require(rows.first { $0.contains("(`\(defect.rawValue)`") }.map(String.init))
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let reference = try #require(Self.caught(try ZooScripts.script(defect.rawValue)))
      #expect(
        cells.count >= 5 && "\(cells[2]) | \(cells[3])" == reference,
        "\(defect.rawValue): the table says \(cells.dropFirst(2).prefix(2)), Tests/Zoo says \(reference)")
      guard cells.count >= 5,
        FileManager.default.fileExists(
          atPath: ZooScripts.folder.appendingPathComponent("sync-core-\(defect.rawValue).rcp").path)
      else { continue }
      let core = try #require(Self.caught(try ZooScripts.script("sync-core-" + defect.rawValue)))
      #expect(
        cells[4] == core.replacingOccurrences(of: " | ", with: ", "),
        "\(defect.rawValue) in the sync core: the table says \(cells[4]), Tests/Zoo says \(core)")
    }
  }

  @Test("the README fits on a page or two: at most 15 KB, the rest in the DocC articles")
  func readmeSize() throws {
    let bytes = try Self.text("README.md").utf8.count
    #expect(bytes <= 15_000, "the README is \(bytes) bytes; move detail into an article")
  }

  @Test("the invariant table of Testing your sync logic lists every invariant")
  func invariantTable() throws {
    let article = try Self.text(Self.syncLogic)
    for invariant in Invariant.allCases {
      #expect(article.contains("| ``Invariant/\(invariant.rawValue)`` |"), "the table lacks \(invariant.rawValue)")
    }
  }

  @Test("what the simulated engine does not reproduce does not deny what it does")
  func limitsAreCurrent() throws {
    let article = try Self.text(Self.ownEngine)
    // Devices sign out, switch accounts and come back under hostile and swarm; the engine reports each change.
    #expect(FaultKind.allCases.contains(.accountChange))
    #expect(!article.contains("no `accountChange` events"), "the article says the engine never changes accounts")
  }
}
