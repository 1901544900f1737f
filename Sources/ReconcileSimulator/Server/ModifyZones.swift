package import Reconcile

/// Creates and deletes zones, as `CKModifyRecordZonesOperation`.
package struct ModifyZonesRequest: Sendable, Hashable {
  /// The database; only `.private` accepts new zones.
  package var scope: DatabaseScope
  /// Zones to create (saving an existing zone changes nothing).
  package var saving: [RecordZone]
  /// Zones to delete, with every record in them.
  package var deleting: [ZoneID]

  /// Creates a request.
  /// - Parameters:
  ///   - scope: The database; `.private` unless given.
  ///   - saving: Zones to create.
  ///   - deleting: Zones to delete.
  package init(scope: DatabaseScope = .private, saving: [RecordZone] = [], deleting: [ZoneID] = []) {
    self.scope = scope
    self.saving = saving
    self.deleting = deleting
  }
}

/// What the server did with a ``ModifyZonesRequest``.
package struct ModifyZonesReply: Sendable, Hashable {
  /// The zones that exist now, as saved.
  package var saved: [RecordZone]
  /// The zones deleted.
  package var deleted: [ZoneID]

  /// Creates a reply.
  /// - Parameters:
  ///   - saved: Saved zones.
  ///   - deleted: Deleted zones.
  package init(saved: [RecordZone] = [], deleted: [ZoneID] = []) {
    self.saved = saved
    self.deleted = deleted
  }
}
