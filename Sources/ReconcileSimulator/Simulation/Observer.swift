import Foundation
import Reconcile

/// Watches a run — every local write and every server change — and judges the invariants afterwards.
///
/// Field values written by the scheduler are unique (`device.step` strings, the step number for `rank`), so a value
/// found on the server identifies the write that put it there.
struct Observer: Sendable {
  /// One local write of one key.
  struct Write: Sendable {
    var order: Int
    var device: String
    var recordID: RecordID
    var key: String
    var value: FieldValue?
    /// The server history position of the version the device had when it wrote (0 for none).
    var base: Int
    var editCount: Int64?
    var stamp: HybridTimestamp?
  }

  var consumed = 0
  var writes: [Write] = []
  var localDeletes: [RecordID: [(device: String, order: Int)]] = [:]
  var damagedCopies: [RecordID: [(device: String, order: Int)]] = [:]
  /// Server history position of each change tag.
  var tagPosition: [String: Int] = [:]
  /// Every value each key of each record took on the server, with its history position (`nil` = removed).
  var keyHistory: [RecordID: [String: [(position: Int, value: FieldValue?)]]] = [:]
  var lastVersion: [RecordID: Record] = [:]
  var deletions: [RecordID: [Int]] = [:]
  var zoneResets: [Int] = []
  /// History positions at which the server forgot its change history (token expiry).
  var compactions: [Int] = []
  var violations: [InvariantViolation] = []
  private var writeCounter = 0

  mutating func observe(_ event: ServerEvent, setup: SimulationSetup, upgraded: Set<String>) {
    let position = event.sequence
    switch event.kind {
    case .saved(let record):
      let id = record.recordID
      for key in record.allKeys where Self.value(of: key, in: record) == LocalRecord.corruptedValue {
        violations.append(
          InvariantViolation(
            .damagedDataNeverUploaded,
            "\(event.client?.deviceName ?? "?") uploaded the damaged value of \(id.recordName).\(key) (#\(position))"))
      }
      if let tag = record.recordChangeTag {
        if tagPosition[tag] != nil {
          violations.append(InvariantViolation(.serverInvariants, "change tag \(tag) was issued twice"))
        }
        tagPosition[tag] = position
      }
      let previous = lastVersion[id]
      // Excused: a zone deleted after the record was (every device then re-uploads its copies), or a device
      // re-uploading after a zone deletion when the server has since forgotten the deletion (compacted history).
      if previous == nil, setup.deletePolicy == .deleteWins, let deleted = deletions[id]?.last,
        !zoneResets.contains(where: { $0 > deleted }),
        !(zoneResets.contains { $0 < position } && compactions.contains { $0 >= deleted && $0 < position })
      {
        violations.append(
          InvariantViolation(
            .noResurrection,
            "\(id.recordName) was deleted (#\(deleted)) and saved again by \(event.client?.deviceName ?? "?") (#\(position))"
          ))
      }
      var history = keyHistory[id] ?? [:]
      for key in Set(record.allKeys).union(previous?.allKeys ?? []) {
        let old = previous.map { Self.value(of: key, in: $0) } ?? nil
        let new = Self.value(of: key, in: record)
        guard old != new || previous == nil else { continue }
        history[key, default: []].append((position, new))
        if new == nil, old != nil, let writer = event.client?.deviceName,
          let known = AppSchemas.knownKeys(upgraded: upgraded.contains(writer), scenario: setup.schemas),
          !known.contains(key)
        {
          violations.append(
            InvariantViolation(
              .unknownKeysKept, "\(writer) removed \(key) of \(id.recordName), a key its app does not know"))
        }
      }
      keyHistory[id] = history
      lastVersion[id] = record
    case .deleted(let id, _):
      deletions[id, default: []].append(position)
      lastVersion[id] = nil
    case .zoneDeleted:
      zoneResets.append(position)
      lastVersion.removeAll()
    case .zoneCreated:
      break
    }
  }

  static func value(of key: String, in record: Record) -> FieldValue? {
    record[key] ?? record.encryptedValuesByKey[key]
  }

  /// Notes a local edit: each user key written, with the version the device based it on.
  mutating func noteEdit(
    device: SimulatedDevice,
    recordID: RecordID,
    values: [String: FieldValue?],
    setup: SimulationSetup
  ) {
    guard let local = device.storage.records[recordID] else { return }
    let base = local.lastKnownServer?.recordChangeTag.flatMap { tagPosition[$0] } ?? 0
    var count: Int64?
    if case .int64(let n)? = local.current[ResolverChoice.editCountKey] { count = n }
    let stamps =
      (try? HybridLogicalClockMerge(stampsKey: ResolverChoice.fieldStampsKey).stamps(in: local.current)) ?? [:]
    for key in values.keys.sorted() {
      writeCounter += 1
      writes.append(
        Write(
          order: writeCounter, device: device.name, recordID: recordID, key: key, value: local.current[key], base: base,
          editCount: count, stamp: stamps[key]))
    }
  }

  mutating func noteDelete(device: String, recordID: RecordID) {
    writeCounter += 1
    localDeletes[recordID, default: []].append((device, writeCounter))
  }

  /// Notes damage to a device's stored copy: its writes to the record so far may be lost with the copy, which the
  /// device throws away, so they count as withdrawn.
  mutating func noteDamage(device: String, recordID: RecordID) {
    writeCounter += 1
    damagedCopies[recordID, default: []].append((device, writeCounter))
  }

  // MARK: Judging

  /// One-sided changes lost either way: a write that never reached the server although nothing excuses it (below), or a
  /// change the server held that a save then replaced with an *older* value of the key (a stale copy written back),
  /// with no deletion of the record or its zone in between.
  func lostOneSidedChanges() -> [InvariantViolation] {
    lostOneSidedWrites() + staleOverwrites()
  }

  /// Changes replaced by a value the key had held before.
  func staleOverwrites() -> [InvariantViolation] {
    var found: [InvariantViolation] = []
    for (id, keys) in keyHistory.sorted(by: { $0.key < $1.key }) {
      for (key, history) in keys.sorted(by: { $0.key < $1.key }) {
        var firstSeen: [FieldValue: Int] = [:]
        for (index, entry) in history.enumerated() {
          guard let value = entry.value else { continue }
          if let earlier = firstSeen[value], index > 0, let displaced = history[index - 1].value, displaced != value {
            let from = history[index - 1].position
            let resetBetween =
              zoneResets.contains { $0 > from && $0 <= entry.position }
              || deletions[id]?.contains { $0 > from && $0 <= entry.position } == true
            if !resetBetween {
              found.append(
                InvariantViolation(
                  .oneSidedChangesKept,
                  "\(key) of \(id.recordName) changed to \(displaced) (#\(from)), then a save wrote back its older value \(value) (first held at #\(earlier)) at #\(entry.position)"
                ))
            }
          }
          if firstSeen[value] == nil { firstSeen[value] = entry.position }
        }
      }
    }
    return found
  }

  /// Writes that never reached the server although nothing excuses them: no later write of the same key by the same
  /// device, no change of the key on the server after the version the device based it on (a concurrent write, or the
  /// device's own earlier write whose acknowledgement was lost), no deletion of the record or its zone after that
  /// version, no later local deletion. Removals are not judged (a removal leaves no unique value to find).
  func lostOneSidedWrites() -> [InvariantViolation] {
    var found: [InvariantViolation] = []
    var latestByDevice: [String: Int] = [:]
    for write in writes {
      latestByDevice["\(write.device)|\(write.recordID.recordName)|\(write.key)"] = write.order
    }
    for write in writes {
      guard let value = write.value else { continue }
      let history = keyHistory[write.recordID]?[write.key] ?? []
      if history.contains(where: { $0.value == value }) { continue }
      if latestByDevice["\(write.device)|\(write.recordID.recordName)|\(write.key)"] != write.order { continue }
      if history.contains(where: { $0.position > write.base }) { continue }
      if deletions[write.recordID]?.contains(where: { $0 > write.base }) == true { continue }
      if zoneResets.contains(where: { $0 > write.base }) { continue }
      if withdrawn(write) { continue }
      found.append(
        InvariantViolation(
          .oneSidedChangesKept,
          "\(write.device) set \(write.key) of \(write.recordID.recordName) to \(value) (based on #\(write.base)); "
            + "no other write touched \(write.key), yet the server never held it"))
    }
    return found
  }

  /// Whether the device that made `write` deleted the record afterwards (its own deletion withdraws the write), or
  /// lost its copy to storage damage afterwards (the damaged copy, unsent edits and all, is thrown away).
  private func withdrawn(_ write: Write) -> Bool {
    let later = { (entry: (device: String, order: Int)) in entry.device == write.device && entry.order > write.order }
    return localDeletes[write.recordID]?.contains(where: later) == true
      || damagedCopies[write.recordID]?.contains(where: later) == true
  }

  /// Records never deleted whose final edit count is below the highest any device wrote (and did not withdraw by
  /// deleting the record itself).
  func lowerEditCounts(final: [Record]) -> [InvariantViolation] {
    var highest: [RecordID: Int64] = [:]
    for write in writes where !withdrawn(write) {
      if let count = write.editCount { highest[write.recordID] = max(highest[write.recordID] ?? 0, count) }
    }
    return final.compactMap { record in
      guard deletions[record.recordID] == nil, zoneResets.isEmpty, let top = highest[record.recordID] else {
        return nil
      }
      guard case .int64(let count)? = record[ResolverChoice.editCountKey], count >= top else {
        return InvariantViolation(
          .highestEditCountKept,
          "\(record.recordID.recordName) ended with edit count \(record[ResolverChoice.editCountKey]?.description ?? "none"), but a device wrote \(top)"
        )
      }
      return nil
    }
  }

  /// Fields whose final stamp is older than the latest any device wrote.
  func olderStamps(final: [Record]) -> [InvariantViolation] {
    var latest: [RecordID: [String: HybridTimestamp]] = [:]
    for write in writes where !withdrawn(write) {
      guard let stamp = write.stamp else { continue }
      if latest[write.recordID]?[write.key].map({ $0 < stamp }) ?? true {
        latest[write.recordID, default: [:]][write.key] = stamp
      }
    }
    let merge = HybridLogicalClockMerge(stampsKey: ResolverChoice.fieldStampsKey)
    var found: [InvariantViolation] = []
    for record in final where deletions[record.recordID] == nil && zoneResets.isEmpty {
      let stamps = (try? merge.stamps(in: record)) ?? [:]
      for (key, stamp) in (latest[record.recordID] ?? [:]).sorted(by: { $0.key < $1.key }) {
        guard let kept = stamps[key], kept >= stamp else {
          found.append(
            InvariantViolation(
              .latestStampKept,
              "\(key) of \(record.recordID.recordName) ended stamped \(stamps[key]?.description ?? "none"), but a device stamped \(stamp)"
            ))
          continue
        }
      }
    }
    return found
  }
}
