extension ZoneReplica {
  /// Record `id`'s flags.
  func flags(of id: RecordID) -> RecordSyncState.Flags { metadata.recordStates[id]?.flags ?? [] }

  /// Record `id`'s flags among those some rule looks for across every record
  /// (``RecordSyncState/flagsLookedFor``); no lookup while no record waits.
  func flagsLookedFor(of id: RecordID) -> RecordSyncState.Flags {
    metadata.waitingRecords.isEmpty ? [] : flags(of: id).intersection(RecordSyncState.flagsLookedFor)
  }

  /// The deletion owed of record `id`, if any.
  func deletionOwed(of id: RecordID) -> Tombstone? {
    metadata.waitingRecords.isEmpty ? nil : metadata.recordStates[id]?.deletion
  }

  /// Whether record `id`'s state is waiting (``RecordSyncState/isWaiting``).
  func isWaiting(_ id: RecordID) -> Bool { metadata.waitingRecords.contains(id) }
}
