import Foundation
package import Reconcile

/// The reference app's own store of records, as `ZoneReplica` reads and writes it, with a seal on each row as a real
/// store keeps a checksum beside it.
///
/// Writes through the store keep a seal good; damage done behind the app's back (``damage(_:)``) breaks it, and it
/// stays broken through later writes (a store verifies a row before it rewrites its checksum), so an update cannot
/// launder the damage. Only removing the row ends it. Only that damage breaks a seal, so the seal is a set of the
/// damaged IDs rather than a checksum recomputed on every write.
package struct SealedStore: ReplicaStore, Hashable {
  private var rows: [RecordID: Record] = [:]
  /// The IDs of ``rows``, sorted, kept as rows come and go: the scheduler picks a record the app shows from this order
  /// at most steps, and sorting every row each time made a step's cost grow with the records the app holds.
  private var sortedIDs: [RecordID] = []
  /// The rows whose seal is broken.
  package private(set) var damaged: Set<RecordID> = []

  /// An empty store.
  package init() {}

  /// The row of `id`, or `nil`; writing `nil` removes it, seal and all.
  package subscript(id: RecordID) -> Record? {
    get { rows[id] }
    set {
      let held = rows.updateValue(forKeyOrRemove: id, newValue)
      switch (held, newValue) {
      case (false, .some): sortedIDs.insert(id, at: insertionIndex(of: id))
      case (true, nil): sortedIDs.remove(at: insertionIndex(of: id))
      default: break
      }
      if newValue == nil, !damaged.isEmpty { damaged.remove(id) }
    }
  }

  /// Where `id` is, or would go, in ``sortedIDs``.
  private func insertionIndex(of id: RecordID) -> Int {
    var low = 0
    var high = sortedIDs.count
    while low < high {
      let middle = (low + high) / 2
      if sortedIDs[middle] < id { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Every record ID the store holds, sorted.
  package var recordIDs: [RecordID] { sortedIDs }

  /// Every row, sorted by ID.
  package var records: [Record] { sortedIDs.compactMap { rows[$0] } }

  /// How many rows the store holds.
  package var count: Int { rows.count }

  /// Every row, by ID.
  package var all: [RecordID: Record] { rows }

  /// Damages the row of `id` behind the app's back: its first key's value (or a new key) becomes
  /// ``StorageDamage/garbage``, marked changed as garbage that would otherwise be uploaded, and the seal breaks.
  /// - Returns: Whether the store held the row.
  package mutating func damage(_ id: RecordID) -> Bool {
    guard var record = rows[id] else { return false }
    let key = record.allKeys.first ?? "corrupted"
    record[key] = StorageDamage.garbage
    rows[id] = record
    damaged.insert(id)
    return true
  }
}

extension Dictionary {
  /// Sets or (for `nil`) removes the value of `key`, returning whether the key was there before.
  fileprivate mutating func updateValue(forKeyOrRemove key: Key, _ value: Value?) -> Bool {
    if let value { return updateValue(value, forKey: key) != nil }
    return removeValue(forKey: key) != nil
  }
}
