/// Everything a ``ZoneReplica`` knows beside the app's records: one `Codable` value, persisted after each event and
/// each user action, and handed back at launch.
///
/// It holds the engine's last state serialization, so one write keeps the engine's pending changes and the replica's
/// bookkeeping together. Its parts are the replica's to read and write; ``ZoneReplica/pendingWork(in:)`` shows what
/// an app may want to display.
public struct ReplicaMetadata: Sendable, Hashable, Codable {
  /// The engine state from the latest `stateUpdate`: hand it back to the engine at launch.
  public package(set) var stateSerialization: SyncEngine.StateSerialization?
  /// Whether the app knows its zone exists on the server.
  package var zoneCreated = false
  /// Whether the zone's next fetch starts from its beginning: at first launch, after the zone was deleted, and after
  /// a fetch of it ended with an error (an expired token, or the zone not found), after which the engine fetches it
  /// again from the start.
  package var zoneFetchStartsOver = true
  /// Whether the engine's next database fetch starts with no token — at first launch, after a forced resync and after
  /// an account change — and so lists every zone there is without reporting deletions: a zone this device created
  /// that it leaves out is gone.
  package var databaseListingStartsOver = true
  /// The records seen so far by a fetch from the beginning of the zone; `nil` when none is under way. At its end,
  /// acknowledged records it did not bring are gone.
  package var fullFetchSeen: Set<RecordID>?
  /// Whether the fetch from the beginning under way decides what went with a zone deleted and created again, under
  /// a policy that uploads local data again: the acknowledged records it leaves out are uploaded again, not dropped.
  package var reuploadUnseen = false
  /// The reason for a deletion standing for the user's that the fetch from the beginning under way answers: what it
  /// leaves out goes, handed to the app first.
  package var listingDrops: SyncEngine.ZoneDeletion.Reason?
  /// Copies from an older zone this device uploaded again after a deletion that did not stand for the user's, until
  /// the database feed shows no deletion since: a later deletion that does stand, which the upload raced into a zone
  /// another device created, takes them from the server too.
  package var uploadedAgain: Set<RecordID> = []
  /// Records the user deleted whose deletion the server has not confirmed, each with its tombstone: the deleted
  /// record's creation date (`nil` when the server never confirmed the record: a copy that turns up may be this
  /// device's own save, so the deletion stands) — a fetched record with the same ID but another creation date was
  /// created anew elsewhere, and the deletion, which carries no change tag, must not be sent against it — and the
  /// change tag of the last version the deletion saw.
  package var deletions: [RecordID: Tombstone] = [:]
  /// New records (no system fields) handed to the engine to send, until the server confirms or refuses them: one of
  /// these may have landed, so deleting it must reach the server; a new record never handed out is deleted locally
  /// only.
  package var newRecordsHandedOut: Set<RecordID> = []
  /// New records the user deleted before any attempt to save them may have landed, deleted here only: should a copy
  /// of this device's own save turn up after all (a duplicate), it is deleted again.
  package var deletedLocally: [RecordID: Tombstone] = [:]
  /// New records handed out whose save went unanswered (`networkFailure`, `serverResponseLost`): it may have landed,
  /// whatever later answers say.
  package var savesInDoubt: Set<RecordID> = []
  /// New records whose create went unanswered once: a copy of that create may land at any time, even after a later
  /// copy was answered — and after a deletion, it creates the record again. A deletion of one is remembered in
  /// ``deletedLocally`` once confirmed, so that copy is deleted again.
  package var lateCreateCopies: Set<RecordID> = []
  /// Deletions not sent until a fetch that starts after them shows the zone unchanged or fetches it.
  package var deletionsAwaitingFetch: Set<RecordID> = []
  /// Saves refused by `serverRecordChanged` whose error came without the server's record (CloudKit attaches it only
  /// "if available"): held, pending, until a fetch that starts after the refusal brings that version to merge with.
  package var savesAwaitingFetch: Set<RecordID> {
    get { conflictsWithoutServerRecord ?? [] }
    set { conflictsWithoutServerRecord = newValue.isEmpty ? nil : newValue }
  }
  /// Stored optional, so that metadata persisted by a release without it still decodes.
  private var conflictsWithoutServerRecord: Set<RecordID>?
  /// The last server version of each record the app knew: the ancestor of the next merge.
  package var ancestors: [RecordID: Record] = [:]
  /// The clock that stamps edits for the resolver's bookkeeping.
  package var clock: HybridLogicalClock?
  /// Records the user created again while their deletion was still unsent, with that deletion: the new record
  /// replaces the one on the server whole, and deleting it again owes the server the deletion.
  package var replacing: [RecordID: Tombstone] = [:]
  /// For each record in ``replacing``, the keys its app knew when the user created it: a key the app learnt only
  /// later (an upgrade since) was not the user's to set or leave out.
  package var replacementKeys: [RecordID: Set<String>] = [:]
  /// The account the records in the store belong to, as far as the replica heard (`nil` before any account change,
  /// or for records made while signed out).
  package var accountOwner: String?
  /// Why the replica stopped sending: a conflict with a newer app's record, which it must not merge, or one the
  /// resolver refused. The unsent change waits, kept, until an upgrade.
  @usableFromInline package var halt: SyncHalt?
  /// Server versions this device holds no readable copy of — a halt kept them from merging, or the app discarded its
  /// copy as unreadable — until a merge takes them: the server holds the record, though the copy shown may be one it
  /// never acknowledged, so deleting it must reach the server.
  package var heldBack: [RecordID: Record] = [:] {
    didSet {
      guard let byHalt = heldBackByHaltStorage, byHalt.contains(where: { heldBack[$0] == nil }) else { return }
      heldBackByHalt = byHalt.filter { heldBack[$0] != nil }
    }
  }
  /// Which of ``heldBack`` a halt kept from merging: versions the user was never shown, so a deletion made meanwhile
  /// did not see them (a copy the app discarded was the user's to see before it went).
  package var heldBackByHalt: Set<RecordID> {
    get { heldBackByHaltStorage ?? [] }
    set { heldBackByHaltStorage = newValue.isEmpty ? nil : newValue }
  }
  /// Stored optional, so that metadata persisted by a release without it still decodes.
  private var heldBackByHaltStorage: Set<RecordID>?
  /// Acknowledged copies the last listing from the zone's beginning left out, and so dropped, kept until the next read
  /// of the database feed: a listing answered after a deletion of the zone that the feed had not yet reported lists
  /// the zone created since, and what it leaves out did not go with a user's deletion. When that read reports the
  /// zone deleted, they come back, for the deletion's policy to upload again or drop; otherwise they are forgotten.
  package var droppedByListing: [RecordID: Record] {
    get { droppedByListingStorage ?? [:] }
    set { droppedByListingStorage = newValue.isEmpty ? nil : newValue }
  }
  /// Stored optional, so that metadata persisted by a release without it still decodes.
  private var droppedByListingStorage: [RecordID: Record]?
  /// A save found the zone gone, with the reason its error implies (`zoneNotFound`: a client's deletion;
  /// `userDeletedZone`: a purge): nothing is sent until the database feed says why — what to keep depends on it,
  /// and the feed's report is the one the device handles, once — or, when a whole fetch does not say, the error's
  /// reason stands.
  package var zoneMissing: SyncEngine.ZoneDeletion.Reason?
  /// Records with unsent edits found created anew on the server, and whether a fetch has read the database feed
  /// since: until it has said whether their zone went (and the record was uploaded again), nothing is sent; the
  /// next merge after that decides whether the edits merge or go.
  package var recreatedWhileUnsent: [RecordID: Bool] = [:]
  /// For each record in ``recreatedWhileUnsent``, the version created anew that the fetch brought, not merged while
  /// the decision waits: a deletion the user makes of the stale copy meanwhile is of the record the server no longer
  /// has, and settles against this one (which stays) instead of being sent to delete it.
  package var recreatedVersions: [RecordID: Record] {
    get { undecidedRecreatedVersions ?? [:] }
    set { undecidedRecreatedVersions = newValue.isEmpty ? nil : newValue }
  }
  /// Stored optional, so that metadata persisted by a release without it still decodes.
  private var undecidedRecreatedVersions: [RecordID: Record]?
  /// Records uploaded again after their zone went, not yet saved or merged since: the last server version known
  /// before (in ``ancestors``) is still the ancestor of their first merge, so the user's unsent edits stand as
  /// changes and another device's upload of that same version changes nothing.
  package var reuploaded: Set<RecordID> = []

  /// What each record sent and never acknowledged was (``UnacknowledgedSaves``), to tell its own landed saves from
  /// another device's changes.
  package var unacknowledgedSaves: [RecordID: UnacknowledgedSaves] {
    get { sentUnacknowledged ?? [:] }
    // Moved out and back, not copied: this runs for every record each batch hands out and each answer settles.
    _modify {
      var value = sentUnacknowledged ?? [:]
      sentUnacknowledged = nil
      defer { sentUnacknowledged = value.isEmpty ? nil : value }
      yield &value
    }
  }
  /// Stored optional, so that metadata persisted by a release without it still decodes.
  private var sentUnacknowledged: [RecordID: UnacknowledgedSaves]?

  /// The metadata of a first launch: nothing known, the zone listed from its beginning at the first fetch.
  public init() {}

  /// The engine fetches everything again (a new engine, or the same account back): its first database fetch lists
  /// every zone, and the zone is listed from its beginning, so what either leaves out is gone.
  package mutating func listEverythingAgain() {
    databaseListingStartsOver = true
    listZoneAgain()
  }

  /// The zone's next fetch starts from its beginning: the records it lists are all there are.
  package mutating func listZoneAgain() {
    zoneFetchStartsOver = true
    fullFetchSeen = nil
  }

  /// Whether a save of new record `id` may still land: handed out and unanswered, in doubt, or once unanswered (a
  /// late copy of its create). A deletion of it is remembered, to delete such a copy again.
  package func saveMayLandLate(_ id: RecordID) -> Bool {
    savesInDoubt.contains(id) || newRecordsHandedOut.contains(id) || lateCreateCopies.contains(id)
  }
}
