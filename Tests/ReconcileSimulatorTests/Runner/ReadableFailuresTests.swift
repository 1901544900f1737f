import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// What a user's own test prints when a run or a report fails: a few lines and the script, once.
@Suite("Readable failures: results and reports describe themselves in a few lines")
struct ReadableFailuresTests {
  static var broken: SimulationConfiguration {
    var configuration = SimulationConfiguration(steps: 30, resolver: .fieldMerge, faults: .flaky)
    configuration.defects = [.dropEditsDuringSave]
    return configuration
  }

  @Test("a passing run says so in one line: verdicts, records judged and set aside")
  func passingRunIsOneLine() {
    var simulation = Simulation(seed: 3, configuration: SimulationConfiguration(steps: 40, resolver: .fieldMerge))
    let result = simulation.run()
    #expect(result.passed)
    let text = "\(result)"
    #expect(!text.contains("\n"))
    #expect(text.hasPrefix("seed 3 passed: "))
    #expect(text.contains("invariants held") && text.contains("records judged"))
  }

  @Test("a failing run names each violation and prints the script that replays it, with how to replay it")
  func failingRunShowsItsScript() throws {
    let report = PropertyRunner(configuration: Self.broken, seeds: 0..<20).run()
    let failure = try #require(report.failures.first)
    let text = "\(failure.result)"
    #expect(text.hasPrefix("seed \(failure.seed ?? 0) FAILED: 1 violation"))
    #expect(text.contains("  \(failure.violation)"))
    #expect(text.contains("PlaygroundCommand.main(clients:resolvers:)"))
    for line in failure.result.script.split(separator: "\n") { #expect(text.contains("    " + line)) }
    let scriptLines = failure.result.script.split(separator: "\n").count
    #expect(text.split(separator: "\n").count == scriptLines + 3)
    #expect(!(try Simulation.replay(failure.result.script)).passed)
  }

  @Test("a shrunk script judges every invariant the run judged, and names them only when the user narrowed them")
  func shrunkScriptJudgesWhatTheRunJudged() throws {
    let failure = try #require(PropertyRunner(configuration: Self.broken, seeds: 0..<20).run().failures.first)
    #expect(!failure.script.contains("\ninvariants "), "the resolver's invariants, all of them:\n\(failure.script)")
    var narrowed = Self.broken
    narrowed.invariants = [.oneSidedChangesKept, .convergence]
    let chosen = try #require(PropertyRunner(configuration: narrowed, seeds: 0..<20).run().failures.first)
    #expect(chosen.script.contains("\ninvariants convergence oneSidedChangesKept\n"), "\(chosen.script)")
  }

  @Test("a report is its summary line and, per failure, two lines and the shrunk script: no trace, no coverage")
  func reportIsShort() throws {
    let report = PropertyRunner(configuration: Self.broken, seeds: 0..<20).run()
    let failure = try #require(report.failures.first)
    let lines = "\(report)".split(separator: "\n")
    #expect(lines.first?.contains("1 failed") == true)
    let scriptLines = report.failures.map { $0.script.split(separator: "\n").count }.reduce(0, +)
    #expect(lines.count == 1 + 2 * report.failures.count + scriptLines)
    #expect(!"\(report)".contains("Minimal trace") && !"\(report)".contains("runs reaching"))
    #expect("\(failure)".contains("Minimal trace:"), "the full trace stays in each failure's own description")
  }
}
