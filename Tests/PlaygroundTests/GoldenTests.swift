import Foundation
import Testing

/// Runs the built `reconcile-playground` binary and compares its output and exit status with the files in `Golden/`.
/// To update a golden file after an intended change, run the command it names and save the output.
@Suite("Playground golden output (the built executable)")
struct GoldenTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The binary beside the test bundle, else the package's debug build.
  static func executable() throws -> URL {
    let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("reconcile-playground")
    let candidates = [
      besideTests, besideTests.deletingLastPathComponent().appendingPathComponent("reconcile-playground"),
      repository.appendingPathComponent(".build/debug/reconcile-playground"),
    ]
    return try #require(
      candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
      "reconcile-playground not built; looked in \(candidates.map(\.path))")
  }

  /// Runs the executable; `output` is standard output followed by standard error (in these cases errors come last).
  static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let (status, standardOutput, standardError) = try runSeparately(arguments)
    return (status, standardOutput + standardError)
  }

  static func runSeparately(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = try executable()
    process.arguments = arguments
    process.currentDirectoryURL = repository
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let pipe = Pipe()
    let errorPipe = Pipe()
    process.standardOutput = pipe
    process.standardError = errorPipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    let errors = errorPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self), String(decoding: errors, as: UTF8.self))
  }

  @Test("the executable writes a usage error to standard error only, and exits 2")
  func usageErrorGoesToStandardError() throws {
    let (status, output, errors) = try Self.runSeparately(["simulate", "--sede", "3"])
    #expect(status == 2)
    #expect(output.isEmpty)
    #expect(errors.contains("error: unknown option --sede; did you mean --seed?"))
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var golden: String
    var status: Int32
    var testDescription: String { "reconcile-playground " + arguments.joined(separator: " ") }
  }

  @Test(
    "the executable prints the golden output and exits as recorded",
    arguments: [
      Case(
        arguments: ["replay", "Playground/Scripts/server-lww-loses-one-sided-edit.rcp"],
        golden: "replay-server-lww-loses-one-sided-edit.txt", status: 1),
      Case(arguments: ["demo"], golden: "demo.txt", status: 0),
      Case(arguments: ["run", "Playground/Scripts/tour.rcp"], golden: "run-tour.txt", status: 0),
      Case(
        arguments: ["run", "Playground/Scenarios/01-queued-edits.rcp", "--resolver", "server-lww"],
        golden: "run-01-queued-edits-server-lww.txt", status: 0),
      Case(
        arguments: ["run", "Tests/PlaygroundTests/Golden/failing-expect.rcp"], golden: "run-failing-expect.txt",
        status: 1),
      Case(
        arguments: ["simulate", "--seed", "7", "--steps", "60", "--resolver", "edit-count", "--faults", "hostile"],
        golden: "simulate-seed-7-edit-count-hostile.txt", status: 0),
    ])
  func golden(_ testCase: Case) throws {
    let (status, output) = try Self.run(testCase.arguments)
    let expected = try String(
      contentsOf: Self.repository.appendingPathComponent("Tests/PlaygroundTests/Golden/\(testCase.golden)"),
      encoding: .utf8)
    #expect(status == testCase.status)
    #expect(output == expected, "golden file \(testCase.golden) differs; actual output:\n\(output)")
  }
}

@Suite("Playground output quoted in the docs")
struct QuotedOutputTests {
  /// The first ```text block after `heading` in the file at `path`.
  static func firstTextBlock(in path: String, after heading: String) throws -> String {
    let text = try String(contentsOf: GoldenTests.repository.appendingPathComponent(path), encoding: .utf8)
    let section = try #require(text.range(of: heading), "\(path) has no \(heading)")
    let start = try #require(text.range(of: "```text\n", range: section.upperBound..<text.endIndex))
    let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
    return String(text[start.upperBound..<end.lowerBound])
  }

  @Test("the README's playground lines run in the REPL as printed, every expect holding")
  func readmeLinesRun() throws {
    let block = try Self.firstTextBlock(in: "README.md", after: "same lines, one world at a time:")
    let lines = block.split(separator: "\n").map(String.init)
    #expect(lines.count > 10)
    let result = ReplWorldTests.repl(lines)
    #expect(result.status == 0, "\(result.text)")
    #expect(result.text.contains("invariants held"), "\(result.text)")
  }

  @Test(
    "the playground guide quotes the demo exactly as it prints",
    arguments: [("Docs/ReconcileSimulator.docc/Articles/ThePlayground.md", "### The demo")])
  func demoQuotes(_ path: String, _ heading: String) throws {
    let quoted = try Self.firstTextBlock(in: path, after: heading)
    let golden = try String(
      contentsOf: GoldenTests.repository.appendingPathComponent("Tests/PlaygroundTests/Golden/demo.txt"),
      encoding: .utf8)
    for block in quoted.components(separatedBy: "\n\n") {
      #expect(golden.contains(block), "\(path) quotes demo output that the demo does not print:\n\(block)")
    }
  }
}
