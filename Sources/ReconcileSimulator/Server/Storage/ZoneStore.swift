import Foundation
import Reconcile

/// One zone's records, its change feed, and the recent versions of each record that serve as conflict ancestors.
struct ZoneStore: Sendable {
  var zone: RecordZone
  /// Deleting and re-creating the zone starts a new incarnation; tokens of an old one expire.
  let incarnation: Int
  var records: [RecordID: Record] = [:]
  /// The type of each record whose latest change is a deletion, for the change feed.
  var deletedTypes: [RecordID: String] = [:]
  var log = ChangeLog<RecordID>()
  var clientChangeToken: Data?
  /// Earlier versions of each record, newest last, keyed by change tag lookup; bounded by `ancestorDepth`.
  var previousVersions: [RecordID: [Record]] = [:]

  init(zone: RecordZone, incarnation: Int) {
    self.zone = zone
    self.incarnation = incarnation
  }

  var token: ZoneChangeToken {
    ZoneChangeToken(
      zoneID: zone.zoneID, incarnation: incarnation, sequence: log.sequence, compactedThrough: log.compactedThrough)
  }

  /// The version of `id` the server held under `tag`, if it still remembers it.
  func version(of id: RecordID, tag: String?) -> Record? {
    guard let tag else { return nil }
    if let current = records[id], current.recordChangeTag == tag { return current }
    return previousVersions[id]?.last { $0.recordChangeTag == tag }
  }

  mutating func store(_ record: Record, ancestorDepth: Int) {
    let id = record.recordID
    if let old = records[id], ancestorDepth > 0 {
      var versions = previousVersions[id] ?? []
      versions.append(old)
      if versions.count > ancestorDepth { versions.removeFirst(versions.count - ancestorDepth) }
      previousVersions[id] = versions
    }
    records[id] = record
    deletedTypes[id] = nil
    log.append(id)
  }

  mutating func remove(_ id: RecordID) -> Record? {
    guard let old = records.removeValue(forKey: id) else { return nil }
    previousVersions[id] = nil
    deletedTypes[id] = old.recordType
    log.append(id)
    return old
  }
}
