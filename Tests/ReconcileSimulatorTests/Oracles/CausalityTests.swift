import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// One history and the happened-before it must give.
struct CausalityCase: Sendable, CustomTestStringConvertible {
  var name: String
  /// Builds the history; returns `(later, earlier, key)` to ask about.
  fileprivate var build: @Sendable (inout SyntheticRun) -> (later: Int, earlier: Int, key: String?)
  var saw: Bool
  var testDescription: String { name }
}

@Suite("Causality: which user action saw which, on small synthetic histories")
struct CausalityTests {
  static let cases: [CausalityCase] = [
    CausalityCase(
      name: "a device's later action saw its earlier one",
      build: { run in
        let create = run.create("d1", ["title": "a"])
        return (run.edit("d1", ["title": "b"], on: 0), create, nil)
      }, saw: true),
    CausalityCase(
      name: "damage between two actions of a device makes it forget the first",
      build: { run in
        let create = run.create("d1", ["title": "a"])
        run.damage("d1")
        return (run.edit("d1", ["title": "b"], on: 0), create, nil)
      }, saw: false),
    CausalityCase(
      name: "an action made on the version where another device's action landed saw it",
      build: { run in
        let (create, landed) = run.createLanded("d1", ["title": "a"])
        return (run.edit("d2", ["color": "red"], on: landed), create, nil)
      }, saw: true),
    CausalityCase(
      name: "an action made on a version before another device's action landed did not see it",
      build: { run in
        let first = run.createLanded("d1", ["title": "a"]).landed
        let edit = run.edit("d1", ["title": "b"], on: first)
        let other = run.edit("d2", ["color": "red"], on: first)
        run.saved(by: "d1", ["title": "b"])
        return (other, edit, nil)
      }, saw: false),
    CausalityCase(
      name: "nothing sees an action made after it, even on the same device",
      build: { run in
        let (create, landed) = run.createLanded("d1", ["title": "a"])
        return (create, run.edit("d1", ["title": "b"], on: landed), nil)
      }, saw: false),
    CausalityCase(
      name: "a create saw a deletion that landed before it, the record then gone",
      build: { run in
        let landed = run.createLanded("d1", ["title": "a"]).landed
        let delete = run.delete("d2", on: landed)
        run.deleted(by: "d2")
        return (run.create("d3", ["title": "c"]), delete, nil)
      }, saw: true),
    CausalityCase(
      name: "a create made while the record is on the server saw nothing of it",
      build: { run in
        let create = run.create("d1", ["title": "a"])
        run.saved(by: "d1", ["title": "a"])
        return (run.create("d2", ["title": "b"]), create, nil)
      }, saw: false),
    CausalityCase(
      name: "a deletion that has not landed is seen by no create",
      build: { run in
        let landed = run.createLanded("d1", ["title": "a"]).landed
        let delete = run.delete("d2", on: landed)
        return (run.create("d3", ["title": "c"]), delete, nil)
      }, saw: false),
    CausalityCase(
      name: "per key, a write landed where its value did: a later save of another key is not its landing",
      build: { run in
        let first = run.createLanded("d1", ["title": "a"]).landed
        run.edit("d1", ["title": "b"], on: first)
        let second = run.saved(by: "d1", ["title": "b"])
        let color = run.edit("d1", ["color": "red"], on: second)
        let other = run.edit("d2", ["color": "blue"], on: second)
        run.saved(by: "d1", ["title": "b", "color": "red"])
        return (other, color, "color")
      }, saw: false),
    CausalityCase(
      name:
        "per key, a removal its device overwrote before any save carried it never landed (a later save lacking the key is not it)",
      build: { run in
        run.create("d1", ["title": "a"])
        let removal = run.remove("d1", "body", on: 0)
        run.edit("d1", ["body": "b"], on: 0)
        run.saved(by: "d1", ["title": "a", "body": "b"])
        let later = run.saved(by: "d1", ["title": "c"])  // say, the record created anew without a body, merged
        return (run.edit("d2", ["body": "d"], on: later), removal, "body")
      }, saw: false),
    CausalityCase(
      name: "per key, a write whose value landed at the version an action was made on was seen",
      build: { run in
        let first = run.createLanded("d1", ["title": "a"]).landed
        let title = run.edit("d1", ["title": "b"], on: first)
        let second = run.saved(by: "d1", ["title": "b"])
        return (run.edit("d2", ["title": "c"], on: second), title, "title")
      }, saw: true),
    CausalityCase(
      name: "per key, a value that landed was seen though the rest of its edit had not landed",
      build: { run in
        let first = run.createLanded("d1", ["title": "a", "color": "red"]).landed
        let edit = run.edit("d1", ["title": "b", "color": "blue"], on: first)
        let partial = run.saved(by: "d1", ["title": "b", "color": "red"])
        run.saved(by: "d1", ["title": "b", "color": "blue"])
        return (run.edit("d2", ["title": "c"], on: partial), edit, "title")
      }, saw: true),
    CausalityCase(
      name: "across a zone reset, a write the version acted on does not carry was not seen (the reset took it)",
      build: { run in
        let first = run.createLanded("d1", ["title": "a"]).landed
        let other = run.edit("d2", ["title": "b"], on: first)
        run.saved(by: "d2", ["title": "b"])
        run.zoneReset()
        let copy = run.saved(by: "d1", ["title": "a"])  // d1 uploads its copy again: not d2's value
        return (run.edit("d1", ["title": "c"], on: copy), other, "title")
      }, saw: false),
    CausalityCase(
      name: "across a zone reset, a write a copy uploaded again brought back into the version acted on was seen",
      build: { run in
        let first = run.createLanded("d1", ["title": "a"]).landed
        let other = run.edit("d2", ["title": "b"], on: first)
        run.saved(by: "d2", ["title": "b"])
        run.zoneReset()
        let copy = run.saved(by: "d2", ["title": "b"])  // d2 uploads its copy again, its value with it
        return (run.edit("d1", ["title": "c"], on: copy), other, "title")
      }, saw: true),
    CausalityCase(
      name: "an edit as a whole landed when the last of its values did",
      build: { run in
        let first = run.createLanded("d1", ["title": "a", "color": "red"]).landed
        let edit = run.edit("d1", ["title": "b", "color": "blue"], on: first)
        let partial = run.saved(by: "d1", ["title": "b", "color": "red"])
        run.saved(by: "d1", ["title": "b", "color": "blue"])
        return (run.edit("d2", ["rank": "1"], on: partial), edit, nil)
      }, saw: false),
  ]

  @Test("happened-before on a synthetic history", arguments: cases)
  func happenedBefore(_ example: CausalityCase) throws {
    var run = try SyntheticRun()
    let (later, earlier, key) = example.build(&run)
    #expect(try run.sees(later, earlier, key: key) == example.saw, "\(run.events.map(\.description))")
  }

  @Test("a zone deletion saw what a device showed before it, and nothing nobody showed")
  func zoneDeletionSawWhatWasShown() throws {
    var run = try SyntheticRun()
    let create = run.create("d1", ["title": "a"])
    let landed = run.saved(by: "d1", ["title": "a"])
    let action = try run.action(create)
    let shown = UserHistory.ZoneReset(
      time: Date(timeIntervalSince1970: 100), position: landed + 1, shown: [run.id: landed], wipes: true)
    let unseen = UserHistory.ZoneReset(
      time: Date(timeIntervalSince1970: 100), position: landed + 1, shown: [:], wipes: true)
    #expect(run.causality.sees(.reset(shown), .action(action), key: nil))
    #expect(!run.causality.sees(.reset(unseen), .action(action), key: nil))
  }
}
