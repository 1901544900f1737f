package import Foundation
package import Reconcile

/// Every version each record of one zone took on the server, read from the server's event log: when a user's change
/// landed, and what a device had seen when it acted.
package struct ServerTimeline: Sendable {
  /// One version of one record; `record` is `nil` when the record was deleted (alone or with its zone).
  package struct Version: Sendable {
    package var position: Int
    package var time: Date
    package var device: String?
    package var record: Record?
    package var isZoneReset: Bool
    /// For a zone deletion: whether it stands for the user deleting the record
    /// (`ZoneLossPolicy.dropsLocalData(after:)`).
    package var wipes = false
  }

  package private(set) var versions: [RecordID: [Version]] = [:]
  /// (time, position) of every event, in order, to find the history position at a true time.
  private var clock: [(time: Date, position: Int)] = []

  /// The timeline of `zoneID` in `owner`'s database; `response` is how devices read a client's zone deletion.
  package init(
    events: [ServerEvent], zoneID: ZoneID, owner: String, response: ZoneLossPolicy = .dropLocalData
  ) {
    var live: Set<RecordID> = []
    for event in events where event.owner == owner {
      clock.append((event.time, event.sequence))
      switch event.kind {
      case .saved(let record) where record.recordID.zoneID == zoneID:
        live.insert(record.recordID)
        append(
          record.recordID,
          Version(
            position: event.sequence, time: event.time, device: event.client?.deviceName, record: record,
            isZoneReset: false))
      case .deleted(let id, _) where id.zoneID == zoneID:
        live.remove(id)
        append(
          id,
          Version(
            position: event.sequence, time: event.time, device: event.client?.deviceName, record: nil,
            isZoneReset: false))
      case .zoneDeleted(let zone, let reason) where zone == zoneID:
        let wipes = response.dropsLocalData(after: reason)
        for id in live.sorted() {
          append(
            id,
            Version(
              position: event.sequence, time: event.time, device: nil, record: nil, isZoneReset: true, wipes: wipes))
        }
        live.removeAll()
      default:
        break
      }
    }
  }

  private mutating func append(_ id: RecordID, _ version: Version) { versions[id, default: []].append(version) }

  /// The last history position at or before `time` (0 before any event).
  package func position(at time: Date) -> Int {
    var low = 0
    var high = clock.count
    while low < high {
      let mid = (low + high) / 2
      if clock[mid].time <= time { low = mid + 1 } else { high = mid }
    }
    return low == 0 ? 0 : clock[low - 1].position
  }

  /// Whether the record existed on the server just after history position `position`.
  package func exists(_ id: RecordID, at position: Int) -> Bool {
    guard let last = versions[id]?.last(where: { $0.position <= position }) else { return false }
    return last.record != nil
  }

  /// The first version `device` saved at or after `time` that `matches`.
  package func firstSave(of id: RecordID, by device: String, from time: Date, where matches: (Record) -> Bool)
    -> Version?
  {
    versions[id]?.first { version in
      guard version.device == device, version.time >= time, let record = version.record else { return false }
      return matches(record)
    }
  }

  /// The first deletion of the record (alone or with its zone) at or after `time`.
  package func firstDeletion(of id: RecordID, from time: Date) -> Version? {
    versions[id]?.first { $0.time >= time && $0.record == nil }
  }

  /// The first deletion of the record by `device` at or after `time` and before `end`.
  package func firstDeletion(of id: RecordID, by device: String, from time: Date, before end: Date) -> Version? {
    versions[id]?.first { $0.time >= time && $0.time < end && $0.record == nil && $0.device == device }
  }

  /// The last deletion of the record: alone, or with its zone when that stands for the user deleting it.
  package func lastDeletion(of id: RecordID) -> Version? {
    versions[id]?.last { $0.record == nil && (!$0.isZoneReset || $0.wipes) }
  }
}
