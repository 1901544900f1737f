import Foundation
import Reconcile

/// One zone's records, its change feed, and the recent versions of each record that serve as conflict ancestors.
struct ZoneStore: Sendable {
  var zone: RecordZone
  /// Deleting and re-creating the zone starts a new incarnation; tokens of an old one expire.
  let incarnation: Int
  private(set) var records: [RecordID: Record] = [:]
  /// For each record, the records holding a reference to it that deletes them with it (`.deleteSelf`): a deletion
  /// cascades through this index rather than reading every record of the zone.
  private(set) var deletingReferrers: [RecordID: Set<RecordID>] = [:]
  /// The type of each record whose latest change is a deletion, for the change feed.
  var deletedTypes: [RecordID: String] = [:]
  var log = ChangeLog<RecordID>()
  var clientChangeToken: Data?
  /// Earlier versions of each record, newest last, keyed by change tag lookup; bounded by `ancestorDepth`.
  var previousVersions: [RecordID: [Record]] = [:]
  /// Who takes part in each share record of the zone, and what anyone with its URL may do: the part of a `CKShare`
  /// that is not a field. The share's record itself is in ``records`` and the change log like any record.
  var shares: [RecordID: ShareMembers] = [:]

  /// The part of a share that is not a record field.
  struct ShareMembers: Sendable, Hashable {
    var participants: [Share.Participant] = []
    var publicPermission: Share.Permission = .none

    /// The users the share gives access to: every listed participant but the owner and those removed.
    var invitees: Set<String> {
      Set(
        participants.filter { $0.role != .owner && $0.acceptanceStatus != .removed }
          .compactMap(\.userIdentity.userRecordName))
    }
  }

  /// The ID of the zone's zone-wide share record, `cloudkit.zoneshare`; made once, as access checks read it.
  let zoneShareID: RecordID?

  /// What `user` may do in this zone by its zone-wide share: `nil` unless the share lists them, not removed and not
  /// as owner, with read-only or read-write permission.
  func sharePermission(for user: String) -> SharePermission? {
    guard let id = zoneShareID, records[id] != nil, let members = shares[id] else { return nil }
    guard
      let participant = members.participants.first(where: {
        $0.userIdentity.userRecordName == user && $0.role != .owner && $0.acceptanceStatus != .removed
      })
    else { return nil }
    switch participant.permission {
    case .readWrite: return .readWrite
    case .readOnly: return .readOnly
    case .none, .unknown: return nil
    }
  }

  /// The share record `id` with its participants, when the zone holds one.
  func share(_ id: RecordID) -> Share? {
    guard let record = records[id], let members = shares[id] else { return nil }
    return try? Share(record: record, participants: members.participants, publicPermission: members.publicPermission)
  }

  init(zone: RecordZone, incarnation: Int) {
    self.zone = zone
    self.incarnation = incarnation
    zoneShareID = try? RecordID(recordName: ZoneID.zoneWideShareRecordName, zoneID: zone.zoneID)
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
    // Each save hashes the ID once per table it touches: the old version comes back from the write itself.
    let old = records.updateValue(record, forKey: id)
    if let old, ancestorDepth > 0 { Self.append(old, to: &previousVersions[id, default: []], keeping: ancestorDepth) }
    let (before, after) = (old.map(Self.deletingTargets) ?? [], Self.deletingTargets(of: record))
    if before != after { index(id, dropping: before, adding: after) }
    if !deletedTypes.isEmpty { deletedTypes[id] = nil }
    log.append(id)
  }

  /// The records `record` references with `.deleteSelf` (in its values and their lists), sorted.
  static func deletingTargets(of record: Record) -> [RecordID] {
    // Most records reference nothing: one look at the values' cases says so.
    let refers = record.valueTable.values.contains {
      switch $0 {
      case .reference, .list: true
      default: false
      }
    }
    guard refers else { return [] }
    var targets: [RecordID] = []
    func collect(_ value: FieldValue) {
      switch value {
      case .reference(let reference) where reference.action == .deleteSelf: targets.append(reference.recordID)
      case .list(let items): items.forEach(collect)
      default: break
      }
    }
    for (_, value) in record.valueTable { collect(value) }
    return targets.isEmpty ? [] : Set(targets).sorted()
  }

  /// Moves `referrer` in ``deletingReferrers`` from the targets it no longer references to the ones it does.
  private mutating func index(_ referrer: RecordID, dropping old: [RecordID], adding new: [RecordID]) {
    for target in old {
      deletingReferrers[target]?.remove(referrer)
      if deletingReferrers[target]?.isEmpty == true { deletingReferrers[target] = nil }
    }
    for target in new { deletingReferrers[target, default: []].insert(referrer) }
  }

  /// Appends `version` to `versions`, keeping the newest `depth`.
  private static func append(_ version: Record, to versions: inout [Record], keeping depth: Int) {
    versions.append(version)
    if versions.count > depth { versions.removeFirst(versions.count - depth) }
  }

  mutating func remove(_ id: RecordID) -> Record? {
    guard let old = records.removeValue(forKey: id) else { return nil }
    index(id, dropping: Self.deletingTargets(of: old), adding: [])
    previousVersions[id] = nil
    deletedTypes[id] = old.recordType
    log.append(id)
    return old
  }
}
