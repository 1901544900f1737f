import Foundation
import ReconcileSimulator
import Testing

/// Every counterexample a fix answered, kept as a script in `Tests/Regressions`: a file per behaviour it pins, named
/// by that behaviour, whose first comment lines say what it pins and where it was found. Each replays with every
/// invariant held; adding a regression is adding a file. Scripts may name the test target's own clients (the
/// CKSyncEngine article's `notes`) beside the built-in ones.
@Suite("Regression scripts: each counterexample a fix answered replays with every invariant held")
struct RegressionScriptTests {
  /// One script of `Tests/Regressions`.
  struct Regression: Sendable, CustomTestStringConvertible {
    var file: String
    var text: String
    var testDescription: String { file }

    /// The comment lines at the top: what the script pins and where it came from.
    var header: [String] { text.split(separator: "\n").prefix { $0.hasPrefix("#") }.map(String.init) }
  }

  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Regressions")

  static let regressions: [Regression] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return files.filter { $0.hasSuffix(".rcp") }.sorted().map { file in
      Regression(
        file: file,
        text: (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? "")
    }
  }()

  /// The clients the test target adds to the built-in ones.
  static let clients: [ClientUnderTest] = [.notes]

  @Test("the folder holds the regressions, each saying what it pins and where it was found")
  func folderIsWhole() {
    #expect(Self.regressions.count >= 135, "\(Self.folder.path) holds \(Self.regressions.count) scripts")
    for regression in Self.regressions {
      #expect(regression.header.count >= 2, "\(regression.file): say what it pins, then its origin")
      #expect(
        regression.header.contains { $0.hasPrefix("# origin:") }, "\(regression.file): no '# origin:' line")
    }
  }

  @Test("each regression replays with every invariant held", arguments: regressions)
  func replaysHeld(_ regression: Regression) throws {
    let result = try Simulation.replay(regression.text, clients: Self.clients)
    #expect(
      result.passed,
      "\(regression.file): \(result.violations)\nreplay it: swift test --filter RegressionScriptTests/replaysHeld")
  }
}
