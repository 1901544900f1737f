// A notes app's sync code, written outside Reconcile with its public API only: a resolver, and a CKSyncEngine-style
// delegate the simulator can drive. `notes-playground` registers both, so every command of reconcile-playground runs
// them, and a counterexample they fail replays with `notes-playground replay FILE.rcp`.
import Foundation
import Reconcile
public import ReconcileSimulator

extension ResolverUnderTest {
  /// The app's merge: per key, the device's value wins a concurrent write. Each key ends with one of the concurrent
  /// values, the contract `oneSidedChangesKept` judges.
  public static let notesMerge = ResolverUnderTest(
    name: "notes-merge", resolver: FieldMerge(.client), lostWriteContract: .oneSidedChangesKept)
}

extension ClientUnderTest {
  /// The app's delegate in a simulated CKSyncEngine.
  public static let miniNotes = ClientUnderTest(name: "mini-notes") { setup in
    try SimulatedSyncEngine<MiniNotesDelegate>(setup: setup)
  }

  /// The same delegate with a bug an app could ship: it skips deletions in fetched changes.
  public static let forgetfulNotes = ClientUnderTest(name: "forgetful-notes") { setup in
    var delegate = try MiniNotesDelegate(setup: setup)
    delegate.skipsFetchedDeletions = true
    return SimulatedSyncEngine(delegate: delegate, setup: setup)
  }
}

/// The app's delegate: the simulator's example delegate does the merging and bookkeeping, and the app counts what
/// it fetched, as an app would update its UI. An app's own delegate would hold its own store instead.
struct MiniNotesDelegate: SimulatedSyncEngineDelegate {
  var inner: ExampleSyncDelegate
  /// Notes fetched so far, for the app's "updated" badge.
  private(set) var fetchedCount = 0
  /// The bug of `forgetful-notes`.
  var skipsFetchedDeletions = false

  init(setup: ClientSetup) throws { inner = ExampleSyncDelegate(setup: setup) }

  mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    if case .fetchedRecordZoneChanges(var changes) = event {
      fetchedCount += changes.modifications.count
      if skipsFetchedDeletions { changes.deletions = [] }
      inner.handleEvent(.fetchedRecordZoneChanges(changes), syncEngine: &syncEngine)
      return
    }
    inner.handleEvent(event, syncEngine: &syncEngine)
  }

  mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? { inner.nextRecordZoneChangeBatch(context, syncEngine: &syncEngine) }

  var stateSerialization: SyncEngine.StateSerialization? { inner.stateSerialization }
  mutating func relaunch() { inner.relaunch() }
  mutating func create(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try inner.create(record, at: now, syncEngine: &syncEngine)
  }
  mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws { try inner.edit(id, setting: values, at: now, syncEngine: &syncEngine) }
  mutating func delete(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try inner.delete(id, at: now, syncEngine: &syncEngine)
  }
  var records: [Record] { inner.records }
  func record(_ id: RecordID) -> Record? { inner.record(id) }
  var haltReason: HaltReason? { inner.haltReason }
  mutating func jumpClock(by seconds: TimeInterval) { inner.jumpClock(by: seconds) }
  mutating func upgrade(to schema: Schema?) { inner.upgrade(to: schema) }
}
