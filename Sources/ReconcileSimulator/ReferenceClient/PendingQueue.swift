public import Reconcile

/// The device's persistent queue of changes to send, one entry per record ID, in the order first queued.
///
/// Queueing a record that is already queued keeps its place and takes the newer kind, so one ID is never both saved and
/// deleted in one request.
public struct PendingQueue: Sendable, Hashable {
  /// What to send for a record.
  public enum Kind: String, Sendable, Hashable {
    /// Save the record's current values.
    case save
    /// Delete the record.
    case delete
  }

  private var order: [RecordID] = []
  private var kinds: [RecordID: Kind] = [:]
  private var deletes = 0

  /// Creates an empty queue.
  public init() {}

  /// How many records are queued.
  public var count: Int { kinds.count }

  /// Whether nothing is queued.
  public var isEmpty: Bool { kinds.isEmpty }

  /// Whether any deletion is queued.
  public var containsDeletes: Bool { deletes > 0 }

  /// What is queued for `id`, if anything.
  /// - Parameter id: A record ID.
  public subscript(id: RecordID) -> Kind? { kinds[id] }

  /// The queued entries in queue order.
  public var entries: [(recordID: RecordID, kind: Kind)] { order.compactMap { id in kinds[id].map { (id, $0) } } }

  /// Queues `kind` for `id`, keeping its place if it is already queued.
  /// - Parameters:
  ///   - id: The record.
  ///   - kind: What to send.
  public mutating func enqueue(_ id: RecordID, _ kind: Kind) {
    let old = kinds.updateValue(kind, forKey: id)
    if old == nil { order.append(id) }
    if old == .delete { deletes -= 1 }
    if kind == .delete { deletes += 1 }
  }

  /// Removes `id` from the queue.
  /// - Parameter id: The record.
  /// - Complexity: O(*n*) in the queue's length.
  public mutating func remove(_ id: RecordID) {
    guard let old = kinds.removeValue(forKey: id) else { return }
    if old == .delete { deletes -= 1 }
    order.removeAll { $0 == id }
  }

  /// The first `limit` entries in queue order.
  /// - Parameter limit: The most entries.
  /// - Returns: Entries, oldest first.
  /// - Complexity: O(*k*) in the entries returned.
  public func prefix(_ limit: Int) -> [(recordID: RecordID, kind: Kind)] {
    order.prefix(max(0, limit)).compactMap { id in kinds[id].map { (id, $0) } }
  }

  /// Two queues are equal when they hold the same entries in the same order.
  public static func == (lhs: PendingQueue, rhs: PendingQueue) -> Bool {
    lhs.entries.map(\.recordID) == rhs.entries.map(\.recordID) && lhs.kinds == rhs.kinds
  }

  /// Hashes the entries in order.
  public func hash(into hasher: inout Hasher) {
    for (id, kind) in entries {
      hasher.combine(id)
      hasher.combine(kind)
    }
  }
}
