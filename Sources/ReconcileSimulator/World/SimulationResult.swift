public import Foundation
import Reconcile

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
  /// Times a user reset sync on a device (``SimulationStep/resetSync(device:)``).
  public var syncResets = 0
  /// Times a device signed in, out, or across iCloud accounts (``SimulationStep/account(device:user:)``).
  public var accountChanges = 0
  /// Times the zone went on the server: deleted by a client, purged by the user, or with an encrypted-data reset.
  public var zoneDeletions = 0

  /// The paths a sync client can take that the runner reports coverage of, with how often this run took each.
  public var paths: [String: Int] {
    [
      "conflict": conflicts, "moreComing": moreComingPages, "limitExceeded": limitExceeded,
      "batchRequestFailed": batchRequestFailed, "tokenExpired": tokenExpiries, "tornCrash": tornCrashes,
      "resurrectionBlocked": resurrectionsBlocked, "halt": halts, "transientError": transientErrors,
      "lostMessage": lostMessages, "retryAfter": retryAftersHanded, "syncReset": syncResets,
      "accountChange": accountChanges, "zoneDeletion": zoneDeletions,
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
public struct SimulationResult: Sendable, Hashable {
  /// The seed, for a seeded run.
  public var seed: UInt64?
  /// The world the run had.
  public var setup: SimulationSetup
  /// The steps performed, in order.
  public var steps: [SimulationStep]
  /// The invariants checked.
  public var invariants: Set<Invariant>
  /// A line per step and per server change, byte-identical for the same seed and configuration.
  public var trace: [String] { traceEntries.map { $0.line(steps: steps) } }
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

}

/// One trace line, kept as data and written out only when the trace is read.
enum TraceEntry: Sendable, Hashable {
  /// The step numbered so (from 1): the run's steps hold it, so the trace keeps no copy.
  case step(Int)
  case event(ServerEvent)
  case note(String)
  /// A decision a device's client made, and why.
  case decision(String, SyncDecision)
  case quiesce

  /// The line, reading a step from `steps`, the run's steps.
  func line(steps: [SimulationStep]) -> String {
    switch self {
    case .step(let number): "\(number) \(steps[number - 1])"
    case .event(let event): "    \(event)"
    case .note(let text): "    " + text
    case .decision(let device, let decision): "    \(device): \(decision)"
    case .quiesce: "quiesce"
    }
  }
}
