import Foundation
import Reconcile
import ReconcileSimulator
import Testing

@Suite("Simulation session: a replay script one line at a time")
struct SimulationSessionTests {
  @Test("each step answers with the trace it caused; expect invariants judges the run so far")
  func stepsAnswerWithTheirTrace() throws {
    var session = SimulationSession()
    #expect(try session.execute("resolver field-merge").lines.isEmpty)
    #expect(try session.execute("device add d1").lines.isEmpty)
    #expect(!session.hasStarted)
    let created = try session.execute("d1 create Note/r1 title=\"a\"")
    #expect(created.lines.first == "1 d1 create Note/r1 title=\"a\"")
    #expect(session.hasStarted)
    let synced = try session.execute("d1 sync")
    #expect(synced.lines.contains { $0.contains("d1: created zone Notes") }, "\(synced.lines)")
    let quiet = try session.execute("quiesce")
    #expect(quiet.lines.contains { $0.contains("d1: saved r1 → t1") }, "\(quiet.lines)")
    let judged = try session.execute("expect invariants")
    #expect(judged.violations.isEmpty)
    #expect(judged.lines == ["invariants held"])
  }

  @Test("a header after the first step, and a bad line, are refused naming the session's line")
  func refusals() throws {
    var session = SimulationSession()
    _ = try session.execute("device add d1")
    _ = try session.execute("# a comment")
    _ = try session.execute("d1 sync")
    #expect(throws: SimulationScript.ParseError.self) { _ = try session.execute("device add d2") }
    do {
      _ = try session.execute("d1 explode")
      Issue.record("a bad line was accepted")
    } catch {
      #expect(error.line == 5)
    }
  }

  @Test("a counterexample pasted line by line breaks the same invariant as its replay")
  func counterexampleBreaksTheSameInvariant() throws {
    var configuration = SimulationConfiguration(steps: 60, resolver: .fieldMerge, faults: .swarm)
    configuration.defects = [.resaveDeleted]
    let report = PropertyRunner(configuration: configuration, seeds: 0..<200).run()
    let failure = try #require(report.failures.first)
    var session = SimulationSession()
    var broken: [InvariantViolation] = []
    for line in failure.script.split(separator: "\n", omittingEmptySubsequences: false) {
      broken += try session.execute(String(line)).violations
    }
    #expect(broken.contains { $0.invariant == failure.violation.invariant }, "\(broken)")
  }
}
