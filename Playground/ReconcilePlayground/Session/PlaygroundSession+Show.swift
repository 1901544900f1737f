import Foundation
import Reconcile
import ReconcileSimulator

extension PlaygroundSession {
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

  func show(_ target: ShowTarget, json: Bool) throws(ScriptError) -> String {
    switch target {
    case .server, .device, .diff:
      return try view.show(target, json: json) ?? ""
    case .diagnostics:
      let rows = devices.map(diagnosticsRow)
      if json { return try WorldView.json(["devices": rows]) }
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
      if json { return try WorldView.json(["log": log]) }
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

  /// What `show` and `expect` read of this world.
  var view: WorldView {
    WorldView(
      server: server, clients: devices,
      users: Dictionary(devices.compactMap { device in device.configuration.userRecordName.map { (device.name, $0) } })
      {
        first, _ in first
      },
      clockOffsets: Dictionary(devices.map { ($0.name, $0.configuration.clockOffset) }) { first, _ in first })
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
}
