/// An append-only feed of changes to keys, answering "what changed since sequence *s*" in time proportional to the
/// changes since *s*, not to the whole history.
///
/// Each change gets the next sequence number. A key changed many times appears once in an answer, at its latest change:
/// older entries of the key are stale and skipped. Entries are in sequence order, so the first entry after *s* is
/// found by binary search, and each entry knows whether it is its key's latest, so answering hashes no key.
struct ChangeLog<Key: Hashable & Sendable>: Sendable {
  struct Entry: Sendable {
    var sequence: Int
    var key: Key
    /// Whether no later entry has the same key.
    var isLatest = true
  }

  private(set) var entries: [Entry] = []
  /// The sequence number of each key's latest entry.
  private(set) var latest: [Key: Int] = [:]
  /// The last sequence number handed out.
  private(set) var sequence = 0
  /// Tokens older than this can no longer be answered: entries they need were compacted away.
  private(set) var compactedThrough = 0

  /// Records a change to `key`.
  /// - Returns: The change's sequence number.
  @discardableResult
  mutating func append(_ key: Key) -> Int {
    sequence += 1
    if let previous = latest.updateValue(sequence, forKey: key) {
      let index = firstIndex(after: previous - 1)
      if index < entries.count, entries[index].sequence == previous { entries[index].isLatest = false }
    }
    entries.append(Entry(sequence: sequence, key: key))
    return sequence
  }

  /// Whether a token at `sequence` can still be answered.
  func canAnswer(after sequence: Int) -> Bool { sequence >= compactedThrough && sequence <= self.sequence }

  /// Whether a token at `sequence`, issued when the log was compacted through `issuedAt`, can still be answered: one
  /// issued since the last compaction can, wherever it stands (the entries it still needs were kept).
  func canAnswer(after sequence: Int, issuedAt: Int) -> Bool {
    canAnswer(after: sequence) || (issuedAt == compactedThrough && sequence >= 0 && sequence <= self.sequence)
  }

  /// The keys whose latest change comes after `after`, oldest first, at most `limit` of them.
  /// - Returns: The keys, the sequence number to resume from, and whether more remain.
  /// - Complexity: O(log *n* + *k*), *k* the entries after `after` that are read.
  func changes(after: Int, limit: Int?) -> (keys: [Key], through: Int, moreComing: Bool) {
    var index = firstIndex(after: after)
    var keys: [Key] = []
    var through = after
    let cap = limit ?? Int.max
    while index < entries.count {
      let entry = entries[index]
      if entry.isLatest {
        if keys.count == cap { return (keys, through, true) }
        keys.append(entry.key)
      }
      through = entry.sequence
      index += 1
    }
    return (keys, max(through, sequence), false)
  }

  /// Forgets the history up to and including `sequence`: drops entries there that are stale or for which `isGone` says
  /// the key no longer exists. Tokens before `sequence` expire; the latest state of every live key stays answerable.
  mutating func compact(through sequence: Int, isGone: (Key) -> Bool) {
    let cut = min(sequence, self.sequence)
    guard cut > compactedThrough else { return }
    var dropped: [Key] = []
    entries.removeAll { entry in
      guard entry.sequence <= cut else { return false }
      if !entry.isLatest { return true }
      if isGone(entry.key) {
        dropped.append(entry.key)
        return true
      }
      return false
    }
    for key in dropped { latest[key] = nil }
    compactedThrough = cut
  }

  private func firstIndex(after sequence: Int) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let mid = (low + high) / 2
      if entries[mid].sequence <= sequence { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
