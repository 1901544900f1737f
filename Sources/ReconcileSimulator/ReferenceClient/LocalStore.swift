package import Foundation
package import Reconcile

/// The reference client's local store: what it keeps on disk and the rules by which that changes — the user's edits,
/// fetched changes and deletions, conflicts merged through the resolver and the delete policy, damaged copies thrown
/// away. It knows nothing of a server, a network or a sync in progress: ``SimulatedDevice`` puts a sync session around
/// it, and tests drive it directly, a stored state and a server version in, the stored result out.
///
/// What the session must act on is left in ``refetchRequested`` and ``discardNotice``; the device reads them after
/// each call (``SimulatedDevice`` does so in one place).
package struct LocalStore: Sendable {
  /// How the device is set up: the store reads the resolver, bookkeeping, delete policy, schema, clock offset and
  /// defects.
  package var configuration: SimulatedDevice.Configuration
  /// What the device keeps on disk.
  package var storage: DeviceStorage
  /// Whether a stored record may be damaged: set when one is, cleared when a check of the whole store finds none, so
  /// the checks before each edit and send skip the store while nothing was damaged.
  package var mayHoldDamage = false
  /// A damaged copy was thrown away: the zone must be listed again from the beginning.
  package var refetchRequested = false
  /// What the last damaged copy thrown away leaves as the device's last error.
  package var discardNotice: String?
  /// Merges made since the trace last took them (memory only).
  package var decisions: [SyncDecision] = []

  /// An empty store.
  /// - Parameter configuration: How the device is set up.
  /// - Throws: ``DeviceError/invalidDeviceName(_:)`` for a name that is empty or longer than 255 UTF-8 bytes (the
  ///   name is the clock's node ID).
  package init(configuration: SimulatedDevice.Configuration) throws(DeviceError) {
    self.configuration = configuration
    do {
      storage = DeviceStorage(clock: try HybridLogicalClock(nodeID: configuration.name))
    } catch {
      throw .invalidDeviceName(configuration.name)
    }
  }

  /// The device's name: tombstones say who deleted.
  var name: String { configuration.name }

  /// The device's own clock reading at true time `now`: skewed by the clock offset.
  package func deviceTime(at now: Date) -> Date { now.addingTimeInterval(configuration.clockOffset) }

  /// The record as the device shows it.
  package func record(_ id: RecordID) -> Record? { storage.records[id]?.current }
}
