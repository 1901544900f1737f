import Reconcile

/// What checking one invariant on one run found: it held (and how many things it judged), it did not apply (and why),
/// or it was violated.
///
/// An invariant that judged nothing never reports `held`: a run with no deletions says ``notApplicable(_:)`` for
/// ``Invariant/noResurrection``, so "all invariants held" means each one was exercised.
public enum InvariantOutcome: Sendable, Hashable, CustomStringConvertible {
  /// The invariant was checked `checks` times (records, keys, devices or halts judged) and held every time.
  case held(checks: Int)
  /// Nothing the run did gave the invariant anything to judge; the reason says what was missing.
  case notApplicable(String)
  /// The invariant was broken.
  case violated([InvariantViolation])

  /// Whether the outcome is a violation.
  public var isViolated: Bool {
    if case .violated = self { return true }
    return false
  }

  /// `held (12 checks)`, `not applicable: no record was deleted`, or `VIOLATED: …`.
  public var description: String {
    switch self {
    case .held(let checks): "held (\(checks) \(checks == 1 ? "check" : "checks"))"
    case .notApplicable(let reason): "not applicable: \(reason)"
    case .violated(let violations): "VIOLATED: " + violations.map(\.message).joined(separator: "; ")
    }
  }
}

/// Counts what each invariant judged during one check, and why one judged nothing.
struct InvariantTally: Sendable {
  var violations: [InvariantViolation] = []
  private(set) var checks: [Invariant: Int] = [:]
  private(set) var reasons: [Invariant: String] = [:]
  /// The records each reason left (wholly or in part) unjudged.
  private(set) var setAside: [SetAside: Set<RecordID>] = [:]

  /// The records the end-state judge looked at.
  var recordsConsidered = 0

  /// Notes that `reason` left `id`, or a key of it, unjudged.
  mutating func setAside(_ id: RecordID, _ reason: SetAside) { setAside[reason, default: []].insert(id) }

  /// How many records each reason set aside.
  var setAsideCounts: [SetAside: Int] { setAside.mapValues(\.count) }

  mutating func judged(_ invariant: Invariant, _ count: Int = 1) { checks[invariant, default: 0] += count }

  /// Records a violation of something already counted with ``judged(_:_:)``.
  mutating func fail(_ invariant: Invariant, _ message: String) {
    violations.append(InvariantViolation(invariant, message))
  }

  /// Adds what `other` judged, its violations' messages prefixed with `label`.
  mutating func merge(_ other: InvariantTally, label: String?) {
    violations += other.violations.map { InvariantViolation($0.invariant, (label ?? "") + $0.message) }
    checks.merge(other.checks, uniquingKeysWith: +)
    reasons.merge(other.reasons) { mine, _ in mine }
    setAside.merge(other.setAside) { $0.union($1) }
    recordsConsidered += other.recordsConsidered
  }

  /// Why `invariant` judged nothing, if it judges nothing; the first reason given stands.
  mutating func inapplicable(_ invariant: Invariant, _ reason: String) {
    if reasons[invariant] == nil { reasons[invariant] = reason }
  }

  /// The outcome of each invariant checked, with violations found elsewhere (while running) added in.
  func outcomes(for invariants: Set<Invariant>, extra: [InvariantViolation]) -> [Invariant: InvariantOutcome] {
    var result: [Invariant: InvariantOutcome] = [:]
    let all = extra + violations
    for invariant in invariants {
      let broken = all.filter { $0.invariant == invariant }
      if !broken.isEmpty {
        result[invariant] = .violated(broken)
      } else if let count = checks[invariant], count > 0 {
        result[invariant] = .held(checks: count)
      } else {
        result[invariant] = .notApplicable(reasons[invariant] ?? "nothing in the run exercised it")
      }
    }
    return result
  }
}
