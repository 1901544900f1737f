public import Foundation

/// Counts from one simulated run.
public struct SimulationStatistics: Sendable, Hashable, CustomStringConvertible {
  /// Steps performed.
  public var steps = 0
  /// Steps that could not apply (an edit of a record the device does not hold, say) and were skipped.
  public var skippedSteps = 0
  /// Requests devices sent.
  public var requests = 0
  /// Requests or responses the network lost.
  public var lostMessages = 0
  /// Conflicts the server reported (`serverRecordChanged` items).
  public var conflicts = 0
  /// Requests, or items of a save, answered with a transient error.
  public var transientErrors = 0
  /// Times a device halted.
  public var halts = 0
  /// Records saved and deleted by the server.
  public var serverChanges = 0
  /// Virtual seconds the run took, quiescence included.
  public var virtualSeconds: TimeInterval = 0
  /// Quiescence rounds needed after the steps.
  public var quiescenceRounds = 0
  /// Token moves checked for going backwards.
  public var tokenChecks = 0
  /// Change-feed pages answered with `moreComing`.
  public var moreComingPages = 0
  /// Requests refused with `limitExceeded`.
  public var limitExceeded = 0
  /// Items failed with `batchRequestFailed` (an atomic zone's other items).
  public var batchRequestFailed = 0
  /// Requests answered with `changeTokenExpired`.
  public var tokenExpiries = 0
  /// Crashes that landed between two of a device's persistence writes while it handled an answer.
  public var tornCrashes = 0
  /// Fetched copies of records a device had deleted that it kept from coming back (a pending or tombstoned deletion).
  public var resurrectionsBlocked = 0
  /// Answers carrying a retry-after that a client took (it was still waiting for them).
  public var retryAftersHanded = 0

  /// The paths a sync client can take that the runner reports coverage of, with how often this run took each.
  public var paths: [String: Int] {
    [
      "conflict": conflicts, "moreComing": moreComingPages, "limitExceeded": limitExceeded,
      "batchRequestFailed": batchRequestFailed, "tokenExpired": tokenExpiries, "tornCrash": tornCrashes,
      "resurrectionBlocked": resurrectionsBlocked, "halt": halts, "transientError": transientErrors,
      "lostMessage": lostMessages, "retryAfter": retryAftersHanded,
    ]
  }

  /// One line of counts.
  public var description: String {
    "steps \(steps) (skipped \(skippedSteps)), requests \(requests), lost \(lostMessages), conflicts \(conflicts), "
      + "transient errors \(transientErrors), halts \(halts), server changes \(serverChanges), "
      + "virtual time \(Int(virtualSeconds))s, quiescence rounds \(quiescenceRounds), "
      + "moreComing pages \(moreComingPages), limitExceeded \(limitExceeded), "
      + "batchRequestFailed \(batchRequestFailed), token expiries \(tokenExpiries), torn crashes \(tornCrashes), "
      + "resurrections blocked \(resurrectionsBlocked)"
  }
}

/// What a simulated run did and which invariants it broke.
public struct SimulationResult: Sendable, Hashable, CustomStringConvertible {
  /// The seed, for a seeded run.
  public var seed: UInt64?
  /// The world the run had.
  public var setup: SimulationSetup
  /// The steps performed, in order.
  public var steps: [SimulationStep]
  /// The invariants checked.
  public var invariants: Set<Invariant>
  /// A line per step and per server change, byte-identical for the same seed and configuration.
  public var trace: [String] { traceEntries.map(\.line) }
  var traceEntries: [TraceEntry]
  /// Broken invariants, in a fixed order; empty when the run kept every invariant checked.
  public var violations: [InvariantViolation]
  /// What checking each invariant found: held (with how much it judged), not applicable (with why), or violated.
  public var outcomes: [Invariant: InvariantOutcome]
  /// How many records the end-state judge looked at: every record a user acted on or the server holds; 0 when the
  /// run was not driven to quiescence.
  public var recordsJudged: Int
  /// How many records each reason left unjudged, wholly or in part (see ``SetAside``); a reason that set nothing aside
  /// is absent.
  public var setAside: [SetAside: Int]
  /// Counts.
  public var statistics: SimulationStatistics

  /// Whether the run kept every invariant checked.
  public var passed: Bool { violations.isEmpty }

  /// A few lines: the verdicts, the records judged and set aside, and for a failed run each broken invariant and the
  /// replay script.
  public var description: String {
    let name = seed.map { "seed \($0)" } ?? "the run"
    let judged = "\(recordsJudged) records judged, \(setAside.values.reduce(0, +)) set aside as unknowable"
    guard !passed else {
      let held = outcomes.values.filter { if case .held = $0 { true } else { false } }.count
      return "\(name) passed: \(held) invariants held, \(outcomes.count - held) not applicable; \(judged)"
    }
    var lines = ["\(name) FAILED: \(violations.count) \(violations.count == 1 ? "violation" : "violations"); \(judged)"]
    lines += violations.map { "  \($0)" }
    lines.append("  " + Counterexample.replayHint + ":")
    lines += script.split(separator: "\n").map { "    " + $0 }
    return lines.joined(separator: "\n")
  }

  /// The run as a replay script (see ``SimulationScript``).
  public var script: String {
    SimulationScript.render(
      setup: setup, steps: steps, invariants: invariants,
      comments: [seed.map { "seed \($0)" }].compactMap { $0 } + violations.map { "broke \($0)" })
  }
}

/// One trace line, kept as data and written out only when the trace is read.
enum TraceEntry: Sendable, Hashable {
  case step(Int, SimulationStep)
  case event(ServerEvent)
  case note(String)
  case quiesce

  var line: String {
    switch self {
    case .step(let number, let step): "\(number) \(step)"
    case .event(let event): "    \(event)"
    case .note(let text): "    " + text
    case .quiesce: "quiesce"
    }
  }
}
