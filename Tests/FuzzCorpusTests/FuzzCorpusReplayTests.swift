import Foundation
import ReconcileFuzzing
import Testing

/// Replays every committed fuzz input through its target's checks, without a sanitizer: an input that ever crashed
/// (kept in `Fuzz/Regressions`) or that the fuzzer found interesting (kept in `Fuzz/Corpus`) must pass in every run.
@Suite("Fuzz corpora replay")
struct FuzzCorpusReplayTests {
  static let fuzzFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz")

  /// The files in `Fuzz/KIND/TARGET`, sorted by name; none when the folder does not exist.
  static func inputs(_ kind: String, _ target: FuzzTarget) throws -> [URL] {
    let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
    guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
    return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
      .filter { !$0.lastPathComponent.hasPrefix(".") }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  @Test("every committed corpus input passes its target's checks", arguments: FuzzTarget.allCases)
  func corpus(_ target: FuzzTarget) throws {
    let files = try Self.inputs("Corpus", target)
    #expect(files.count >= 5, "the seed corpus for \(target) is missing or thin: \(files.count) files")
    try replay(files, target)
  }

  @Test("every input that once crashed now passes", arguments: FuzzTarget.allCases)
  func regressions(_ target: FuzzTarget) throws {
    try replay(try Self.inputs("Regressions", target), target)
  }

  private func replay(_ files: [URL], _ target: FuzzTarget) throws {
    for file in files {
      let data = try Data(contentsOf: file)
      do {
        try target.check(data)
      } catch {
        Issue.record(
          "\(target) input \(file.lastPathComponent): \(error). Replay under the sanitizer with Scripts/fuzz.sh \(target) --replay \(file.path)"
        )
      }
    }
  }
}
