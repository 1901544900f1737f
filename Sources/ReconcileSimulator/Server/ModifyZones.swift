public import Reconcile

/// Creates and deletes zones, as `CKModifyRecordZonesOperation`.
public struct ModifyZonesRequest: Sendable, Hashable {
  /// The database; only `.private` accepts new zones.
  public var scope: DatabaseScope
  /// Zones to create (saving an existing zone changes nothing).
  public var saving: [RecordZone]
  /// Zones to delete, with every record in them.
  public var deleting: [ZoneID]

  /// Creates a request.
  /// - Parameters:
  ///   - scope: The database; `.private` unless given.
  ///   - saving: Zones to create.
  ///   - deleting: Zones to delete.
  public init(scope: DatabaseScope = .private, saving: [RecordZone] = [], deleting: [ZoneID] = []) {
    self.scope = scope
    self.saving = saving
    self.deleting = deleting
  }
}

/// What the server did with a ``ModifyZonesRequest``.
public struct ModifyZonesReply: Sendable, Hashable {
  /// The zones that exist now, as saved.
  public var saved: [RecordZone]
  /// The zones deleted.
  public var deleted: [ZoneID]

  /// Creates a reply.
  /// - Parameters:
  ///   - saved: Saved zones.
  ///   - deleted: Deleted zones.
  public init(saved: [RecordZone] = [], deleted: [ZoneID] = []) {
    self.saved = saved
    self.deleted = deleted
  }
}
