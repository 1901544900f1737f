import Foundation
import Reconcile
import Testing

/// A listing of the zone from its beginning that leaves out an acknowledged note drops it — until the next read of the
/// database feed says whether the zone went meanwhile: a listing answered after a deletion of the zone the feed had not
/// reported yet lists the zone created since, and the note did not go with a user's deletion.
@Suite("ZoneReplica: what a listing leaves out waits for the database feed")
struct ZoneReplicaUnreportedResetTests {
  typealias Helpers = ZoneReplicaTests

  /// n1 saved as `t1`; then a fetch lists the zone from its beginning (nothing there, as in a zone created again) and
  /// the next database read reports `deletions`.
  static func listedWithoutTheNote(thenFeedReports deletions: [SyncEngine.ZoneDeletion]) throws -> (
    ZoneReplica<DictionaryReplicaStore>, SyncEngine.State, RecordID
  ) {
    var replica = try Helpers.replica()
    var state = SyncEngine.State()
    let note = try Helpers.createdAndSaved(&replica, &state)
    let zone = try Helpers.zone()
    for event in [
      SyncEngine.Event.willFetchChanges, .fetchedDatabaseChanges(.init(modifications: [zone], deletions: [])),
      .willFetchRecordZoneChanges(zone), .fetchedRecordZoneChanges(.init(modifications: [], deletions: [])),
      .didFetchRecordZoneChanges(zone, error: nil), .didFetchChanges,
    ] {
      replica.handleEvent(event, syncEngine: &state)
    }
    #expect(replica.store[note.recordID] == nil, "the listing left the note out")
    for event in [
      SyncEngine.Event.willFetchChanges, .fetchedDatabaseChanges(.init(modifications: [], deletions: deletions)),
    ] {
      replica.handleEvent(event, syncEngine: &state)
    }
    return (replica, state, note.recordID)
  }

  @Test("a note a listing left out comes back, to be uploaded again, when the next feed read reports a reset")
  func resetReportedAfterTheListingBringsTheNoteBack() throws {
    let zone = try Helpers.zone()
    let (replica, state, id) = try Self.listedWithoutTheNote(
      thenFeedReports: [SyncEngine.ZoneDeletion(zoneID: zone, reason: .encryptedDataReset)])
    #expect(replica.store[id]?["title"] == .string("milk"))
    #expect(state.pendingRecordZoneChanges.contains(.saveRecord(id)), "uploaded again into the new zone")
  }

  @Test("a note a listing left out stays gone when the next feed read reports no deletion of the zone")
  func noDeletionReportedLeavesTheNoteGone() throws {
    let (replica, state, id) = try Self.listedWithoutTheNote(thenFeedReports: [])
    #expect(replica.store[id] == nil)
    #expect(!state.pendingRecordZoneChanges.contains(.saveRecord(id)))
  }
}
