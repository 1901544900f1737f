package import Foundation
package import Reconcile

/// What a device keeps on disk: everything that survives a crash. Nothing else does.
package struct DeviceStorage: Sendable, Hashable {
  /// The device's records by ID.
  package internal(set) var records: [RecordID: LocalRecord] = [:]
  /// Changes not yet accepted by the server.
  package internal(set) var pending = PendingQueue()
  /// Records known to be deleted, so late changes do not bring them back.
  package internal(set) var tombstones = Tombstones()
  /// The zone-change token, committed only after the changes it covers were applied.
  package internal(set) var zoneToken: ZoneChangeToken?
  /// The database-change token.
  package internal(set) var databaseToken: DatabaseChangeToken?
  /// Whether the device has created (or seen) its zone on the server.
  package internal(set) var zoneCreated = false
  /// The iCloud account the stored data belongs to, once the device has changed accounts (before: its configured one).
  var dataOwner: String?
  /// The device's hybrid logical clock, kept so its stamps never go backwards across launches.
  package internal(set) var clock: HybridLogicalClock
  /// How many damaged records the device has found and thrown away (see
  /// ``SimulatedDevice/corruptStoredRecord(_:)``).
  package internal(set) var damagedRecordsDiscarded = 0
  /// Records thrown away as damaged that the server holds (or may hold: a save was sent), by ID, with the server's
  /// creation date when known, until the refetch brings them back: a record the user creates under such an ID before
  /// then replaces the server's, so deleting it must reach the server.
  var discardedServerCopies: [RecordID: Date?] = [:]
  /// The first zone token the device committed in the zone's current incarnation: what ``ClientDefect/rewindTokenOnCrash``
  /// restores.
  var firstZoneToken: ZoneChangeToken?
  /// Fetched copies of records this device deleted that it kept from coming back: a pending deletion kept under
  /// `.deleteWins`, or a tombstoned record deleted again.
  package internal(set) var resurrectionsBlocked = 0
  /// When the device last finished fetching changes.
  package internal(set) var lastSuccessfulFetch: Date?
  /// When the server last accepted a save or delete from the device.
  package internal(set) var lastSuccessfulSave: Date?
  /// The records seen so far by a fetch from the beginning of the zone's history (after a token expired, or on first
  /// sync); `nil` when no such fetch is under way. Persisted, so a crash in the middle of it still ends with records
  /// the server no longer has being removed.
  var fullFetchSeen: Set<RecordID>?
  /// Whether a fetch from the beginning that left out acknowledged records waits, before they are removed, for a read
  /// of the database feed: the zone may have been deleted and created again since this device last read it, and the
  /// reason decides whether they are uploaded again rather than dropped.
  var fullFetchAwaitsFeed = false
  /// The reason for a deletion standing for the user's that the fetch from the beginning under way answers: what it
  /// leaves out goes, handed to the app first.
  var listingDrops: SyncEngine.ZoneDeletion.Reason?
  /// Copies from an older zone this device uploaded again, dropped for a later deletion that stands for the user's,
  /// each with the change tag and creation date its upload got: the zone created since holds that very version only if
  /// the upload raced the deletion, so the listing of it from the beginning decides whether the device deletes it
  /// there — under `.deleteWins` also once another device edited it since (the same creation date: an edit of the
  /// raced copy, which the deletion beats), never a record created anew.
  var uploadsToWithdraw: [RecordID: Upload] = [:]
  /// What an upload of a copy got from the server: its change tag and the record's creation date.
  struct Upload: Sendable, Hashable {
    var tag: String
    var created: Date?
  }
  /// Whether the fetch from the beginning under way decides what went with a zone deleted and created again, under a
  /// response that uploads local data again: the acknowledged records it leaves out are uploaded again, not dropped.
  var reuploadUnseen = false
  /// Deletions queued for records whose save was sent but never acknowledged, with whether that save went
  /// unanswered: a definite refusal of the save means nothing of this device's reached the server, and the deletion
  /// is dropped rather than sent against whatever record now holds the ID.
  var deletesOfUnconfirmed: [RecordID: Bool] = [:]
  /// Records the user deleted while a save of theirs was unanswered: a copy of that save may still land after the
  /// deletion's own answer, so a record created again under the ID replaces whatever the server holds, whole.
  var staleSavesInDoubt: Set<RecordID> = []
  /// Deletions queued since the last completed fetch: each is sent only after a fetch that follows it, which cancels
  /// it when the record was deleted and created anew meanwhile (deletions carry no change tag).
  var deletesAwaitingFetch: Set<RecordID> = []
  /// A counter for request IDs, persisted so an answer to a request sent before a crash is never taken for an answer to
  /// one sent after.
  var requestSerial = 0
  /// Saves kept queued beside a deletion of the same record: only ``ClientDefect/saveAndDeleteTogether`` keeps any.
  var savesBesideDeletes: [RecordID: Record] = [:]
  /// Copies of records the user deleted here: only ``ClientDefect/recreateRestoresDeletedFields`` keeps any.
  var deletedCopies: [RecordID: Record] = [:]

  init(clock: HybridLogicalClock) { self.clock = clock }
}
