/// Metadata as releases 0.29 to 0.33 saved it (format 0): one collection per fact, keyed by record, with no version.
/// Read only, to migrate: each fact becomes part of its record's ``RecordSyncState``. Fields a release added later
/// are optional here, so every one of those releases' files decodes.
struct LegacyReplicaMetadata: Decodable {
  var stateSerialization: SyncEngine.StateSerialization?
  var zoneCreated: Bool?
  var zoneFetchStartsOver: Bool?
  var databaseListingStartsOver: Bool?
  var fullFetchSeen: Set<RecordID>?
  var reuploadUnseen: Bool?
  var listingDrops: SyncEngine.ZoneDeletion.Reason?
  var uploadedAgain: Set<RecordID>?
  var deletions: [RecordID: Tombstone]?
  var newRecordsHandedOut: Set<RecordID>?
  var deletedLocally: [RecordID: Tombstone]?
  var savesInDoubt: Set<RecordID>?
  var lateCreateCopies: Set<RecordID>?
  var deletionsAwaitingFetch: Set<RecordID>?
  var conflictsWithoutServerRecord: Set<RecordID>?
  var ancestors: [RecordID: Record]?
  var clock: HybridLogicalClock?
  var replacing: [RecordID: Tombstone]?
  var replacementKeys: [RecordID: Set<String>]?
  var accountOwner: String?
  var halt: SyncHalt?
  var heldBack: [RecordID: Record]?
  var heldBackByHaltStorage: Set<RecordID>?
  var droppedByListingStorage: [RecordID: Record]?
  var zoneMissing: SyncEngine.ZoneDeletion.Reason?
  var recreatedWhileUnsent: [RecordID: Bool]?
  var undecidedRecreatedVersions: [RecordID: Record]?
  var reuploaded: Set<RecordID>?
  var sentUnacknowledged: [RecordID: UnacknowledgedSaves]?

  /// The same knowledge in the current form.
  func migrated() -> ReplicaMetadata {
    var metadata = ReplicaMetadata(formatVersion: 0)
    metadata.stateSerialization = stateSerialization
    metadata.databaseListingStartsOver = databaseListingStartsOver ?? true
    metadata.zone.created = zoneCreated ?? false
    metadata.zone.fetchStartsOver = zoneFetchStartsOver ?? true
    metadata.zone.listingSeen = fullFetchSeen
    metadata.zone.listingReuploadsUnseen = reuploadUnseen ?? false
    metadata.zone.listingDrops = listingDrops
    metadata.zone.missing = zoneMissing
    metadata.clock = clock
    metadata.accountOwner = accountOwner
    metadata.halt = halt
    let flags: [(Set<RecordID>?, RecordSyncState.Flags)] = [
      (newRecordsHandedOut, .createHandedOut), (savesInDoubt, .createInDoubt), (lateCreateCopies, .lateCreateMayLand),
      (deletionsAwaitingFetch, .deletionAwaitsFetch), (conflictsWithoutServerRecord, .saveAwaitsFetch),
      (reuploaded, .reuploaded), (uploadedAgain, .uploadedAfterZoneLoss),
    ]
    for (ids, flag) in flags {
      for id in ids ?? [] { metadata[id].flags.insert(flag) }
    }
    for (id, version) in ancestors ?? [:] { metadata[id].serverVersion = version }
    for (id, saves) in sentUnacknowledged ?? [:] { metadata[id].unacknowledged = saves }
    for (id, tombstone) in deletions ?? [:] { metadata[id].deletion = tombstone }
    for (id, tombstone) in deletedLocally ?? [:] { metadata[id].localDeletion = tombstone }
    for (id, tombstone) in replacing ?? [:] {
      metadata[id].replacement = .init(replaced: tombstone, knownKeys: replacementKeys?[id])
    }
    for (id, version) in heldBack ?? [:] {
      metadata[id].heldBack = .init(version: version, byHalt: heldBackByHaltStorage?.contains(id) ?? false)
    }
    for (id, copy) in droppedByListingStorage ?? [:] { metadata[id].droppedByListing = copy }
    for (id, feedRead) in recreatedWhileUnsent ?? [:] {
      metadata[id].recreation = .init(feedRead: feedRead, version: undecidedRecreatedVersions?[id])
    }
    return metadata
  }
}
