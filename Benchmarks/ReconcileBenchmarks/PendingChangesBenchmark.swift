import Reconcile

/// What one pending record change costs the engine's state — added, asked about, then removed as its save is answered
/// — with a few pending and with many: the work per change must not grow with the list.
enum PendingChangesBenchmark {
  /// Nanoseconds per change for a state that holds `count` changes at its fullest: each added, looked up, then removed
  /// one by one in the order the saves were sent.
  static func nanosecondsPerChange(count: Int, iterations: Int) throws -> Double {
    let zone = try ZoneID(zoneName: "Notes")
    let changes = try (0..<count).map {
      SyncEngine.PendingRecordZoneChange.saveRecord(try RecordID(recordName: "r\($0)", zoneID: zone))
    }
    let timing = nanosecondsPerCall(iterations: iterations, rounds: 5) {
      var state = SyncEngine.State()
      for change in changes { state.add(pendingRecordZoneChanges: [change]) }
      var found = 0
      for change in changes where state.pendingRecords.contains(change) { found += 1 }
      for change in changes { state.remove(pendingRecordZoneChanges: [change]) }
      return found + state.pendingRecords.count
    }
    return timing.ns / Double(count)
  }
}
