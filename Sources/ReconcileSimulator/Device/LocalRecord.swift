public import Reconcile

/// A device's copy of one record: what the app sees, and the last server version it is based on.
public struct LocalRecord: Sendable, Hashable {
  /// The last version the server handed this device (fetched or saved), with every value: the ancestor of the next
  /// conflict. `nil` for a record the server has not yet accepted.
  public internal(set) var lastKnownServer: Record?
  /// What the app sees: the server version plus unsent edits, which `Record/changedKeys` lists. Its system
  /// fields (change tag included) are the last known server version's.
  public internal(set) var current: Record
  /// Bumped by every local edit, so a save reply can tell whether the record changed while the save was in flight.
  var generation = 0

  init(lastKnownServer: Record?, current: Record) {
    self.lastKnownServer = lastKnownServer
    self.current = current
  }

  /// Whether the record has edits the server has not accepted.
  public var hasUnsentChanges: Bool { !current.changedKeys.isEmpty || lastKnownServer == nil }
}
