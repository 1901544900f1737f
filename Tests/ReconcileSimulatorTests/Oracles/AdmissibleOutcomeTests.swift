import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// What the judge must say of one end state of a synthetic history.
enum Expected: Sendable, Equatable, CustomStringConvertible {
  /// Judged, and every contract kept: nothing set aside, nothing violated.
  case held
  /// Only a placement of a request in doubt other than the log's explains it: set aside under this reason.
  case setAside(SetAside)
  /// No placement explains it.
  case violated(Invariant)

  var description: String {
    switch self {
    case .held: "held"
    case .setAside(let reason): "set aside (\(reason))"
    case .violated(let invariant): "violated (\(invariant))"
    }
  }
}

/// One history, one end state, and what the judge must say of it.
struct AdmissibleCase: Sendable, CustomTestStringConvertible {
  var name: String
  var policy: DeletePolicy = .deleteWins
  /// Builds the history.
  var build: @Sendable (inout SyntheticRun) -> Void
  /// The record the server ends with, or `nil` for none.
  var final: [String: String]?
  var expected: Expected
  var testDescription: String { name }
}

/// The admissible outcomes of small histories with requests in doubt: an end state is judged under the placement
/// the server's log shows, and one only another placement of a request in doubt explains is set aside under the
/// reason naming that placement; one no placement explains is a violation. Each row pairs with a twin whose request
/// was answered, or whose end state no placement allows.
@Suite("Admissible outcomes: what the judge says of end states of small histories with requests in doubt")
struct AdmissibleOutcomeTests {
  /// d1 creates r1; its save lands but the answer is lost. d2 fetches it and deletes it.
  @Sendable static func createAnswerLostThenDeleted(_ run: inout SyntheticRun) {
    let landed = run.createLanded("d1", ["title": "a"]).landed
    run.answerLost("d1", created: true)
    run.delete("d2", on: landed)
    run.deleted(by: "d2")
  }

  /// As above, then d1, which cannot tell that deletion from one of an older r1, sends its create again.
  @Sendable static func createAnswerLostDeletedThenResent(_ run: inout SyntheticRun) {
    createAnswerLostThenDeleted(&run)
    run.saved(by: "d1", ["title": "a"])
  }

  /// d3 creates r1; d2 deletes it; d1, not having seen the deletion, edits r1 and never hears back (a save with a
  /// change tag of a deleted record is refused, so nothing lands).
  @Sendable static func editAnswerLostAfterDeletion(_ run: inout SyntheticRun) {
    let landed = run.createLanded("d3", ["title": "a"]).landed
    run.delete("d2", on: landed)
    run.deleted(by: "d2")
    run.edit("d1", ["title": "b"], on: landed)
    run.answerLost("d1")
  }

  /// d1 creates r1; d2 deletes it and its deletion lands, unanswered; d3 reads the deletion and creates r1 anew; then
  /// a copy of d2's deletion lands after the re-create (a duplicate, or a retry of the request in doubt).
  @Sendable static func deletionCopyAfterRecreate(_ run: inout SyntheticRun) {
    let landed = run.createLanded("d1", ["title": "a"]).landed
    run.delete("d2", on: landed)
    run.deleted(by: "d2")
    run.deletionAnswerLost("d2")
    run.create("d3", ["title": "c"])
    run.saved(by: "d3", ["title": "c"])
    run.deleted(by: "d2")
  }

  /// d1 creates r1; d2 edits it; an encrypted-data reset takes the zone while d1 holds the older copy and d2 the
  /// newer; d1 uploads its copy first. CloudKit keeps no version across a zone's deletion, so neither can tell which
  /// copy is newer.
  @Sendable static func resetWithCopiesOfUnknownAge(_ run: inout SyntheticRun) {
    let first = run.createLanded("d1", ["title": "a"]).landed
    run.edit("d2", ["title": "b"], on: first)
    run.saved(by: "d2", ["title": "b"])
    run.zoneReset(copies: ["d1": ["title": "a"], "d2": ["title": "b"]])
    run.saved(by: "d1", ["title": "a"])
  }

  /// d1 creates r1; d2, which never fetched it, creates r1 too, and the conflict's merge keeps d1's value of every key
  /// it wrote, so d2 has nothing to save; d1 then deletes r1.
  @Sendable static func createResolvedAwayThenDeleted(_ run: inout SyntheticRun) {
    let landed = run.createLanded("d1", ["title": "a"]).landed
    run.create("d2", ["title": "b"])
    run.delete("d1", on: landed)
    run.deleted(by: "d1")
  }

  /// d1 creates r1 and edits it; the edit's save is on its way when d1's user deletes r1, and lands after the
  /// deletion, reviving it; d2 saves the revived record. `answered` says whether d1 heard back about the edit's save.
  static func staleSaveRevived(answered: Bool) -> @Sendable (inout SyntheticRun) -> Void {
    { run in
      let landed = run.createLanded("d1", ["title": "a"]).landed
      run.edit("d1", ["title": "b"], on: landed)
      run.delete("d1", on: landed)
      run.deleted(by: "d1")
      let revived = run.saved(by: "d1", ["title": "b"])
      if !answered { run.answerLost("d1") }
      run.edit("d2", ["title": "c"], on: revived)
      run.saved(by: "d2", ["title": "c"])
    }
  }

  /// d1 sets title b and its save lands unanswered; d2 sees b and writes c; d1, not knowing b landed, sends it again.
  static func valueResent(answered: Bool) -> @Sendable (inout SyntheticRun) -> Void {
    { run in
      let landed = run.createLanded("d1", ["title": "a"]).landed
      run.edit("d1", ["title": "b"], on: landed)
      let sent = run.saved(by: "d1", ["title": "b"])
      if !answered { run.answerLost("d1") }
      run.edit("d2", ["title": "c"], on: sent)
      run.saved(by: "d2", ["title": "c"])
      run.saved(by: "d1", ["title": "b"])
    }
  }

  /// d1 edits r1 and its save lands unanswered; another client deletes the zone (devices drop what the server had
  /// acknowledged), and d1's save, sent again, re-creates r1.
  static func saveAcrossZoneDeletion(answered: Bool) -> @Sendable (inout SyntheticRun) -> Void {
    { run in
      let landed = run.createLanded("d1", ["title": "a"]).landed
      run.edit("d1", ["title": "b"], on: landed)
      let sent = run.saved(by: "d1", ["title": "b"])
      if !answered { run.answerLost("d1") }
      run.zoneWiped(shown: sent)
      run.saved(by: "d1", ["title": "b"])
    }
  }

  /// d1 creates r1 and d2 fetches it; an encrypted-data reset takes the zone; `damaged` says whether both devices then
  /// lose their copies before uploading them again.
  static func resetThenCopiesLost(damaged: Bool) -> @Sendable (inout SyntheticRun) -> Void {
    { run in
      _ = run.createLanded("d1", ["title": "a"])
      run.zoneReset(copies: ["d1": ["title": "a"], "d2": ["title": "a"]])
      if damaged {
        run.damage("d1")
        run.damage("d2")
      }
    }
  }

  /// d3 creates r1; d1 edits it and d2, which never saw the edit, deletes it. `editFirst` says whether the edit landed
  /// before the deletion (which, carrying no change tag, then removes the edited version) or after it (reviving r1).
  static func editRacingDeletion(editFirst: Bool) -> @Sendable (inout SyntheticRun) -> Void {
    { run in
      let landed = run.createLanded("d3", ["title": "a"]).landed
      run.edit("d1", ["title": "b"], on: landed)
      run.delete("d2", on: landed)
      if editFirst {
        run.saved(by: "d1", ["title": "b"])
        run.deleted(by: "d2")
      } else {
        run.deleted(by: "d2")
      }
    }
  }

  static let cases: [AdmissibleCase] = [
    AdmissibleCase(
      name: "a lost answer before a deletion that saw the save: the record gone is judged and held",
      build: createAnswerLostThenDeleted, final: nil, expected: .held),
    AdmissibleCase(
      name: "a lost answer before a deletion that saw the save: the create sent again is explained only by the save "
        + "landing after the deletion",
      build: createAnswerLostDeletedThenResent, final: ["title": "a"], expected: .setAside(.unansweredSaveRaced)),
    AdmissibleCase(
      name: "the same with the answer delivered: the create sent again is a resurrection",
      build: { run in
        let landed = run.createLanded("d1", ["title": "a"]).landed
        run.delete("d2", on: landed)
        run.deleted(by: "d2")
        run.saved(by: "d1", ["title": "a"])
      }, final: ["title": "a"], expected: .violated(.noResurrection)),
    AdmissibleCase(
      name: "a lost answer after a concurrent deletion, deleteWins: the record gone is judged and held",
      build: editAnswerLostAfterDeletion, final: nil, expected: .held),
    AdmissibleCase(
      name: "a lost answer after a concurrent deletion, deleteWins: an edit whatever its placement never revives, "
        + "so the record back (its copy sent again as a new record) is a resurrection",
      build: { run in
        editAnswerLostAfterDeletion(&run)
        run.saved(by: "d1", ["title": "b"])
      }, final: ["title": "b"], expected: .violated(.noResurrection)),
    AdmissibleCase(
      name: "deleteWins, a create answered and a later edit in doubt: only a save with no change tag can make the "
        + "record anew, so the create sent again after the deletion it saw is a resurrection",
      build: { run in
        let landed = run.createLanded("d1", ["title": "a"]).landed
        run.delete("d2", on: landed)
        run.deleted(by: "d2")
        run.edit("d1", ["title": "b"], on: landed)
        run.answerLost("d1")
        run.saved(by: "d1", ["title": "b"])
      }, final: ["title": "b"], expected: .violated(.noResurrection)),
    AdmissibleCase(
      name: "a lost answer after a concurrent deletion, editWins: the edit revives the record, judged and held",
      policy: .editWins,
      build: { run in
        editAnswerLostAfterDeletion(&run)
        run.saved(by: "d1", ["title": "b"])
      }, final: ["title": "b"], expected: .held),
    AdmissibleCase(
      name: "editWins, a concurrent write that lost every value to the conflict's merge revives nothing: the record "
        + "gone is judged and held",
      policy: .editWins, build: createResolvedAwayThenDeleted, final: nil, expected: .held),
    AdmissibleCase(
      name: "editWins, the same with the record back: a resurrection",
      policy: .editWins,
      build: { run in
        createResolvedAwayThenDeleted(&run)
        run.saved(by: "d1", ["title": "a"])
      }, final: ["title": "a"], expected: .violated(.noResurrection)),
    AdmissibleCase(
      name: "editWins, a concurrent write whose value landed after the deletion revives the record, judged and held",
      policy: .editWins,
      build: { run in
        createResolvedAwayThenDeleted(&run)
        run.saved(by: "d2", ["title": "b"])
      }, final: ["title": "b"], expected: .held),
    AdmissibleCase(
      name: "editWins, an edit that landed before a deletion made without it: the record gone is explained only by "
        + "a deletion made after seeing the edit, which the editing device cannot tell from it",
      policy: .editWins, build: editRacingDeletion(editFirst: true), final: nil,
      expected: .setAside(.editRemovedByDeletion)),
    AdmissibleCase(
      name: "editWins, an edit whose device learnt of the deletion before sending it: the record gone is lost",
      policy: .editWins, build: editRacingDeletion(editFirst: false), final: nil,
      expected: .violated(.noLostRecords)),
    AdmissibleCase(
      name: "a deletion's copy landing after a re-create: the record gone is explained only by that copy",
      build: deletionCopyAfterRecreate, final: nil, expected: .setAside(.lateDeletionCopy)),
    AdmissibleCase(
      name: "the same re-create with no deletion in doubt, its record gone, is a lost record",
      build: { run in
        let landed = run.createLanded("d1", ["title": "a"]).landed
        run.delete("d2", on: landed)
        run.deleted(by: "d2")
        run.create("d3", ["title": "c"])
        run.saved(by: "d3", ["title": "c"])
        run.deleted(by: "d4")
      }, final: nil, expected: .violated(.noLostRecords)),
    AdmissibleCase(
      name: "a save in doubt on its way when its user deleted the record revived it, and another device saved it: "
        + "explained only by that save",
      build: staleSaveRevived(answered: false), final: ["title": "c"], expected: .setAside(.staleSaveRevived)),
    AdmissibleCase(
      name: "the same save answered: the device knew it revived the record, and must delete it again",
      build: staleSaveRevived(answered: true), final: ["title": "c"], expected: .violated(.noResurrection)),
    AdmissibleCase(
      name: "a value whose save went unanswered, sent again over a later write that saw it: explained only by the "
        + "device not knowing it landed",
      build: valueResent(answered: false), final: ["title": "b"], expected: .setAside(.unansweredValueResent)),
    AdmissibleCase(
      name: "the same value sent again though its save was answered overwrites a later write",
      build: valueResent(answered: true), final: ["title": "b"], expected: .violated(.oneSidedChangesKept)),
    AdmissibleCase(
      name: "a save in doubt across a client's zone deletion re-created the record: explained only by the save "
        + "landing after the deletion",
      build: saveAcrossZoneDeletion(answered: false), final: ["title": "b"],
      expected: .setAside(.unansweredSaveAcrossZoneDeletion)),
    AdmissibleCase(
      name: "the same save answered before the zone deletion: sending it again revives what the deletion took",
      build: saveAcrossZoneDeletion(answered: true), final: ["title": "b"], expected: .violated(.noResurrection)),
    AdmissibleCase(
      name: "a reset after which every holder lost its copy before uploading it: the record gone is judged and held",
      build: resetThenCopiesLost(damaged: true), final: nil, expected: .held),
    AdmissibleCase(
      name: "a reset after which a holder kept its copy: the record gone is lost",
      build: resetThenCopiesLost(damaged: false), final: nil, expected: .violated(.noLostRecords)),
    AdmissibleCase(
      name: "a reset with copies of unknown age: the older copy's value is one a copy held, judged and held",
      build: resetWithCopiesOfUnknownAge, final: ["title": "a"], expected: .held),
    AdmissibleCase(
      name: "a reset with copies of unknown age: a value no copy held is lost",
      build: resetWithCopiesOfUnknownAge, final: ["title": "z"], expected: .violated(.oneSidedChangesKept)),
  ]

  @Test(arguments: cases)
  func judgesTheEndState(_ row: AdmissibleCase) throws {
    var run = try SyntheticRun()
    row.build(&run)
    let verdict = run.verdict(row.policy, final: row.final)
    let found: Expected =
      if let violation = verdict.violations.first {
        .violated(violation.invariant)
      } else if verdict.setAside.count == 1, let reason = verdict.setAside.keys.first {
        .setAside(reason)
      } else if verdict.setAside.isEmpty, !verdict.judged.isEmpty {
        .held
      } else {
        .setAside(verdict.setAside.keys.sorted { $0.rawValue < $1.rawValue }.first ?? .unansweredSaveRaced)
      }
    #expect(
      found == row.expected,
      "\(row.name): \(verdict.violations.map(\.message)) set aside \(verdict.setAside) judged \(verdict.judged)")
  }
}
