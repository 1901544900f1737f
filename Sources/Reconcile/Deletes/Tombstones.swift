public import Foundation

/// The tombstones a client keeps, one per deleted record ID.
///
/// ```swift
/// var tombstones = Tombstones()
/// tombstones.insert(Tombstone(deleting: note, at: now, by: "phone"))
/// let uploads = pending.filter { !tombstones.blocks($0) }
/// ```
///
/// Tombstones must outlive every stale copy that could be uploaded: drop them with ``removeAll(deletedBefore:)`` only
/// after every device has synced past the deletion. `Codable`, as a list, for saving beside the local store.
public struct Tombstones: Sendable, Hashable, Codable {
  private var byID: [RecordID: Tombstone]

  /// Creates a collection holding `tombstones`; for one ID the latest deletion is kept.
  /// - Parameter tombstones: Tombstones to start with.
  public init(_ tombstones: some Sequence<Tombstone> = []) {
    byID = [:]
    for tombstone in tombstones { insert(tombstone) }
  }

  /// The number of tombstones.
  public var count: Int { byID.count }

  /// Every tombstone, ordered by record ID.
  public var all: [Tombstone] { byID.values.sorted { $0.recordID < $1.recordID } }

  /// The tombstone for `recordID`, if the record was deleted.
  /// - Parameter recordID: A record ID.
  public subscript(recordID: RecordID) -> Tombstone? { byID[recordID] }

  /// Records a deletion; if the ID already has a tombstone, the later deletion is kept.
  /// - Parameter tombstone: The deletion.
  public mutating func insert(_ tombstone: Tombstone) {
    if let existing = byID[tombstone.recordID], existing.deletedAt > tombstone.deletedAt { return }
    byID[tombstone.recordID] = tombstone
  }

  /// Forgets the deletion of `recordID`, when an edit revives the record.
  /// - Parameter recordID: The revived record's ID.
  /// - Returns: The removed tombstone, if there was one.
  @discardableResult public mutating func remove(_ recordID: RecordID) -> Tombstone? {
    byID.removeValue(forKey: recordID)
  }

  /// Whether `record` is a copy of a deleted record and must not be uploaded or shown again.
  ///
  /// A record whose ID has a tombstone is blocked, unless both know their server creation dates and these differ: that
  /// record was created anew after the deletion (a user re-created it), so it is not the deleted one.
  /// - Parameter record: A record about to be saved, or fetched.
  /// - Returns: `true` if it is a copy of the deleted record.
  public func blocks(_ record: Record) -> Bool {
    guard let tombstone = byID[record.recordID] else { return false }
    if let deleted = tombstone.creationDate, let created = record.creationDate, deleted != created { return false }
    return true
  }

  /// Drops tombstones of deletions before `date`.
  /// - Parameter date: The cut-off; keep it older than the last sync of every device.
  public mutating func removeAll(deletedBefore date: Date) {
    byID = byID.filter { $0.value.deletedAt >= date }
  }

  /// Decodes a list of tombstones.
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` for a malformed tombstone.
  public init(from decoder: any Decoder) throws {
    self.init(try [Tombstone](from: decoder))
  }

  /// Encodes the tombstones as a list ordered by record ID.
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    try all.encode(to: encoder)
  }
}
