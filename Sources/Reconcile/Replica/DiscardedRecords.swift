/// Records a ``ZoneReplica`` removed wholesale — with their zone, or with the account — handed to the app before
/// they went (``ZoneReplica/discarded``), so it can offer an export or an undo.
public struct DiscardedRecords: Sendable, Hashable {
  /// Why they went.
  public enum Cause: Sendable, Hashable {
    /// The zone was deleted on the server, for this reason.
    case zoneDeletion(SyncEngine.ZoneDeletion.Reason)
    /// The iCloud account changed.
    case accountChange(SyncEngine.AccountChange)
  }

  /// Why they went.
  public var cause: Cause
  /// The records, sorted by ID, as the store held them.
  public var records: [Record]

  /// Records removed for `cause`.
  /// - Parameters:
  ///   - cause: Why they went.
  ///   - records: The records, in any order.
  package init(cause: Cause, records: [Record]) {
    self.cause = cause
    self.records = records.sorted { $0.recordID < $1.recordID }
  }
}
