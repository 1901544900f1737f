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
  /// What happens in it: the script's own comment lines under its title.
  var summary: String {
    ScriptFile.lines(script).isEmpty
      ? ""
      : script.split(separator: "\n").dropFirst()
        .prefix { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) }.joined(separator: " ")
  }
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
  /// The `resolver` lines' arguments the demo runs it under: every built-in unless given.
  var resolvers: [String] = ResolverChoice.allCases.map(\.rawValue)

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
    /// What the run's clients decided — merges key by key, deletions — as the trace reports them.
    var decisions: [String]
  }

  /// Runs the scenario under `resolver` (a `resolver` line's arguments) and `policy`, in the one world every line
  /// runs in.
  /// - Returns: The row, or the first error the script met.
  func run(_ resolver: String, _ policy: DeletePolicy) throws(ScriptError) -> Row {
    var session = SimulationSession()
    var intents = Intents()
    let lines = ["resolver \(resolver)", "delete-policy \(policy)"] + ScriptFile.lines(script).map(\.text)
    // Each line's view is the next line's view before it: one view per line.
    var view = session.view
    for (offset, line) in lines.enumerated() {
      let before = view
      let command: ScriptCommand?
      do {
        command = try session.parse(line)
        _ = try session.interpret(command, line: line)
      } catch {
        throw ScriptError("\(file):\(offset - 1): \(error.message) (resolver \(resolver), \(policy))")
      }
      view = session.view
      intents.note(command, converged: view?.convergenceProblem() == nil, before: before, after: view)
    }
    var cells: [String: String] = [:]
    for column in columns { cells[column.header] = cell(column, in: view, intents: intents) }
    var decisions: [String] = []
    for (device, decision) in view?.decisions ?? [] {
      if case .fetched = decision { continue }
      let line = "\(device): \(decision)"
      if !decisions.contains(line) { decisions.append(line) }
    }
    return Row(resolver: resolver, deletePolicy: "\(policy)", cells: cells, decisions: decisions)
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
      let (lost, unsent) = intents.lost(for: id, onServer: view?.serverRecords ?? [], devices: view?.devices ?? [])
      let waiting = unsent.isEmpty ? "" : " (unsent, kept: \(unsent.joined(separator: "; ")))"
      return (lost.isEmpty ? "nothing" : lost.joined(separator: "; ")) + waiting
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
    /// Each key's value as the device showed it before its first change and as the user left it.
    case fields([String: (before: FieldValue?, after: FieldValue?)])
    case delete
  }

  private var byDevice: [String: [RecordID: Intent]] = [:]
  private var settled = false

  /// Notes what a line changed, as the device shows it right after (so `+=` notes the sum); once the devices agree,
  /// the next change starts afresh.
  mutating func note(_ command: ScriptCommand?, converged: Bool, before: WorldView?, after view: WorldView?) {
    switch command {
    case .create(let device, let paths, let fields), .edit(let device, let paths, let fields):
      start()
      for path in paths {
        guard let id = try? path.recordID() else { continue }
        var changes: [String: (before: FieldValue?, after: FieldValue?)] = [:]
        if case .fields(let earlier) = byDevice[device]?[id] { changes = earlier }
        let was = before?.devices.first { $0.name == device }?.record(id)
        let shown = view?.devices.first { $0.name == device }?.record(id)
        for field in fields {
          func value(_ record: Record?) -> FieldValue? {
            field.encrypted ? record?.encryptedValues[field.key] : record?[field.key]
          }
          changes[field.key] = (changes[field.key]?.before ?? value(was), value(shown))
        }
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

  /// The changes to `id` (or to every record) the server does not hold: `lost`, or `unsent` when the device that made
  /// one still holds it (a halted device keeps its edit until the app is updated).
  func lost(for id: RecordID?, onServer records: [Record], devices: [WorldView.Device]) -> (
    lost: [String], unsent: [String]
  ) {
    let server = Dictionary(records.map { ($0.recordID, $0) }) { first, _ in first }
    var lost: [String] = []
    var unsent: [String] = []
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
          for (key, change) in changes.sorted(by: { $0.key < $1.key })
          where !Self.kept(change, in: onServer[key] ?? onServer.encryptedValuesByKey[key]) {
            let shown =
              onServer.encryptedValuesByKey[key] != nil ? RecordText.redacted : ValueSyntax.render(change.after)
            let held = devices.first { $0.name == device }?.record(recordID)
            if let held, Self.kept(change, in: held[key] ?? held.encryptedValuesByKey[key]) {
              unsent.append("\(device): \(key)=\(shown)")
            } else {
              lost.append("\(device): \(key)=\(shown)")
            }
          }
        }
      }
    }
    return (lost, unsent)
  }

  /// Whether a change survives in the value the server ended with: the value itself, or, for text, every line the
  /// user added still there and every line the user removed gone (a text merge keeps an edit without keeping the
  /// user's whole text).
  static func kept(_ change: (before: FieldValue?, after: FieldValue?), in ended: FieldValue?) -> Bool {
    if ended == change.after { return true }
    guard case .string(let after)? = change.after, case .string(let final)? = ended else { return false }
    let before = change.before?.stringValue ?? ""
    func lines(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }
    let (old, new, merged) = (lines(before), lines(after), lines(final))
    let added = new.filter { !old.contains($0) }
    let removed = old.filter { !new.contains($0) }
    return added.allSatisfy(merged.contains) && !removed.contains(where: merged.contains)
  }
}
