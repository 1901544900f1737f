import Foundation

extension ZoneReplica {
  /// Builds the next batch from the pending changes of the app's zone, noting the new records it hands out and
  /// removing saves of records it no longer has.
  public mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? {
    if !launchChecked { requeueUnsent(&syncEngine) }
    // Halted: the change that halted waits, kept, for an upgrade or the user's answer.
    guard metadata.halt == nil else { return nil }
    // The zone is gone for a reason not yet known: nothing goes until the feed says why.
    guard metadata.zone.missing == nil, !metadata.anyWaiting(where: { $0.recreation?.feedRead == false }) else {
      return nil
    }
    let orphans = syncEngine.pendingRecords.filter {
      if case .saveRecord(let id) = $0 { return store[id] == nil }
      return false
    }
    syncEngine.remove(pendingRecordZoneChanges: orphans)
    let batch = SyncEngine.RecordZoneChangeBatch(
      pendingChanges: syncEngine.pendingRecords.filter { change in
        guard change.recordID.zoneID == zoneID else { return false }
        switch change {
        case .deleteRecord(let id):
          return !flagsLookedFor(of: id).contains(.deletionAwaitsFetch) || !rules.deletionsWaitForFetch
        case .saveRecord(let id):
          return !flagsLookedFor(of: id).contains(.saveAwaitsFetch)
        }
      },
      maximumItems: context.maximumItems
    ) { id in
      guard !rules.keepsUnknownKeys, var record = store[id], let schema = configuration.schema else {
        return store[id]
      }
      for key in schema.unknownKeys(in: record).sorted() { record[key] = nil }
      return record
    }
    for record in batch?.recordsToSave ?? [] {
      let new = record.recordChangeTag == nil
      let noted = configuration.rule == .resolver
      guard new || noted else { continue }
      metadata[record.recordID].handedOut(record, new: new, noted: noted)
    }
    return batch
  }
}
