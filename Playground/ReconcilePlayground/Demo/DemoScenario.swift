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

  /// Runs the scenario under `resolver` and `policy`, in the one world every line runs in.
  /// - Returns: The row, or the first error the script met.
  func run(_ resolver: ResolverChoice, _ policy: DeletePolicy) throws(ScriptError) -> Row {
    var session = SimulationSession()
    var intents = Intents()
    let lines = ["resolver \(resolver.rawValue)", "delete-policy \(policy)"] + ScriptFile.lines(script).map(\.text)
    for (offset, line) in lines.enumerated() {
      do {
        _ = try session.interpret(line)
      } catch {
        throw ScriptError("\(file):\(offset - 1): \(error.message) (resolver \(resolver), \(policy))")
      }
      intents.note(try? ScriptParser.parse(line), converged: session.view?.convergenceProblem() == nil)
    }
    var cells: [String: String] = [:]
    let view = session.view
    for column in columns { cells[column.header] = cell(column, in: view, intents: intents) }
    return Row(resolver: resolver.rawValue, deletePolicy: "\(policy)", cells: cells)
  }

  private func cell(_ column: Column, in view: WorldView?, intents: Intents) -> String {
    let id = try? subject.recordID()
    let counts = view?.counts ?? [:]
    switch column {
    case .server:
      return values(view?.serverRecords.first { $0.recordID == id })
    case .device(let name):
      guard let device = view?.devices.first(where: { $0.name == name }) else { return "?" }
      if let reason = device.haltReason { return "HALTED (\(reason.code))" }
      return values(id.flatMap { device.record($0) })
    case .lost:
      let lost = intents.lost(for: id, onServer: view?.serverRecords ?? [])
      return lost.isEmpty ? "nothing" : lost.joined(separator: "; ")
    case .converged:
      return view?.convergenceProblem().map { "no: \($0)" } ?? "yes"
    case .requests(let name):
      return "\(counts[name]?.requests ?? 0)"
    case .errors(let name, let code):
      return "\(counts[name]?.errors[code] ?? 0)"
    case .waited(let name):
      return DurationSyntax.render(counts[name]?.waited ?? 0)
    case .records(let place):
      switch place {
      case .server: return "\(view?.serverRecords.count ?? 0)"
      case .device(let name): return "\(view?.devices.first { $0.name == name }?.records.count ?? 0)"
      }
    }
  }

  private func values(_ record: Record?) -> String {
    guard let record else { return "(deleted)" }
    return keys.map { "\($0)=\(RecordText.value(record, $0))" }.joined(separator: " ")
  }
}

/// What each device changed since the devices last agreed, to tell what a run lost: the demo's `lost` column.
private struct Intents {
  /// A device's changes to one record since the devices last agreed.
  enum Intent {
    case fields([String: FieldValue?])
    case delete
  }

  private var byDevice: [String: [RecordID: Intent]] = [:]
  private var settled = false

  /// Notes what a line changed; once the devices agree, the next change starts afresh.
  mutating func note(_ command: ScriptCommand?, converged: Bool) {
    switch command {
    case .create(let device, let paths, let fields), .edit(let device, let paths, let fields):
      start()
      for path in paths {
        guard let id = try? path.recordID() else { continue }
        var changes: [String: FieldValue?] = [:]
        if case .fields(let earlier) = byDevice[device]?[id] { changes = earlier }
        for field in fields { changes[field.key] = .some(field.value) }
        byDevice[device, default: [:]][id] = .fields(changes)
      }
    case .delete(let device, let paths):
      start()
      for path in paths { if let id = try? path.recordID() { byDevice[device, default: [:]][id] = .delete } }
    case .syncAll, .wait, .sync:
      if converged { settled = true }
    default: break
    }
  }

  private mutating func start() {
    if settled {
      byDevice.removeAll()
      settled = false
    }
  }

  /// The changes to `id` (or to every record) the server does not hold.
  func lost(for id: RecordID?, onServer records: [Record]) -> [String] {
    let server = Dictionary(records.map { ($0.recordID, $0) }) { first, _ in first }
    var lost: [String] = []
    for (device, intents) in byDevice.sorted(by: { $0.key < $1.key }) {
      for (recordID, intent) in intents.sorted(by: { $0.key < $1.key }) where id == nil || recordID == id {
        let onServer = server[recordID]
        switch intent {
        case .delete:
          if onServer != nil { lost.append("\(device)'s delete") }
        case .fields(let changes):
          guard let onServer else {
            lost.append("\(device)'s edit (deleted)")
            continue
          }
          for (key, value) in changes.sorted(by: { $0.key < $1.key })
          where (onServer[key] ?? onServer.encryptedValuesByKey[key]) != value {
            let shown = onServer.encryptedValuesByKey[key] != nil ? RecordText.redacted : ValueSyntax.render(value)
            lost.append("\(device): \(key)=\(shown)")
          }
        }
      }
    }
    return lost
  }
}
