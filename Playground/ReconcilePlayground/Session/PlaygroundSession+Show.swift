import Foundation
import Reconcile
import ReconcileSimulator

extension PlaygroundSession {
  /// One record in a `show` listing.
  struct RecordRow: Encodable {
    var record: String
    var changeTag: String?
    var queued: String?
    var fields: [String: JSONValue]
  }

  /// One device in `show diagnostics`.
  struct DiagnosticsRow: Encodable {
    var device: String
    var status: String
    var queued: Int
    var records: Int
    var requests: Int
    var errors: [String: Int]
    var waitedSeconds: Double
    var clockOffsetSeconds: Double
    var appVersion: String?
    var lastError: String?
    var haltReason: String?
  }

  /// One device in `show NAME --json`.
  struct DeviceListing: Encodable {
    var device: String
    var status: String
    var queued: Int
    var haltReason: String?
    var records: [RecordRow]
  }

  /// One differing field in `show diff`.
  struct DiffRow: Encodable {
    var record: String
    var key: String
    var values: [String: String]
  }

  func show(_ target: ShowTarget, json: Bool) throws(ScriptError) -> String {
    switch target {
    case .server:
      let rows = serverRecords.map {
        RecordRow(record: RecordText.path($0), changeTag: $0.recordChangeTag, fields: RecordText.json($0))
      }
      if json { return try Self.json(["records": rows]) }
      guard !serverRecords.isEmpty else { return "the server has no records" }
      return "server: \(serverRecords.count) record\(serverRecords.count == 1 ? "" : "s")\n"
        + TextTable.render(
          [["record", "tag", "fields"]]
            + serverRecords.map { [RecordText.path($0), $0.recordChangeTag ?? "", RecordText.fields($0)] })
    case .device(let name):
      let device = devices[try index(of: name)]
      let rows = device.records.map { record in
        RecordRow(
          record: RecordText.path(record), changeTag: record.recordChangeTag,
          queued: device.storage.pending[record.recordID].map { "\($0)" }, fields: RecordText.json(record))
      }
      if json {
        return try Self.json(
          DeviceListing(
            device: device.name, status: "\(device.status)", queued: device.storage.pending.count,
            haltReason: device.haltReason?.description, records: rows))
      }
      var text = "\(device.name): \(device.status), \(device.storage.pending.count) queued"
      if let version = device.configuration.schema.flatMap({ $0.recordSchemas.values.first?.version }) {
        text += ", app \(version)"
      }
      if device.configuration.clockOffset != 0 {
        text += ", clock \(Self.offsetText(device.configuration.clockOffset)) true time"
      }
      if let reason = device.haltReason { text += "\nhalted: \(reason)" }
      guard !device.records.isEmpty else { return text + "\nno records" }
      return text + "\n"
        + TextTable.render(
          [["record", "tag", "queued", "fields"]]
            + rows.indices.map { row in
              let record = device.records[row]
              return [
                rows[row].record, record.recordChangeTag ?? "", rows[row].queued ?? "", RecordText.fields(record),
              ]
            })
    case .diff:
      let rows = differences()
      if json { return try Self.json(["differences": rows]) }
      guard !rows.isEmpty else { return "no differences: every device holds what the server holds" }
      let places = ["server"] + devices.map(\.name)
      return TextTable.render(
        [["record", "key"] + places] + rows.map { row in [row.record, row.key] + places.map { row.values[$0] ?? "" } })
    case .diagnostics:
      let rows = devices.map(diagnosticsRow)
      if json { return try Self.json(["devices": rows]) }
      guard !rows.isEmpty else { return "no devices" }
      return TextTable.render(
        [["device", "status", "queued", "records", "requests", "errors", "waited", "clock", "app", "last error"]]
          + rows.map { row in
            [
              row.device, row.status, "\(row.queued)", "\(row.records)", "\(row.requests)",
              row.errors.isEmpty
                ? "0" : row.errors.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "),
              DurationSyntax.render(row.waitedSeconds), DurationSyntax.render(row.clockOffsetSeconds),
              row.appVersion ?? "-", row.haltReason.map { "HALTED: \($0)" } ?? row.lastError ?? "",
            ]
          })
    case .log:
      if json { return try Self.json(["log": log]) }
      guard !log.isEmpty else { return "no requests yet" }
      return TextTable.render(
        [["time", "device", "request", "answer"]]
          + log.map { ["+" + DurationSyntax.render($0.time), $0.device, $0.request, $0.answer] })
    }
  }

  /// The server's records in the playground's zone, for every user a device signed in as, sorted.
  var serverRecords: [Record] {
    Set(devices.compactMap(\.configuration.userRecordName)).sorted().flatMap {
      server.records(in: Simulation.zoneID, ownedBy: $0)
    }.sorted { $0.recordID < $1.recordID }
  }

  /// Every (record, key) on which the server and the devices do not all agree.
  func differences() -> [DiffRow] {
    let server = Dictionary(serverRecords.map { ($0.recordID, $0) }, uniquingKeysWith: { first, _ in first })
    var ids = Set(server.keys)
    for device in devices { ids.formUnion(device.records.map(\.recordID)) }
    var rows: [DiffRow] = []
    for id in ids.sorted() {
      let holders: [(String, Record?)] = [("server", server[id])] + devices.map { ($0.name, $0.record(id)) }
      let present = holders.compactMap(\.1)
      guard let sample = present.first else { continue }
      let path = RecordText.path(sample)
      var keys = Set<String>()
      for record in present { keys.formUnion(RecordText.shownKeys(record)) }
      if present.count < holders.count { keys.insert("(record)") }
      for key in keys.sorted() {
        let values = holders.map {
          ($0.0, key == "(record)" ? ($0.1 == nil ? "(absent)" : "present") : RecordText.value($0.1, key))
        }
        guard Set(values.map(\.1)).count > 1 else { continue }
        rows.append(
          DiffRow(record: path, key: key, values: Dictionary(values, uniquingKeysWith: { first, _ in first })))
      }
    }
    return rows
  }

  private func diagnosticsRow(_ device: SimulatedDevice) -> DiagnosticsRow {
    let diagnostics = device.diagnostics
    let counter = counters[device.name, default: SyncCounters()]
    return DiagnosticsRow(
      device: device.name, status: "\(diagnostics.status)", queued: diagnostics.queuedCount,
      records: diagnostics.recordCount, requests: counter.requests, errors: counter.errors,
      waitedSeconds: counter.waited, clockOffsetSeconds: device.configuration.clockOffset,
      appVersion: device.configuration.schema.flatMap { $0.recordSchemas.values.first?.version.description },
      lastError: diagnostics.lastError, haltReason: diagnostics.haltReason?.description)
  }

  private static func json(_ value: some Encodable) throws(ScriptError) -> String {
    do {
      return try JSONText.render(value).trimmingCharacters(in: .newlines)
    } catch {
      throw ScriptError("could not write JSON: \(error)")
    }
  }
}
