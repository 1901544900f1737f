import Foundation
import Reconcile
import ReconcileSimulator
import Testing

@Suite("Simulation session: the one world, one line at a time")
struct SimulationSessionTests {
  @Test("a header line says what it set, each step answers with the trace it caused; expect invariants judges the run")
  func stepsAnswerWithTheirTrace() throws {
    var session = SimulationSession()
    #expect(try session.execute("resolver field-merge").lines == ["resolver field-merge"])
    #expect(try session.execute("device add d1").lines == ["added d1"])
    #expect(try session.execute("# a comment").lines.isEmpty)
    #expect(!session.hasStarted)
    let created = try session.execute("d1 create Note/r1 title=\"a\"")
    #expect(created.lines.first == "1 d1 create Note/r1 title=\"a\"")
    #expect(session.hasStarted)
    let synced = try session.execute("d1 sync")
    #expect(synced.lines.contains { $0.contains("d1 sync") }, "\(synced.lines)")
    let quiet = try session.execute("quiesce")
    #expect((synced.lines + quiet.lines).contains { $0.contains("d1: created zone Notes") }, "\(quiet.lines)")
    #expect(quiet.lines.contains { $0.contains("d1: saved Note/r1 → t1") }, "\(quiet.lines)")
    let judged = try session.execute("expect invariants")
    #expect(judged.violations.isEmpty)
    #expect(judged.lines == ["invariants held"])
  }

  @Test("every change of an edit line applies, in order, to what the line's earlier changes left")
  func editChangesApplyInOrder() throws {
    var session = SimulationSession()
    _ = try session.execute("device add phone")
    _ = try session.execute("phone create Note/1 tags=[home,weekly] plays=1 body=\"x\"")
    #expect(
      try session.execute("phone edit Note/1 tags+=[urgent] tags-=[weekly]").lines.first
        == "2 phone edit Note/1 tags=[\"home\", \"urgent\"]")
    #expect(try session.execute("phone edit Note/1 plays+=1 plays+=1").lines.first == "3 phone edit Note/1 plays=3")
    #expect(
      try session.execute("phone edit Note/1 body=\"a\" body+=\"b\"").lines.first == "4 phone edit Note/1 body=\"ab\"")
  }

  @Test("a line that cannot apply says why, each hint on its own condition")
  func hintsFireOnTheirCondition() throws {
    var session = SimulationSession()
    for line in ["device add phone", "device add mac", "phone create Note/1 title=x", "phone sync"] {
      _ = try session.interpret(line)
    }
    func refusal(_ line: String) -> String {
      do {
        _ = try session.interpret(line)
        return "accepted"
      } catch {
        return error.description
      }
    }
    #expect(refusal("mac edit Note/1 title=y").contains("Note/1 is only on phone: its save has not reached the server"))
    #expect(refusal("phone edit Note/77 title=z").contains("there is no Note/77 on any device or on the server"))
    _ = try session.interpret("sync all")
    _ = try session.interpret("mac delete Note/1")
    _ = try session.interpret("mac sync")
    _ = try session.interpret("sync all")
    #expect(refusal("phone edit Note/1 title=z").contains("there is no Note/1 on any device or on the server"))
  }

  @Test("an expectation of convergence made while a sync is under way says so")
  func convergenceWhileSyncing() throws {
    var session = SimulationSession()
    for line in ["device add A", "device add B", "A create Note/1 title=x", "sync all", "A edit Note/1 title=y"] {
      _ = try session.interpret(line)
    }
    _ = try session.interpret("A sync")
    _ = try session.interpret("B sync")
    do {
      _ = try session.interpret("expect converged")
      Issue.record("converged while A's save was under way")
    } catch {
      #expect(error.description.contains("a sync is still under way on"), "\(error)")
    }
  }

  @Test("a script saved with Windows line endings reads as the same script")
  func windowsLineEndings() throws {
    let script = "device add phone\nphone create Note/1 title=\"a\"\nphone sync\n"
    let unix = try SimulationScript.parse(script)
    let windows = try SimulationScript.parse(script.replacingOccurrences(of: "\n", with: "\r\n"))
    #expect(windows.steps == unix.steps)
    #expect(windows.steps.count == 2)
  }

  @Test("a header after the first step builds the world again; a bad line is refused naming the session's line")
  func refusals() throws {
    var session = SimulationSession()
    _ = try session.execute("device add d1")
    _ = try session.execute("# a comment")
    _ = try session.execute("d1 sync")
    let rebuilt = try session.execute("device add d2").lines
    #expect(rebuilt.last?.hasPrefix("the world was built again") == true, "\(rebuilt)")
    #expect(session.current?.clientNames == ["d1", "d2"])
    #expect(session.current?.steps == [.sync(device: "d1")])
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

@Suite("Regressions explore found")
struct ExploreRegressionTests {
  /// Seed 753 (field-merge, swarm, reference client): a record thrown away as damaged, then created again under its
  /// name and deleted before the refetch brought it back. The device dropped the deletion as that of a record never
  /// sent, and the server kept the record the user had deleted.
  static let recreatedAfterDamage = """
    resolver field-merge
    delete-policy deleteWins
    schemas none
    device add d1 --clock-offset 0s
    device add d3 --clock-offset 0s
    send-after-edits
    server-limits batch-items 10 batch-bytes 2000 page-size 5
    invariants noResurrection
    d3 create Note/r5 title="d3.36"
    advance 3s
    d3 create Note/r6 title="d3.57"
    fault corrupt d3 r6
    d3 offline
    d1 create Note/r8 title="d1.72"
    d3 edit Note/r6 title="d3.79"
    d3 create Note/r6 title="d3.138"
    d3 delete Note/r6
    d1 edit Note/r6 title="d1.181"
    quiesce
    expect invariants
    """

  /// Seed 2504, which the first fix broke: a re-created record lost to damage again owes no deletion.
  static let damagedTwice = """
    resolver field-merge
    delete-policy deleteWins
    schemas none
    device add d1 --clock-offset 0s
    send-after-edits
    server-limits batch-items 2 batch-bytes 2000 page-size 10
    invariants noLostRecords
    d1 create Note/r2 title="d1.3"
    advance 3s
    fault corrupt d1 r2
    d1 sync
    d1 create Note/r2 title="d1.107"
    fault corrupt d1 r2
    quiesce
    expect invariants
    """

  @Test(
    "a record re-created after its damaged copy was thrown away is deleted on the server when the user deletes it",
    arguments: [recreatedAfterDamage, damagedTwice])
  func deletionReachesTheServer(_ script: String) throws {
    let result = try Simulation.replay(script)
    #expect(result.passed, "\(result.violations)")
    #expect(!result.outcomes.isEmpty)
  }
}

@Suite("The simulator's interpreter answers every looking line from its world")
struct SimulationInterpreterTests {
  @Test("show diagnostics and expect on requests, errors and waits read the world's counts of each device's traffic")
  func trafficCounts() throws {
    var session = SimulationSession()
    for line in [
      "schemas none", "device add phone", "device add mac", "phone create Note/1 title=draft", "fault throttle 30s",
      "phone sync", "advance 60s",
    ] {
      _ = try session.interpret(line)
    }
    #expect(try session.interpret("expect phone errors:serviceUnavailable = 1").text.hasPrefix("ok:"))
    #expect(try session.interpret("expect phone waited >= 25").text.hasPrefix("ok:"), "the retry-after was honoured")
    #expect(try session.interpret("expect phone requests >= 3").text.hasPrefix("ok:"))
    #expect(try session.interpret("expect mac requests = 0").text == "ok: mac requests = 0")
    #expect(throws: ScriptError.self) { try session.interpret("expect phone errors = 0") }
    let table = try session.interpret("show diagnostics")
    #expect(table.isData)
    #expect(table.text.contains("serviceUnavailable ×1"), "\(table.text)")
    let json = try session.interpret("show diagnostics --json").text
    #expect(json.contains("\"requests\""), "\(json)")
  }
}
