public import Reconcile

/// Local data a client deletes wholesale because of what its user did elsewhere — purged the app's data in Settings,
/// deleted it from another device (under `ZoneLossPolicy.dropLocalData`), or left the iCloud account — handed
/// to the app with every copy that goes: the core's `DiscardedRecords`, by the name the simulator has always used. A
/// record the user deleted on another device, fetched as a deletion, is not handed over: that is the user's deletion,
/// not the app's.
///
/// The simulator keeps every hand-over; the reference client and `ZoneReplica`
/// make one before each such deletion.
public typealias LocalDataDeletion = DiscardedRecords

/// A client that keeps its hand-overs for its tests to read, as Reconcile's two clients do. The world never reads them,
/// so they are not part of ``SyncClient``.
package protocol HandsOverLocalData {
  /// Every hand-over of local data the client made before deleting it for good, oldest first.
  var localDataDeletions: [LocalDataDeletion] { get }
}
