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
  public static let miniNotes = ClientUnderTest(name: "mini-notes") { setup in try MiniNotesDelegate(setup: setup) }

  /// The same delegate with a bug an app could ship: it skips deletions in fetched changes.
  public static let forgetfulNotes = ClientUnderTest(name: "forgetful-notes") { setup in
    var delegate = try MiniNotesDelegate(setup: setup)
    delegate.skipsFetchedDeletions = true
    return delegate
  }
}

/// The app's delegate: the simulator's example delegate does the merging and bookkeeping (everything this type does
/// not implement goes to it), and the app counts what it fetched, as an app would update its UI. An app's own
/// delegate would hold its own store instead.
struct MiniNotesDelegate: ExampleSyncDelegateWrapper {
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
}
