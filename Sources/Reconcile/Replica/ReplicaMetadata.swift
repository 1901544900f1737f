/// Everything a ``ZoneReplica`` knows beside the app's records: one `Codable` value, persisted after each event and
/// each user action, and handed back at launch.
///
/// It holds the engine's last state serialization, so one write keeps the engine's pending changes and the replica's
/// bookkeeping together; the zone's sync state; and one ``RecordSyncState`` per record it knows. Its saved form
/// carries a format version (``formatVersion``): every format a release has written decodes, and a newer one is a
/// ``FormatError``, never a silent reset. ``ZoneReplica/pendingWork(in:)`` shows what an app may want to display.
public struct ReplicaMetadata: Sendable, Hashable {
  /// The newest format this release reads and writes. Format 0 is the unversioned one of releases 0.29 to 0.33;
  /// format 2 adds ``unsavedStoreWrites``, and is written only while some are carried, so metadata without them stays
  /// in format 1, which 0.34 reads.
  public static let currentFormatVersion = 2
  /// The format of metadata that carries no store writes.
  static let formatWithoutStoreWrites = 1

  /// Metadata saved in a format this release cannot read.
  public enum FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Saved by a newer release, in format `found` (this one reads up to `supported`): open it with that release;
    /// nothing was reset.
    case newerFormat(found: Int, supported: Int)

    /// What went wrong, naming both formats.
    public var description: String {
      switch self {
      case .newerFormat(let found, let supported):
        "replica metadata in format \(found), saved by a newer release; this release reads formats 0 to \(supported)"
      }
    }
  }

  /// The format the metadata was migrated from: 0 for the unversioned format of releases 0.29 to 0.33, else
  /// ``currentFormatVersion`` (formats 1 and 2 read alike, 2 only adding what 1 leaves out).
  public private(set) var formatVersion = ReplicaMetadata.currentFormatVersion
  /// The engine state from the latest `stateUpdate`: hand it back to the engine at launch.
  public package(set) var stateSerialization: SyncEngine.StateSerialization?
  /// Whether the engine's next database fetch starts with no token — at first launch, after a forced resync and after
  /// an account change — and so lists every zone there is without reporting deletions: a zone this device created
  /// that it leaves out is gone.
  package var databaseListingStartsOver = true
  /// The zone's sync state.
  package var zone = ZoneSyncState()
  /// Each record's sync state, by ID; a record with none has nothing known.
  public private(set) var recordStates: [RecordID: RecordSyncState] = [:]
  /// The records whose state is waiting (``RecordSyncState/isWaiting``), kept beside ``recordStates`` so that the
  /// rules that look at every waiting record walk neither every record known nor the facts kept long after. Derived;
  /// not saved.
  private(set) var waitingRecords: Set<RecordID> = []
  /// The clock that stamps edits for the resolver's bookkeeping.
  package var clock: HybridLogicalClock?
  /// The account the records in the store belong to, as far as the replica heard (`nil` before any account change,
  /// or for records made while signed out).
  package var accountOwner: String?
  /// Why the replica stopped sending: a conflict with a newer app's record, which it must not merge, or one the
  /// resolver refused. The unsent change waits, kept, until an upgrade.
  @usableFromInline package var halt: SyncHalt?
  /// Under ``ReplicaPersistence/metadataThenStore``: every record the replica wrote to the store since the app last
  /// saved it (``ZoneReplica/storeSaved()``), by ID, `nil` for a removal. The metadata is written first and carries
  /// them, so a crash before the store is written loses none: ``ZoneReplica/init(configuration:store:metadata:)``
  /// writes them again. An app whose store is a database may apply exactly these to it. Always empty under
  /// ``ReplicaPersistence/oneTransaction``.
  public internal(set) var unsavedStoreWrites: [RecordID: Record?] = [:]

  /// The metadata of a first launch: nothing known, the zone listed from its beginning at the first fetch.
  public init() {}

  /// Metadata read from format `formatVersion`, to be filled in by its migration.
  init(formatVersion: Int) { self.formatVersion = formatVersion }

  /// The sync state of record `id` (empty when nothing is known of it).
  /// - Parameter id: The record.
  /// - Returns: Its state.
  public func syncState(of id: RecordID) -> RecordSyncState { recordStates[id] ?? RecordSyncState() }

  /// Record `id`'s state, read or changed in place; an entry left with nothing known goes.
  package subscript(id: RecordID) -> RecordSyncState {
    get { recordStates[id] ?? RecordSyncState() }
    _modify {
      guard let index = recordStates.index(forKey: id) else {
        var state = RecordSyncState()
        yield &state
        if state.isWaiting { waitingRecords.insert(id) }
        if !state.isSettled || state.serverVersion != nil { recordStates[id] = state }
        return
      }
      // Moved out and back (one lookup, no copy), and the index touched only when the state starts or stops waiting:
      // this runs for every record each batch hands out and each answer settles.
      var state = RecordSyncState()
      swap(&state, &recordStates.values[index])
      let wasWaiting = state.isWaiting
      yield &state
      let isWaiting = state.isWaiting
      if isWaiting != wasWaiting {
        if isWaiting { waitingRecords.insert(id) } else { waitingRecords.remove(id) }
      }
      if state.isSettled, state.serverVersion == nil {
        recordStates.remove(at: index)
      } else {
        swap(&state, &recordStates.values[index])
      }
    }
  }

  /// Whether some waiting record has a state that passes `test`.
  package func anyWaiting(where test: (RecordSyncState) -> Bool) -> Bool {
    waitingRecords.contains { recordStates[$0].map(test) ?? false }
  }

  /// The waiting records whose state passes `test`, sorted: for the rules that look at every waiting record.
  package func waiting(where test: (RecordSyncState) -> Bool) -> [RecordID] {
    guard !waitingRecords.isEmpty else { return [] }
    var found: [RecordID] = []
    for id in waitingRecords where recordStates[id].map(test) ?? false { found.append(id) }
    return found.count > 1 ? found.sorted() : found
  }

  /// Changes every record's state through `change` (for wholesale resets, which are rare).
  package mutating func changeEveryRecord(_ change: (RecordID, inout RecordSyncState) -> Void) {
    for id in recordStates.keys.sorted() { change(id, &self[id]) }
  }

  /// Changes each waiting record's state through `change`.
  package mutating func changeWaitingRecords(_ change: (RecordID, inout RecordSyncState) -> Void) {
    for id in waitingRecords.sorted() { change(id, &self[id]) }
  }

  /// The engine fetches everything again (a new engine, or the same account back): its first database fetch lists
  /// every zone, and the zone is listed from its beginning, so what either leaves out is gone.
  package mutating func listEverythingAgain() {
    databaseListingStartsOver = true
    zone.listAgain()
  }

  /// Whether a save of new record `id` may still land: handed out and unanswered, in doubt, or once unanswered (a
  /// late copy of its create). A deletion of it is remembered, to delete such a copy again.
  package func saveMayLandLate(_ id: RecordID) -> Bool { recordStates[id]?.saveMayLandLate ?? false }
}

extension ReplicaMetadata: Codable {
  private enum CodingKeys: String, CodingKey {
    case format, stateSerialization, databaseListingStartsOver, zone, records, clock, accountOwner, halt
    case unsavedStoreWrites
  }

  /// One store write carried in the saved form (format 2), in order of ID; no record for a removal.
  private struct SavedStoreWrite: Codable {
    var id: RecordID
    var record: Record?
  }

  /// One record's state in the saved form, which lists the records in order of ID.
  private struct SavedRecord: Codable {
    var id: RecordID
    var state: RecordSyncState
  }

  /// Reads metadata in any format a release has written (migrating format 0, the unversioned one).
  /// - Throws: ``FormatError/newerFormat(found:supported:)`` for a newer format; the decoder's error for bytes that
  ///   are not metadata.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard let format = try container.decodeIfPresent(Int.self, forKey: .format) else {
      self = try LegacyReplicaMetadata(from: decoder).migrated()
      return
    }
    guard format <= Self.currentFormatVersion else {
      throw FormatError.newerFormat(found: format, supported: Self.currentFormatVersion)
    }
    stateSerialization = try container.decodeIfPresent(SyncEngine.StateSerialization.self, forKey: .stateSerialization)
    databaseListingStartsOver = try container.decode(Bool.self, forKey: .databaseListingStartsOver)
    zone = try container.decode(ZoneSyncState.self, forKey: .zone)
    for saved in try container.decode([SavedRecord].self, forKey: .records) { self[saved.id] = saved.state }
    clock = try container.decodeIfPresent(HybridLogicalClock.self, forKey: .clock)
    accountOwner = try container.decodeIfPresent(String.self, forKey: .accountOwner)
    halt = try container.decodeIfPresent(SyncHalt.self, forKey: .halt)
    for write in try container.decodeIfPresent([SavedStoreWrite].self, forKey: .unsavedStoreWrites) ?? [] {
      unsavedStoreWrites[write.id] = .some(write.record)
    }
  }

  /// Writes the current format, records in order of ID: format 2 while store writes are carried, else format 1.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    let format = unsavedStoreWrites.isEmpty ? Self.formatWithoutStoreWrites : Self.currentFormatVersion
    try container.encode(format, forKey: .format)
    try container.encodeIfPresent(stateSerialization, forKey: .stateSerialization)
    try container.encode(databaseListingStartsOver, forKey: .databaseListingStartsOver)
    try container.encode(zone, forKey: .zone)
    let records = recordStates.keys.sorted().map { SavedRecord(id: $0, state: recordStates[$0] ?? RecordSyncState()) }
    try container.encode(records, forKey: .records)
    try container.encodeIfPresent(clock, forKey: .clock)
    try container.encodeIfPresent(accountOwner, forKey: .accountOwner)
    try container.encodeIfPresent(halt, forKey: .halt)
    if !unsavedStoreWrites.isEmpty {
      let writes = unsavedStoreWrites.keys.sorted().map {
        SavedStoreWrite(id: $0, record: unsavedStoreWrites[$0] ?? nil)
      }
      try container.encode(writes, forKey: .unsavedStoreWrites)
    }
  }
}
