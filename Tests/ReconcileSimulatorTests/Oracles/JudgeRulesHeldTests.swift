import Foundation
import ReconcileSimulator
import Testing

/// Each rule of the judge held in place by a run that only it catches: weaken the rule (the comment names how) and the
/// test fails. Each script carries a defect of the reference client; without the defect line it passes.
@Suite("Judge: each rule is held in place by a run only it catches")
struct JudgeRulesHeldTests {
  /// Replays `script`, expects a violation of `invariant` whose message contains `detail`, and expects the same
  /// script without its `defect` line to pass.
  func expectCaught(
    _ script: String, _ invariant: Invariant, _ detail: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let result = try Simulation.replay(script)
    #expect(
      result.violations.contains { $0.invariant == invariant && $0.message.contains(detail) }, "\(result.violations)",
      sourceLocation: sourceLocation)
    let healthy = script.split(separator: "\n").filter { !$0.hasPrefix("defect ") }.joined(separator: "\n")
    let repaired = try Simulation.replay(healthy)
    #expect(repaired.passed, "\(repaired.violations)", sourceLocation: sourceLocation)
  }

  /// d2 edits a record it fetched from d1 while its previous save is on its way; the defect
  /// `drop-edits-during-save` lets the save's answer overwrite the edit, so the edit is lost. `RESOLVER` and `EDIT`
  /// are filled in by each test.
  static let lostEdit = """
    resolver RESOLVER
    defect drop-edits-during-save
    device add d1
    device add d2
    send-after-edits
    d1 create Note/r1 title="a" rank=1
    advance 5s
    d2 sync
    advance 5s
    fault delay d2 5s
    d2 edit Note/r1 body="b"
    d2 edit Note/r1 EDIT
    quiesce
    expect invariants
    """

  static func lostEdit(resolver: String, edit: String) -> String {
    lostEdit.replacing("RESOLVER", with: resolver).replacing("EDIT", with: edit)
  }

  /// Weakening: treating every pair of writes on two devices as concurrent (happened-before only within a device)
  /// lets d1's older value stand beside d2's, and this passes.
  @Test("a write made after seeing another device's write is the only latest one: losing it is caught")
  func happenedBeforeAcrossDevices() throws {
    try expectCaught(
      Self.lostEdit(resolver: "field-merge", edit: "rank=2"), .oneSidedChangesKept, "d2 set rank of r1 to 2")
  }

  /// Weakening: leaving removals unjudged.
  @Test("a removal is judged like a value: losing it is caught")
  func removalsAreJudged() throws {
    try expectCaught(
      Self.lostEdit(resolver: "field-merge", edit: "-rank"), .oneSidedChangesKept, "d2 removed rank of r1")
  }

  /// Weakening: comparing the edit count off by one.
  @Test("an edit count one below the highest a device showed is caught")
  func editCountExactly() throws {
    try expectCaught(
      Self.lostEdit(resolver: "edit-count", edit: "rank=2"), .highestEditCountKept,
      "ended with edit count 2, but a device showed 3")
  }

  /// Weakening: dropping the server-log check of stale overwrites. The end state is right here (a later edit set the
  /// key again), so only the log shows the older value written back.
  @Test("an older value written back is caught on the server's log even when the end state is right")
  func staleOverwriteOnTheLog() throws {
    try expectCaught(
      """
      resolver field-merge
      defect merge-without-ancestor
      device add d1
      device add d2
      d1 create Note/r1 title="a" rank=1
      d1 sync
      advance 5s
      d2 sync
      advance 5s
      d1 edit Note/r1 body="b"
      d2 edit Note/r1 rank=2
      d2 sync
      advance 5s
      d1 sync
      advance 5s
      d2 sync
      advance 5s
      d2 edit Note/r1 rank=3
      d2 sync
      advance 5s
      quiesce
      expect invariants
      """, .oneSidedChangesKept, "wrote back its older value 1")
  }

  /// Weakening: reading only key histories longer than the shortest a value can come back in (A, B, A), which the log
  /// check skips the others for. Here the key's whole history is those three versions.
  @Test("an older value written back as the key's third version is caught on the server's log")
  func staleOverwriteInAThreeVersionHistory() throws {
    try expectCaught(
      """
      resolver field-merge
      defect merge-without-ancestor
      device add d1
      device add d2
      d1 create Note/r1 title="a" rank=1
      d1 sync
      advance 5s
      d2 sync
      advance 5s
      d1 edit Note/r1 body="b"
      d2 edit Note/r1 rank=2
      d2 sync
      advance 5s
      d1 sync
      advance 5s
      quiesce
      expect invariants
      """, .oneSidedChangesKept, "wrote back its older value 1")
  }

  /// Weakening: leaving a change tag issued twice unreported. Only a broken server issues one, so the test breaks the
  /// simulated server (a package-only switch) after its first save.
  @Test("a change tag the server issues twice is reported")
  func changeTagIssuedTwice() throws {
    let script = """
      device add d1
      d1 create Note/r1 title="a"
      d1 sync
      advance 5s
      d1 edit Note/r1 title="b"
      d1 sync
      advance 5s
      """
    var broken = Simulation(script: try SimulationScript.parse(script))
    broken.server.reusesChangeTags = true
    let result = broken.run()
    #expect(
      result.violations.contains { $0.invariant == .serverInvariants && $0.message.contains("issued twice") },
      "\(result.violations)")
    var sound = Simulation(script: try SimulationScript.parse(script))
    #expect(sound.run().passed)
  }

  /// Weakening: letting a copy from before an encrypted-data reset bring back its value over any write made in the new
  /// zone, not only one landed before its holder learnt of the reset. d2 learnt of the reset, and merged its copy,
  /// before d3 removed the body; its later save (merging without an ancestor) writes the old body back.
  @Test("a copy's value from before a reset may win only a write landed before its holder learnt of the reset")
  func resetCopyWinsOnlyUnseenWrites() throws {
    try expectCaught(
      """
      resolver field-merge
      defect merge-without-ancestor
      device add d2 --clock-offset 0s
      device add d3 --clock-offset 0s
      send-after-edits
      d2 create Note/r7 title="a"
      d2 edit Note/r7 body="b"
      advance 2s
      d3 sync
      advance 2s
      fault reset-encrypted-data
      d3 sync
      advance 2s
      d2 sync
      advance 2s
      d2 offline
      d3 edit Note/r7 -body
      advance 2s
      d2 edit Note/r7 title="c"
      d2 online
      quiesce
      expect invariants
      """, .oneSidedChangesKept, "d3 removed body of r7")
  }
}
