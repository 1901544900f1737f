/// A deliberate mistake the reference client can be built with, each one a classic sync bug from the field, so that a
/// test can show the invariant that should catch it firing.
///
/// A run names its defects in its setup (``SimulationSetup/defects``) and its replay script (`defect NAME`), so a
/// shrunk counterexample replays against the same broken client. Never turn one on in an app's own tests except to
/// check that the oracles catch it.
public enum ClientDefect: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Deleting a record whose save was sent but not acknowledged drops the deletion instead of sending it, and a fetch
  /// re-inserts whatever it brings without consulting tombstones: when the save had landed, the record comes back
  /// (seed 004, "Keep Track of Deleted Records"). Caught by ``Invariant/noResurrection``.
  case dropUnacknowledgedDeletes = "drop-unacknowledged-deletes"
  /// The device keeps sending while halted. Caught by ``Invariant/haltedDeviceSendsNothing``.
  case sendWhileHalted = "send-while-halted"
  /// A save's acknowledgement overwrites the local copy even when the user edited it while the save was in flight,
  /// so those edits are never sent. Caught by ``Invariant/oneSidedChangesKept``.
  case dropEditsDuringSave = "drop-edits-during-save"
  /// The pending queue lives in memory only: a crash forgets what was waiting to be sent. Caught by
  /// ``Invariant/noLostRecords`` and ``Invariant/convergence``.
  case forgetQueueOnCrash = "forget-queue-on-crash"
  /// Deletions in fetched changes are skipped: the device keeps records the server deleted. Caught by
  /// ``Invariant/convergence`` and ``Invariant/noResurrection``.
  case ignoreFetchedDeletions = "ignore-fetched-deletions"
  /// The device sends its stored copies without checking them for damage. Caught by
  /// ``Invariant/damagedDataNeverUploaded``.
  case skipStorageCheck = "skip-storage-check"
  /// A crash restores the zone token from an old backup (the first token the device committed), so the device's
  /// token moves backwards. Caught by ``Invariant/serverInvariants``.
  case rewindTokenOnCrash = "rewind-token-on-crash"
  /// Saves rebuild the record from the keys the app knows, removing keys a newer app wrote. Caught by
  /// ``Invariant/unknownKeysKept``.
  case stripUnknownKeys = "strip-unknown-keys"

  /// The script name.
  public var description: String { rawValue }
}
