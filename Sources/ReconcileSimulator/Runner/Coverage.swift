/// What a set of runs tested: how many took each path a client can take and gave each invariant something to judge,
/// and what none did, and how many records the judge set aside as unknowable (``SetAside``). ``PropertyReport`` and
/// ``ExplorationReport`` both print it.
package enum Coverage {
  /// The paths no run took, sorted.
  static func never(_ counts: [String: Int]) -> [String] { counts.filter { $0.value == 0 }.keys.sorted() }

  /// One line per kind: `runs reaching each path: conflict 661/754, …`, the same for invariants, then what was never
  /// reached and never exercised (`nothing` when everything was), and the records set aside by reason.
  static func text(
    runsReaching: [String: Int], runsExercising: [String: Int], setAside: [String: Int], recordsJudged: Int?,
    runs: Int
  ) -> String {
    func line(_ counts: [String: Int]) -> String {
      counts.keys.sorted().map { "\($0) \(counts[$0] ?? 0)/\(runs)" }.joined(separator: ", ")
    }
    func list(_ names: [String]) -> String { names.isEmpty ? "nothing" : names.joined(separator: ", ") }
    return [
      "runs reaching each path: " + line(runsReaching), "runs exercising each invariant: " + line(runsExercising),
      "never reached: " + list(never(runsReaching)), "never exercised: " + list(never(runsExercising)),
      setAsideLine(setAside, recordsJudged: recordsJudged),
    ].joined(separator: "\n")
  }

  /// `records set aside as unknowable (of 5046 judged): lateDeletionCopy 4, …`, or `…: none`: what ``SetAside``
  /// reasons left unjudged. `simulate`, `replay` and `explore` print the same line.
  package static func setAsideLine(_ setAside: [String: Int], recordsJudged: Int?) -> String {
    "records set aside as unknowable" + (recordsJudged.map { " (of \($0) judged)" } ?? "") + ": "
      + (setAside.isEmpty
        ? "none" : setAside.keys.sorted().map { "\($0) \(setAside[$0] ?? 0)" }.joined(separator: ", "))
  }
}
