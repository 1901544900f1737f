import Foundation

extension ZoneReplica {
  /// The account changed (the engine has reset its state and cleared what was pending). A sign-out or switch deletes
  /// the previous account's local data, as Apple asks; a sign-in from no account uploads what the app holds, made
  /// while signed out, to the account (Apple's sample does the same).
  mutating func accountChanged(_ change: SyncEngine.AccountChange, _ syncEngine: inout SyncEngine.State) {
    if change.previousUser != nil {
      handOver(.accountChange(change), store.records)
      let serialization = metadata.stateSerialization
      // The device's clock is not the account's data: stamps made from now on must still come after its earlier ones.
      let clock = metadata.clock
      for id in store.recordIDs { store[id] = nil }
      metadata = ReplicaMetadata()
      metadata.stateSerialization = serialization
      metadata.clock = clock
      return
    }
    // Signed in: the engine starts with no tokens, so its first database fetch lists every zone.
    metadata.databaseListingStartsOver = true
    for record in store.records {
      let id = record.recordID
      store[id] = record.withoutSystemFields
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }
    if !store.recordIDs.isEmpty { syncEngine.add(pendingDatabaseChanges: [.saveZone(zoneID)]) }
  }

  /// Hands the app the copies a wholesale deletion of local data takes (``ZoneReplica/discarded``), before they go.
  mutating func handOver(_ cause: DiscardedRecords.Cause, _ records: [Record]) {
    guard !records.isEmpty else { return }
    discarded.append(DiscardedRecords(cause: cause, records: records))
  }

  /// Hands the app the copies of `held` (what the app held before a wholesale deletion) that are gone now.
  mutating func handOver(_ cause: DiscardedRecords.Cause, goneFrom held: [RecordID: Record]) {
    handOver(cause, held.filter { store[$0.key] == nil }.map(\.value))
  }
}
