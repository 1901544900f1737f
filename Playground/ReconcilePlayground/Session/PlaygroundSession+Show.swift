import Foundation
import Reconcile
import ReconcileSimulator

extension PlaygroundSession {
  func show(_ target: ShowTarget, json: Bool) throws(ScriptError) -> String {
    switch target {
    case .server, .device, .diff:
      return try view.show(target, json: json) ?? ""
    case .diagnostics:
      return try view.show(target, json: json) ?? ""
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
      clockOffsets: Dictionary(devices.map { ($0.name, $0.configuration.clockOffset) }) { first, _ in first },
      counts: Dictionary(devices.map { ($0.name, counters[$0.name, default: DeviceCounts()]) }) { first, _ in first })
  }

}
