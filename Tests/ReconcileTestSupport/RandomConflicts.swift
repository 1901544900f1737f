public import Foundation
public import Reconcile

/// Builds random conflicts the way they arise: a saved base record; another device's edits saved on the server; this
/// device's edits (values, removals, additions, encrypted values, moved keys) on its copy of the base; and an ancestor
/// that is the base, nothing, or system fields only.
///
/// Records carry an edit counter (``editCountKey``), a device timestamp (``editedAtKey``) and sometimes a string list
/// (``tagsKey``), so every built-in resolver has what it reads. With `stamped`, both sides stamp their edits with a
/// ``HybridLogicalClock`` for ``HybridLogicalClockMerge``.
public struct RandomConflicts {
  /// The record generator, whose random stream this continues.
  public var records: RandomRecords

  /// The edit counter's key.
  public static let editCountKey = "editCount"
  /// The device timestamp's key.
  public static let editedAtKey = "editedAt"
  /// The string list's key.
  public static let tagsKey = "tags"

  /// Creates a generator for `seed`.
  public init(seed: UInt64) { records = RandomRecords(seed: seed) }

  /// A random conflict.
  /// - Parameter stamped: Whether both sides stamp their edits for ``HybridLogicalClockMerge``.
  /// - Throws: What stamping throws; it does not for the clocks made here.
  public mutating func conflict(stamped: Bool = false) throws -> Conflict {
    let merge = HybridLogicalClockMerge()
    let start = records.date()
    var base = records.record(maxFields: 6)
    base[Self.editCountKey] = .int64(Int64.random(in: 0...5, using: &records.random))
    base[Self.editedAtKey] = .timestamp(start)
    if Bool.random(using: &records.random) { base[Self.tagsKey] = .list(tags()) }
    var baseClock = try HybridLogicalClock(nodeID: "creator")
    if stamped { try merge.stamp(&base, with: &baseClock, at: start) }
    base = base.savedByServer(tag: "t1", at: start)

    let keys = base.allKeys.filter { $0 != merge.stampsKey } + ["extraA", "extraB"]
    var other = base
    var otherClock = try HybridLogicalClock(nodeID: "other")
    if stamped { try merge.observe(base, with: &otherClock, at: start) }
    edit(&other, keys: keys, at: start.addingTimeInterval(Double.random(in: 1...100, using: &records.random)))
    if stamped { try merge.stamp(&other, with: &otherClock, at: other[Self.editedAtKey]?.dateValue ?? start) }
    let server = base.applying(other, tag: "t2", at: start.addingTimeInterval(200))

    var client = base
    var clientClock = try HybridLogicalClock(nodeID: "client")
    if stamped { try merge.observe(base, with: &clientClock, at: start) }
    edit(&client, keys: keys, at: start.addingTimeInterval(Double.random(in: 1...100, using: &records.random)))
    if stamped { try merge.stamp(&client, with: &clientClock, at: client[Self.editedAtKey]?.dateValue ?? start) }

    let ancestor: Record?
    switch Int.random(in: 0..<8, using: &records.random) {
    case 0: ancestor = nil
    case 1: ancestor = base.systemFieldsOnly
    default: ancestor = base
    }
    return Conflict(client: client, ancestor: ancestor, server: server)
  }

  /// One to four random edits to `record` — set, remove, add, encrypt — plus the counter and timestamp an app writes.
  public mutating func edit(_ record: inout Record, keys: [String], at date: Date) {
    let zone = record.recordID.zoneID
    for _ in 0..<Int.random(in: 1...4, using: &records.random) {
      let key = keys.randomElement(using: &records.random) ?? "extraA"
      if key == Self.editCountKey || key == Self.editedAtKey { continue }
      switch Int.random(in: 0..<6, using: &records.random) {
      case 0:
        record[key] = nil
      case 1 where key != Self.tagsKey:
        record.encryptedValues[key] = .string(records.text())
      default:
        if key == Self.tagsKey {
          record[key] = .list(tags())
        } else {
          let type = RandomRecords.scalarTypes.randomElement(using: &records.random) ?? .string
          record[key] = records.value(of: type, zone: zone)
        }
      }
    }
    record[Self.editCountKey] = .int64((record[Self.editCountKey]?.int64Value ?? 0) + 1)
    record[Self.editedAtKey] = .timestamp(date)
  }

  private mutating func tags() -> [FieldValue] {
    let pool: [FieldValue] = ["red", "green", "blue", "work", "home", "urgent"]
    return (0..<Int.random(in: 0...4, using: &records.random)).compactMap { _ in
      pool.randomElement(using: &records.random)
    }
  }
}
