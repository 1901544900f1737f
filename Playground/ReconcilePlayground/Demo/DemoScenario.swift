import Foundation
import Reconcile
import ReconcileSimulator

/// One scenario of `demo`: a script, the record it is about, and the columns of its table. The demo runs the script
/// once per built-in resolver (and per delete policy where that matters) and prints one row per run.
struct DemoScenario: Sendable {
  /// The file the script is kept in, under `Playground/Scenarios/`.
  var file: String
  /// The heading.
  var title: String
  /// One line saying what the table shows.
  var explanation: String
  /// The script, exactly as the file in `Playground/Scenarios/` holds it.
  var script: String
  /// The record the value columns show.
  var subject: RecordPath
  /// The fields the value columns show.
  var keys: [String]
  /// The delete policies to run under; a column is added when there is more than one.
  var policies: [DeletePolicy] = [.deleteWins]
  /// The columns after the resolver (and policy).
  var columns: [Column]

  /// What a column shows for one run.
  enum Column: Sendable {
    /// The subject's fields on the server.
    case server
    /// The subject's fields on a device, or that it halted.
    case device(String)
    /// The changes made since devices last agreed that the server does not hold.
    case lost
    /// Whether every device holds what the server holds.
    case converged
    /// How many requests a device sent.
    case requests(String)
    /// How many answers with this error a device got.
    case errors(String, code: String)
    /// How long a device waited, in virtual time.
    case waited(String)
    /// How many records a place holds.
    case records(Place)

    var header: String {
      switch self {
      case .server: "server"
      case .device(let name): name
      case .lost: "lost"
      case .converged: "converged"
      case .requests(let name): "\(name) requests"
      case .errors(_, let code): code
      case .waited(let name): "\(name) waited"
      case .records(let place): "\(place) records"
      }
    }
  }

  /// One run's row, by column header.
  struct Row: Encodable, Sendable {
    var resolver: String
    var deletePolicy: String
    var cells: [String: String]
  }

  /// Runs the scenario under `resolver` and `policy`.
  /// - Returns: The row, or the first error the script met.
  func run(_ resolver: ResolverChoice, _ policy: DeletePolicy) throws(ScriptError) -> Row {
    var session = PlaygroundSession(resolver: ResolverSetting(choice: resolver), deletePolicy: policy)
    for (number, line) in ScriptFile.lines(script) {
      do {
        _ = try session.execute(line: line)
      } catch {
        throw ScriptError("\(file):\(number): \(error.message) (resolver \(resolver), \(policy))")
      }
    }
    var cells: [String: String] = [:]
    for column in columns { cells[column.header] = cell(column, in: session) }
    return Row(resolver: resolver.rawValue, deletePolicy: "\(policy)", cells: cells)
  }

  private func cell(_ column: Column, in session: PlaygroundSession) -> String {
    let id = try? PlaygroundSession.recordID(subject)
    switch column {
    case .server:
      return values(session.serverRecords.first { $0.recordID == id })
    case .device(let name):
      guard let device = session.devices.first(where: { $0.name == name }) else { return "?" }
      if let reason = device.haltReason { return "HALTED (\(reason.code))" }
      return values(id.flatMap { device.record($0) })
    case .lost:
      let lost = session.lostChanges(for: id)
      return lost.isEmpty ? "nothing" : lost.joined(separator: "; ")
    case .converged:
      return session.convergenceProblem().map { "no: \($0)" } ?? "yes"
    case .requests(let name):
      return "\(session.counters[name]?.requests ?? 0)"
    case .errors(let name, let code):
      return "\(session.counters[name]?.errors[code] ?? 0)"
    case .waited(let name):
      return DurationSyntax.render(session.counters[name]?.waited ?? 0)
    case .records(let place):
      switch place {
      case .server: return "\(session.serverRecords.count)"
      case .device(let name): return "\(session.devices.first { $0.name == name }?.records.count ?? 0)"
      }
    }
  }

  private func values(_ record: Record?) -> String {
    guard let record else { return "(deleted)" }
    return keys.map { "\($0)=\(RecordText.value(record, $0))" }.joined(separator: " ")
  }
}
