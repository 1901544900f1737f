package import Reconcile

/// How a seeded run's users change a key a merging policy settles, so the policy has edits to merge: the scheduler
/// draws them from the value the device shows.
package enum MergedEdits: Sendable, Hashable {
  /// Insert a new line, word or character at a position, or delete one.
  case text(FieldMerge.TextGranularity)
  /// Add a small positive or negative amount.
  case counter
  /// Add an element from a small pool, or remove one.
  case set
  /// Insert a new element at a position, remove one, or move one.
  case orderedList
}
