import Foundation

extension ZoneReplica {
  /// The app found its stored copy of `id` unreadable — a failing disk, a torn write, a bad migration — and must never
  /// upload it. The copy goes, with its unsent values, which cannot be trusted; a record that replaced one the user
  /// deleted owes that deletion again.
  ///
  /// When the server may hold a version of the record (the copy was acknowledged, or a save of it may have landed),
  /// the app fetches the zone again from its beginning to get it back: until then the record is not shown, and a
  /// fetched version of it is stored as any new record is.
  /// - Parameters:
  ///   - id: The record whose stored copy is unreadable.
  ///   - syncEngine: The engine's state.
  /// - Returns: Whether the server may hold a version of the record to fetch again.
  @discardableResult
  public mutating func discardUnreadable(_ id: RecordID, syncEngine: inout SyncEngine.State) -> Bool {
    guard let damaged = removeStored(id) else { return false }
    syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
    metadata[id].flags.remove(.reuploaded)
    if metadata[id].deleteReplacement() {
      // A re-created record: the deletion it replaced still stands, and sent after a fetch it deletes whatever of
      // the replacement's saves landed.
      syncEngine.add(pendingRecordZoneChanges: [.deleteRecord(id)])
      return true
    }
    if damaged.recordChangeTag != nil {
      // The server holds the version it acknowledged, which the refetch brings back: a copy the user makes and
      // deletes before then must delete it too. Only its system fields are kept; its values cannot be trusted.
      metadata[id].heldBack = .init(version: damaged.systemFieldsOnly, byHalt: false)
      return true
    }
    return metadata.saveMayLandLate(id)
  }

  /// The app fetches the zone again from its beginning (no token): that listing names every record the zone holds, so
  /// a copy it leaves out was deleted, or its zone was deleted and created again, while this device was not looking.
  /// (A CKSyncEngine app gets such a listing by a forced resync instead.)
  package mutating func zoneWillBeListedFromBeginning() { metadata.zone.listAgain() }
}
