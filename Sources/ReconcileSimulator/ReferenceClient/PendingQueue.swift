package import Reconcile

/// The device's persistent queue of changes to send, one entry per record ID, in the order first queued.
///
/// Queueing a record that is already queued keeps its place and takes the newer kind, so one ID is never both saved and
/// deleted in one request.
package struct PendingQueue: Sendable, Hashable {
  /// What to send for a record.
  package enum Kind: String, Sendable, Hashable {
    /// Save the record's current values.
    case save
    /// Delete the record.
    case delete
  }

  private var order: [RecordID] = []
  private var kinds: [RecordID: Kind] = [:]
  private var deletes = 0

  /// Creates an empty queue.
  package init() {}

  /// How many records are queued.
  package var count: Int { kinds.count }

  /// Whether nothing is queued.
  package var isEmpty: Bool { kinds.isEmpty }

  /// Whether any deletion is queued.
  package var containsDeletes: Bool { deletes > 0 }

  /// What is queued for `id`, if anything.
  /// - Parameter id: A record ID.
  package subscript(id: RecordID) -> Kind? { kinds[id] }

  /// The queued entries in queue order.
  package var entries: [(recordID: RecordID, kind: Kind)] { order.compactMap { id in kinds[id].map { (id, $0) } } }

  /// Queues `kind` for `id`, keeping its place if it is already queued.
  /// - Parameters:
  ///   - id: The record.
  ///   - kind: What to send.
  package mutating func enqueue(_ id: RecordID, _ kind: Kind) {
    let old = kinds.updateValue(kind, forKey: id)
    if old == nil { order.append(id) }
    if old == .delete { deletes -= 1 }
    if kind == .delete { deletes += 1 }
  }

  /// Removes `id` from the queue.
  /// - Parameter id: The record.
  /// - Complexity: O(*n*) in the queue's length.
  package mutating func remove(_ id: RecordID) {
    guard let old = kinds.removeValue(forKey: id) else { return }
    if old == .delete { deletes -= 1 }
    order.removeAll { $0 == id }
  }

  /// The first `limit` entries in queue order.
  /// - Parameter limit: The most entries.
  /// - Returns: Entries, oldest first.
  /// - Complexity: O(*k*) in the entries returned.
  package func prefix(_ limit: Int) -> [(recordID: RecordID, kind: Kind)] {
    order.prefix(max(0, limit)).compactMap { id in kinds[id].map { (id, $0) } }
  }

  /// Two queues are equal when they hold the same entries in the same order.
  package static func == (lhs: PendingQueue, rhs: PendingQueue) -> Bool {
    lhs.entries.map(\.recordID) == rhs.entries.map(\.recordID) && lhs.kinds == rhs.kinds
  }

  /// Hashes the entries in order.
  package func hash(into hasher: inout Hasher) {
    for (id, kind) in entries {
      hasher.combine(id)
      hasher.combine(kind)
    }
  }
}
