import Foundation
import Reconcile

extension Simulation {
  /// The prefix of the records ``populate()`` saves: it sorts before the workload's `r…` names, so the records a
  /// device holds list the populated ones first and the workload's after them.
  package static let populatedPrefix = "p"

  /// Fills the zone with the configuration's ``SimulationConfiguration/populatedRecords`` records — saved on the server
  /// by a client that is none of the devices, then synced to every device — before the first step. The workload never
  /// touches them: what a step costs beside them is what it costs in a zone that large.
  /// - Returns: Whether every device holds them (the world became quiescent).
  @discardableResult
  package mutating func populate() -> Bool {
    let count = source.scheduler?.configuration.populatedRecords ?? 0
    guard count > 0, quiesce() else { return count == 0 }
    let seeder = ClientIdentity(userRecordName: Self.user, deviceName: "populate")
    guard (try? server.modifyZones(ModifyZonesRequest(saving: [RecordZone(zoneID: Self.zoneID)]), as: seeder)) != nil
    else { return false }
    let width = String(count).count
    var start = 0
    while start < count {
      let end = min(count, start + setup.limits.maximumBatchItems)
      let records = (start..<end).map { index -> Record in
        let digits = String(index)
        let name = Self.populatedPrefix + String(repeating: "0", count: width - digits.count) + digits
        var record = Record(recordType: "Note", recordID: RecordID(uncheckedRecordName: name, zoneID: Self.zoneID))
        record["title"] = .string(name)
        return record
      }
      guard let reply = try? server.modifyRecords(ModifyRecordsRequest(saving: records), as: seeder),
        reply.failures.isEmpty
      else { return false }
      start = end
    }
    return quiesce()
  }
}
