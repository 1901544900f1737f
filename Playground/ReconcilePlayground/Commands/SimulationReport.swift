import Foundation
import Reconcile
import ReconcileSimulator

/// What `simulate` and `replay` print about a finished run: the world, each invariant checked and the records the judge
/// set aside as unknowable, every device's diagnostics and the run's counts — as aligned tables or as JSON.
struct SimulationReport: Encodable {
  struct InvariantRow: Encodable {
    var invariant: String
    /// `held`, `not applicable` or `violated`.
    var result: String
    var held: Bool
    /// How many things it judged, when it held.
    var checks: Int?
    /// Why it did not apply.
    var reason: String?
    var violations: [String]
  }

  struct DeviceRow: Encodable {
    var name: String
    var status: String
    var records: Int
    var recordsWithChangeTags: Int
    var queued: Int
    var throttleSeconds: Double
    var retryCount: Int
    var lastError: String?
    var haltReason: String?
  }

  var seed: UInt64?
  var resolver: String
  var deletePolicy: String
  var schemas: String
  var devices: [DeviceRow]
  var steps: Int
  var passed: Bool
  var invariants: [InvariantRow]
  /// How many records each reason of the judge left unjudged as unknowable.
  var setAside: [String: Int]
  /// How many records the end-state judge looked at.
  var recordsJudged: Int
  var statistics: [String: Double]
  var trace: [String]?

  /// Builds the report of `result`, with the devices as `simulation` left them.
  init(simulation: Simulation, result: SimulationResult, includeTrace: Bool) {
    seed = result.seed
    resolver = result.setup.resolver.name
    deletePolicy = "\(result.setup.deletePolicy)"
    schemas = result.setup.schemas.rawValue
    steps = result.steps.count
    passed = result.passed
    invariants = result.invariants.sorted { $0.rawValue < $1.rawValue }.map { invariant in
      let broken = result.violations.filter { $0.invariant == invariant }.map(\.message)
      switch result.outcomes[invariant] {
      case .held(let checks)?:
        return InvariantRow(
          invariant: invariant.rawValue, result: "held", held: true, checks: checks, violations: broken)
      case .notApplicable(let reason)?:
        return InvariantRow(
          invariant: invariant.rawValue, result: "not applicable", held: false, reason: reason, violations: broken)
      case .violated?, nil:
        return InvariantRow(invariant: invariant.rawValue, result: "violated", held: false, violations: broken)
      }
    }
    recordsJudged = result.recordsJudged
    setAside = Dictionary(uniqueKeysWithValues: result.setAside.map { ($0.key.rawValue, $0.value) })
    devices = zip(simulation.clientNames, simulation.clients).map { name, client in
      let d = DeviceDiagnostics(of: client, online: simulation.isOnline(name))
      return DeviceRow(
        name: name, status: d.status.rawValue, records: d.recordCount,
        recordsWithChangeTags: d.recordsWithChangeTags, queued: d.queuedCount, throttleSeconds: d.throttle,
        retryCount: d.retryCount, lastError: d.lastError, haltReason: d.haltReason?.description)
    }
    let s = result.statistics
    statistics = [
      "steps": Double(s.steps), "skippedSteps": Double(s.skippedSteps), "requests": Double(s.requests),
      "lostMessages": Double(s.lostMessages), "conflicts": Double(s.conflicts),
      "transientErrors": Double(s.transientErrors), "halts": Double(s.halts), "serverChanges": Double(s.serverChanges),
      "virtualSeconds": s.virtualSeconds, "quiescenceRounds": Double(s.quiescenceRounds),
      "moreComingPages": Double(s.moreComingPages), "limitExceeded": Double(s.limitExceeded),
      "batchRequestFailed": Double(s.batchRequestFailed), "tokenExpiries": Double(s.tokenExpiries),
      "tornCrashes": Double(s.tornCrashes), "resurrectionsBlocked": Double(s.resurrectionsBlocked),
      "retryAftersHanded": Double(s.retryAftersHanded),
    ]
    trace = includeTrace ? result.trace : nil
  }

  /// Writes the report as JSON or as text.
  /// - Returns: `false` when the JSON could not be written (the error is written instead).
  func write(to output: some TextOutput, json: Bool) -> Bool {
    guard json else {
      output.write(text)
      return true
    }
    do {
      output.write(try JSONText.render(self))
      return true
    } catch {
      output.writeError("error: the report could not be written as JSON: \(error)\n")
      return false
    }
  }

  /// The report as text: a heading, the invariants, the devices, the counts, and the trace when asked for.
  var text: String {
    var text = ""
    if let seed { text += "seed \(seed), " }
    text += "\(devices.count) devices, \(steps) steps, resolver \(resolver), \(deletePolicy), schemas \(schemas)\n\n"
    text += TextTable.render(
      [["invariant", "result"]]
        + invariants.map { row in
          switch row.result {
          case "held": [row.invariant, "held (\(row.checks ?? 0) checked)"]
          case "not applicable": [row.invariant, "not applicable: \(row.reason ?? "")"]
          default: [row.invariant, "VIOLATED: " + row.violations.joined(separator: "; ")]
          }
        })
    text += Coverage.setAsideLine(setAside, recordsJudged: recordsJudged) + "\n"
    text += "\n"
    text += TextTable.render(
      [["device", "status", "records", "with tags", "queued", "retries", "last error"]]
        + devices.map {
          [
            $0.name, $0.haltReason.map { "halted: \($0)" } ?? $0.status, String($0.records),
            String($0.recordsWithChangeTags), String($0.queued), String($0.retryCount), $0.lastError ?? "–",
          ]
        })
    text += "\n"
    let order = [
      "steps", "skippedSteps", "requests", "lostMessages", "conflicts", "transientErrors", "halts", "serverChanges",
      "moreComingPages", "limitExceeded", "batchRequestFailed", "tokenExpiries", "tornCrashes", "resurrectionsBlocked",
      "retryAftersHanded",
      "quiescenceRounds", "virtualSeconds",
    ]
    text += TextTable.render(
      [["statistic", "value"]] + order.map { [$0, String(Int(statistics[$0] ?? 0))] })
    if let trace {
      text += "\ntrace\n" + trace.map { "  " + $0 + "\n" }.joined()
    }
    let inapplicable = invariants.filter { $0.result == "not applicable" }.count
    text +=
      "\n"
      + (passed
        ? "no invariant violated: \(invariants.count - inapplicable) held, \(inapplicable) not applicable\n"
        : "invariants violated\n")
    return text
  }
}
