// The CKSyncEngine setup of the DocC article "Using Reconcile with CKSyncEngine", compiled by
// Scripts/check-cloudkit-bridge.sh against the CloudKit stand-in together with the article's delegate
// (Tests/ReconcileSimulatorTests/SyncEngine/NotesSyncDelegate.swift).
// snippet: app
import CloudKit
import Foundation
import Reconcile

/// The app's side: the real engine, with the article's delegate behind the adapter.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class NotesSync: Sendable {
  let adapter: CloudKitSyncEngineAdapter<NotesSyncDelegate>
  let engine: CKSyncEngine

  /// Launches sync from what the app wrote last time (`nil` at first launch).
  init(saved: NotesSyncDelegate.Saved?, device: String, write: @escaping @Sendable (NotesSyncDelegate.Saved) -> Void)
    throws
  {
    var delegate = NotesSyncDelegate(zoneID: try ZoneID(zoneName: "Notes"), device: device, saved: saved ?? .init())
    delegate.persist = write
    adapter = CloudKitSyncEngineAdapter(delegate) { failure in print("sync: \(failure)") }
    engine = CKSyncEngine(
      CKSyncEngine.Configuration(
        database: CKContainer.default().privateCloudDatabase,
        stateSerialization: try adapter.engineSerialization(from: saved?.sync.stateSerialization),
        delegate: adapter))
  }

  /// The user wrote a new note: the delegate adds its pending save to the engine.
  func create(_ note: Record) throws {
    try adapter.perform(on: engine) { delegate, state in try delegate.userCreated(note, at: Date(), syncEngine: &state)
    }
  }

  /// The user changed a note's title.
  func rename(_ id: RecordID, to title: String) throws {
    try adapter.perform(on: engine) { delegate, state in
      try delegate.userEdited(id, ["title": .string(title)], at: Date(), syncEngine: &state)
    }
  }

  /// The user deleted a note.
  func delete(_ id: RecordID) throws {
    try adapter.perform(on: engine) { delegate, state in try delegate.userDeleted(id, at: Date(), syncEngine: &state) }
  }

  /// Pull to refresh.
  func refresh() async throws { try await engine.fetchChanges() }

  /// What the list shows.
  var notes: [Record] { adapter.read { $0.notes } }
}
// end snippet
