import Foundation
package import Reconcile

/// A device's copy of one record: what the app sees, and the last server version it is based on.
///
/// Each copy carries a seal, as a real store keeps a checksum beside each row. Writes through the device keep it good;
/// damage done behind the device's back (see ``SimulatedDevice/corruptStoredRecord(_:)``) breaks it, and it stays
/// broken through later writes (a store verifies a row before it rewrites its checksum), so the damage cannot be
/// laundered by an update. Only that damage breaks a seal, so the seal is kept as a flag rather than recomputed: a
/// checksum of both copies on every write cost the simulator about a tenth of its time.
package struct LocalRecord: Sendable, Hashable {
  /// The last version the server handed this device (fetched or saved), with every value: the ancestor of the next
  /// conflict. `nil` for a record the server has not yet accepted.
  package internal(set) var lastKnownServer: Record?
  /// What the app sees: the server version plus unsent edits, which `Record/changedKeys` lists. Its system
  /// fields (change tag included) are the last known server version's.
  package internal(set) var current: Record
  /// Bumped by every local edit, so a save reply can tell whether the record changed while the save was in flight.
  var generation = 0
  /// Whether a save of this record may have landed: one was sent, and no definite answer says it did not.
  var sent = false
  /// Whether a save of this record went unanswered (its request timed out): it may have landed whatever later answers
  /// say about other saves.
  var inDoubt = false
  /// Whether the user created this record after deleting one with the same ID here, and the server has not yet
  /// acknowledged it: it replaces whatever the server holds under that ID, so every one of its values is the user's
  /// change.
  var replacesDeleted = false
  /// Whether what it replaces is a damaged copy this device threw away (the server still holds the record), rather
  /// than a record the user deleted here: losing this one to damage too owes the server no deletion.
  var replacesDiscardedCopy = false
  /// The server creation date of the record it replaces, when known: a deletion of this record aims at that one.
  var replacedCreationDate: Date?
  /// The deletion it replaces, when the user deleted the record here: owed again, as it was, should this one be lost
  /// to damage (its change tag says which version the user deleted, so `.editWins` spares only edits the user did not
  /// see).
  var replacedDeletion: Tombstone?
  /// The last few versions sent and not yet acknowledged: should one have landed unanswered — or as a duplicated
  /// copy — a server value equal to one of them is this device's own change, not a concurrent one.
  var unacknowledgedSaves = UnacknowledgedSaves()

  /// After the zone was deleted and until this record's upload into the zone created since lands
  /// (``SimulatedDevice/zoneWasDeleted(_:recreated:)``), the last version the server had handed this device before:
  /// what its merge with the new zone's version starts from, where that version still holds the same values, so the
  /// user's unsent edits since stand as changes and another device's upload of the same version changes nothing.
  var reuploadAncestor: Record?
  /// Whether this copy from a zone since deleted was uploaded again and the zone created since acknowledged it, until
  /// the next version fetched: a deletion standing for the user's, learnt of meanwhile, takes it from the server too.
  /// (Before it landed, its last known version is the old zone's, which another device's record under the same ID in
  /// the new zone is not.)
  var uploadedAgain = false
  /// Whether this copy from a zone since deleted merged into the new zone's version and that merge waits to land:
  /// landed, it is an upload of the old copy like any other (``uploadedAgain``).
  var mergedUploadPending = false
  /// Whether the stored copies were damaged behind the device's back: the seal is broken for good.
  private var sealBroken = false

  init(lastKnownServer: Record?, current: Record) {
    self.lastKnownServer = lastKnownServer
    self.current = current
  }

  /// Notes a save of `record` sent: it may land, and until it is acknowledged it is one of the last versions sent.
  mutating func noteSent(_ record: Record) {
    sent = true
    unacknowledgedSaves.noteSent(record)
  }

  /// Whether the record has edits the server has not accepted.
  package var hasUnsentChanges: Bool { !current.changedKeys.isEmpty || lastKnownServer == nil }

  /// Whether the stored copies still match their seal: `false` after storage corruption.
  package var isIntact: Bool { !sealBroken }

  /// Damages the current copy without resealing it: the first key's value (or a new key) becomes
  /// ``StorageDamage/garbage`` and is marked changed, as garbage that would otherwise be uploaded.
  mutating func corruptWithoutResealing() {
    let key = current.allKeys.sorted().first ?? "corrupted"
    current[key] = StorageDamage.garbage
    sealBroken = true
  }
}
