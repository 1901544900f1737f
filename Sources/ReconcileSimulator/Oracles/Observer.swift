import Foundation
import Reconcile

/// Watches every server change of a run and judges what the server's log alone shows: change tags issued once,
/// damaged values never uploaded, unknown keys never removed, and changes never overwritten by an older value.
///
/// Field values written by the scheduler are unique (`device.step` strings, the step number for `rank`), so a value
/// found on the server identifies the write that put it there.
struct Observer: Sendable {
  /// One value a key took on the server.
  struct KeyVersion: Sendable {
    var position: Int
    /// `nil` when the save removed the key.
    var value: FieldValue?
    /// The device whose save it was.
    var writer: String?
  }

  /// Whether a device that deleted the record while showing the version at `deleted`, and created it again since,
  /// still holds that create unlanded when it shows the version at `shown`: it shows none, the version it deleted, or
  /// a later one of that life (no deletion between) another device saved — any save of its own since is the create.
  func replacementUnlanded(of id: RecordID, on device: String, deleted: Int, shown: Int) -> Bool {
    if shown == 0 || shown == deleted { return true }
    return deleted > 0 && shown > deleted && writers[shown] != device
      && !(deletions[id] ?? []).contains { $0 > deleted && $0 < shown }
  }

  /// Server history position of each change tag.
  var tagPosition: [String: Int] = [:]
  /// Every value each key of each record took on the server, with its history position and the device that saved it
  /// (`nil` = removed).
  var keyHistory: [RecordID: [String: [KeyVersion]]] = [:]
  var lastVersion: [RecordID: Record] = [:]
  var deletions: [RecordID: [Int]] = [:]
  /// The device that saved the version at each server history position.
  var writers: [Int: String] = [:]
  var zoneResets: [Int] = []
  var violations: [InvariantViolation] = []
  /// Saves by a device whose app does not know some key the record held: what ``Invariant/unknownKeysKept`` judged.
  var unknownKeySaves = 0

  mutating func observe(_ event: ServerEvent, knownKeys: [String: Set<String>]) {
    let position = event.sequence
    switch event.kind {
    case .saved(let record):
      let id = record.recordID
      if StorageDamage.isDamaged(record) {
        for key in record.allKeys where Self.value(of: key, in: record) == StorageDamage.garbage {
          damaged(key, of: id, at: event)
        }
      }
      if let writer = event.client?.deviceName { writers[position] = writer }
      if let tag = record.recordChangeTag {
        if tagPosition.updateValue(position, forKey: tag) != nil {
          violations.append(InvariantViolation(.serverInvariants, "change tag \(tag) was issued twice"))
        }
      }
      let previous = lastVersion.updateValue(record, forKey: id)
      let writer = event.client?.deviceName
      let known = knownKeys.isEmpty ? nil : writer.flatMap { knownKeys[$0] }
      if let known, let previous, previous.allKeys.contains(where: { !known.contains($0) }) { unknownKeySaves += 1 }
      // Each key the save or the version before it holds, once: plain keys, then encrypted ones, then removed ones.
      var removedUnknown: [String] = []
      func note(_ key: String, in history: inout [String: [KeyVersion]]) {
        let old = previous.map { Self.value(of: key, in: $0) } ?? nil
        let new = Self.value(of: key, in: record)
        guard old != new || previous == nil else { return }
        history[key, default: []].append(KeyVersion(position: position, value: new, writer: writer))
        if new == nil, old != nil, let known, !known.contains(key) { removedUnknown.append(key) }
      }
      var history = keyHistory.removeValue(forKey: id) ?? [:]
      let (plain, encrypted) = (record.valueTable, record.encryptedValueTable)
      if let previous {
        // Only a key whose plain or encrypted value differs between the versions can have changed.
        let differingPlain = plain.keysDiffering(from: previous.valueTable)
        for key in differingPlain { note(key, in: &history) }
        for key in encrypted.keysDiffering(from: previous.encryptedValueTable) where !differingPlain.contains(key) {
          note(key, in: &history)
        }
      } else {
        for key in plain.keys { note(key, in: &history) }
        for key in encrypted.keys where !plain.contains(key) { note(key, in: &history) }
      }
      keyHistory[id] = history
      for key in removedUnknown.sorted() {
        violations.append(
          InvariantViolation(
            .unknownKeysKept, "\(writer ?? "?") removed \(key) of \(id.recordName), a key its app does not know"))
      }
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

  private mutating func damaged(_ key: String, of id: RecordID, at event: ServerEvent) {
    violations.append(
      InvariantViolation(
        .damagedDataNeverUploaded,
        "\(event.client?.deviceName ?? "?") uploaded the damaged value of \(id.recordName).\(key) (#\(event.sequence))")
    )
  }

  static func value(of key: String, in record: Record) -> FieldValue? {
    record[key] ?? record.encryptedValues[key]
  }

  // MARK: Judging

  /// Changes replaced by a value the key had held before — unless the device that first saved the value saved it
  /// again after a save of the record went unanswered (`unanswered`, per record): it cannot know its value landed and
  /// was overwritten since.
  func staleOverwrites(among userKeys: Set<String>, unanswered: [RecordID: Set<String>]) -> [InvariantViolation] {
    var found: [InvariantViolation] = []
    // A value can come back only in a history of three versions or more (A, B, A): the others, most records of a
    // large zone, are passed over before anything is sorted.
    let candidates = keyHistory.compactMap { $0.value.values.contains { $0.count > 2 } ? $0.key : nil }.sorted()
    for id in candidates {
      guard let keys = keyHistory[id] else { continue }
      for (key, history) in keys.sorted(by: { $0.key < $1.key }) where history.count > 2 && userKeys.contains(key) {
        // Most keys change a few times: a scan of the earlier versions costs less than hashing every value.
        let scans = history.count <= 16
        var firstSeen: [FieldValue: KeyVersion] = [:]
        for (index, entry) in history.enumerated() {
          guard let value = entry.value else { continue }
          let earlier = scans ? history[..<index].first { $0.value == value } : firstSeen[value]
          if let earlier, index > 0, let displaced = history[index - 1].value, displaced != value {
            let from = history[index - 1].position
            let resetBetween =
              zoneResets.contains { $0 > from && $0 <= entry.position }
              || deletions[id]?.contains { $0 > from && $0 <= entry.position } == true
            let resent =
              entry.writer.map { $0 == earlier.writer && unanswered[id]?.contains($0) == true } ?? false
            if !resetBetween, !resent {
              found.append(
                InvariantViolation(
                  .oneSidedChangesKept,
                  "\(key) of \(id.recordName) changed to \(displaced) (#\(from)), then a save wrote back its older value \(value) (first held at #\(earlier.position)) at #\(entry.position)"
                ))
            }
          }
          if !scans, firstSeen[value] == nil { firstSeen[value] = entry }
        }
      }
    }
    return found
  }
}
