import Foundation
import Reconcile

// The sync session's calls into its store (``LocalStore``), each followed by what the store left for the session: a
// damaged copy thrown away means the zone is listed again from the beginning, and its notice is the last error.
extension SimulatedDevice {
  /// Takes what the store's last change left for the session.
  mutating func absorbStoreNotices() {
    guard state.store.refetchRequested || state.store.discardNotice != nil else { return }
    if store.refetchRequested {
      store.refetchRequested = false
      session.listing += 1
      session.syncRequested = true
    }
    if let notice = store.discardNotice {
      store.discardNotice = nil
      session.lastError = notice
    }
  }

  /// Applies a page of fetched changes; a halt leaves it unapplied.
  /// - Returns: Whether the page was applied (the token may be committed).
  mutating func apply(_ changes: ZoneChanges, at now: Date) -> Bool {
    let halt = store.apply(changes, at: now)
    absorbStoreNotices()
    if let halt {
      self.halt(halt)
      return false
    }
    return true
  }

  /// Merges the copy of `id` with a newer server version; see ``LocalStore/resolveConflict(_:server:)``.
  mutating func resolveConflict(_ id: RecordID, server: Record) -> HaltReason? {
    defer { absorbStoreNotices() }
    return store.resolveConflict(id, server: server)
  }

  /// Carries out the delete policy's decision; see ``LocalStore/settle(_:for:)``.
  mutating func settle(_ resolution: DeleteResolution, for local: LocalRecord) {
    store.settle(resolution, for: local)
    absorbStoreNotices()
  }

  /// Ends a fetch from the beginning; see ``LocalStore/finishFullFetch(at:)``.
  mutating func finishFullFetch(at now: Date) {
    guard let reason = storage.listingDrops else {
      store.finishFullFetch(at: now)
      absorbStoreNotices()
      return
    }
    storage.listingDrops = nil
    let held = storage.records
    store.finishFullFetch(at: now)
    absorbStoreNotices()
    handOver(.zoneDeletion(reason), goneFrom: held)
  }

  /// Throws away damaged records; see ``LocalStore/discardDamagedRecords(among:)``.
  @discardableResult
  mutating func discardDamagedRecords(among ids: [RecordID]? = nil) -> Bool {
    let discarded = store.discardDamagedRecords(among: ids)
    absorbStoreNotices()
    return discarded
  }

  /// Throws away the copy of `id` if damaged; see ``LocalStore/discardIfDamaged(_:)``.
  mutating func discardIfDamaged(_ id: RecordID) -> Bool {
    let discarded = store.discardIfDamaged(id)
    absorbStoreNotices()
    return discarded
  }

  /// Lets the device's clock observe a record's stamps; see ``LocalStore/observeStamps(of:)``.
  mutating func observeStamps(of record: Record) { store.observeStamps(of: record) }
}
