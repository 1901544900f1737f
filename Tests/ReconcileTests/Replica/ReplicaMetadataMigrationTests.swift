import Foundation
import Reconcile
import Testing

/// Metadata saved mid-sync by each release since the core appeared (built from the release commits by
/// `Scripts/replica-metadata-fixtures.sh`) decodes, and the device syncs on to the end state a device that never
/// upgraded reached.
@Suite("ReplicaMetadata: every saved format reads, and syncs on")
struct ReplicaMetadataMigrationTests {
  static let releases = ["0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0"]

  struct Saved: Codable {
    var metadata: ReplicaMetadata
    var store: DictionaryReplicaStore
  }

  struct End: Codable, Equatable {
    var records: [String: [String: String]]
    var server: [String: [String: String]]
    var pending: Int
  }

  static func file(_ name: String) throws -> Data {
    guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "SavedMetadata") else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
    }
    return try Data(contentsOf: url)
  }

  static var zone: ZoneID { get throws { try ZoneID(zoneName: "Notes") } }

  static func saved(_ record: Record, tag: String) -> Record {
    var saved = record
    saved.recordChangeTag = tag
    saved.creationDate = Date(timeIntervalSince1970: 1)
    saved.clearChangedKeys()
    return saved
  }

  /// What the generator's device does after it saved: the server holds n1 edited elsewhere (t2), n2 (its save
  /// landed unanswered) and n3; a fetch, then batches answered until nothing is left.
  static func syncOn(_ replica: inout ZoneReplica<DictionaryReplicaStore>, _ state: inout SyncEngine.State) throws
    -> End
  {
    let zone = try Self.zone
    var server: [RecordID: Record] = [:]
    var n1 = Record(recordType: "Note", recordID: try RecordID(recordName: "n1", zoneID: zone))
    n1["title"] = .string("milk")
    n1["body"] = .string("2 litres")
    server[n1.recordID] = saved(n1, tag: "t2")
    for (name, title) in [("n2", "eggs"), ("n3", "flour")] {
      var note = Record(recordType: "Note", recordID: try RecordID(recordName: name, zoneID: zone))
      note["title"] = .string(title)
      server[note.recordID] = saved(note, tag: "t1")
    }
    let fetch: [SyncEngine.Event] = [
      .willFetchChanges, .fetchedDatabaseChanges(.init(modifications: [zone], deletions: [])),
      .willFetchRecordZoneChanges(zone),
      .fetchedRecordZoneChanges(
        .init(modifications: server.values.sorted { $0.recordID < $1.recordID }, deletions: [])),
      .didFetchRecordZoneChanges(zone, error: nil), .didFetchChanges,
    ]
    for event in fetch { replica.handleEvent(event, syncEngine: &state) }
    var tags = 2
    for _ in 0..<6 {
      guard
        let batch = replica.nextRecordZoneChangeBatch(.init(reason: .scheduled), syncEngine: &state),
        !(batch.recordsToSave.isEmpty && batch.recordIDsToDelete.isEmpty)
      else { break }
      var answered: [Record] = []
      var failed: [SyncEngine.FailedRecordSave] = []
      for record in batch.recordsToSave {
        if let current = server[record.recordID], current.recordChangeTag != record.recordChangeTag {
          let conflict = Conflict(client: record, ancestor: nil, server: current)
          failed.append(.init(record: record, error: CloudKitError(code: .serverRecordChanged, conflict: conflict)))
          continue
        }
        tags += 1
        let landed = saved(record, tag: "t\(tags)")
        server[record.recordID] = landed
        answered.append(landed)
      }
      for gone in batch.recordIDsToDelete { server[gone] = nil }
      state.remove(
        pendingRecordZoneChanges: answered.map { .saveRecord($0.recordID) }
          + failed.map { .saveRecord($0.record.recordID) } + batch.recordIDsToDelete.map { .deleteRecord($0) })
      replica.handleEvent(
        .sentRecordZoneChanges(
          .init(savedRecords: answered, failedRecordSaves: failed, deletedRecordIDs: batch.recordIDsToDelete)),
        syncEngine: &state)
    }
    return End(
      records: userValues(replica.store.records), server: userValues(Array(server.values)),
      pending: state.pendingRecordZoneChanges.count)
  }

  static func userValues(_ records: [Record]) -> [String: [String: String]] {
    Dictionary(
      uniqueKeysWithValues: records.map { record in
        (
          record.recordID.recordName,
          Dictionary(uniqueKeysWithValues: ["title", "body"].compactMap { key in record[key].map { (key, "\($0)") } })
        )
      })
  }

  static func replica(from saved: Saved) throws -> ZoneReplica<DictionaryReplicaStore> {
    ZoneReplica(
      configuration: ReplicaConfiguration(
        zoneID: try zone, deviceName: "phone", resolver: FieldMerge(), deletePolicy: .deleteWins),
      store: saved.store, metadata: saved.metadata)
  }

  @Test(
    "metadata saved mid-sync by each release decodes and syncs on to the end state of a device never upgraded",
    arguments: releases)
  func savedMetadataSyncsOn(release: String) throws {
    let saved = try JSONDecoder().decode(Saved.self, from: Self.file("replica-metadata-\(release)-saved"))
    let expected = try JSONDecoder().decode(End.self, from: Self.file("replica-metadata-\(release)-end"))
    #expect(saved.metadata.formatVersion == 0)
    var replica = try Self.replica(from: saved)
    var state = SyncEngine.State(saved.metadata.stateSerialization ?? .init())
    replica.relaunch()
    let end = try Self.syncOn(&replica, &state)
    #expect(end == expected, "release \(release)")
    let work = replica.pendingWork(in: state)
    #expect(work.unsentSaves.isEmpty && work.unsentDeletions.isEmpty && work.halt == nil, "release \(release)")
  }

  @Test(
    "each release's facts land in the record's state: the server version, the conflict, the doubt, the deletion",
    arguments: releases)
  func migratedStatesHoldTheFacts(release: String) throws {
    let metadata = try JSONDecoder().decode(Saved.self, from: Self.file("replica-metadata-\(release)-saved")).metadata
    let zone = try Self.zone
    let n1 = metadata.syncState(of: try RecordID(recordName: "n1", zoneID: zone))
    let n2 = metadata.syncState(of: try RecordID(recordName: "n2", zoneID: zone))
    let n3 = metadata.syncState(of: try RecordID(recordName: "n3", zoneID: zone))
    #expect(n1.serverVersion?.recordChangeTag == "t1")
    // 0.29 had no rule for a conflict that came without the server's record.
    #expect(n1.flags.contains(.saveAwaitsFetch) == (release != "0.29.0"))
    #expect(n2.flags.isSuperset(of: [.createHandedOut, .createInDoubt, .lateCreateMayLand]))
    #expect(n3.deletion != nil && n3.flags.contains(.deletionAwaitsFetch))
    #expect(metadata.stateSerialization?.pendingRecordZoneChanges.count ?? 0 >= 3)
  }

  @Test("the current format writes a version and reads back equal; records in order of ID")
  func currentFormatRoundTrips() throws {
    let old = try JSONDecoder().decode(Saved.self, from: Self.file("replica-metadata-0.33.0-saved")).metadata
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(old)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    // Carrying no store writes, it stays in format 1, which 0.34 reads.
    #expect(object?["format"] as? Int == 1)
    let read = try JSONDecoder().decode(ReplicaMetadata.self, from: data)
    #expect(read.formatVersion == ReplicaMetadata.currentFormatVersion)
    #expect(read.recordStates == old.recordStates)
    #expect(try encoder.encode(read) == data)
  }

  @Test("metadata carrying store writes is format 2 and reads back with them, a removal as a removal")
  func carriedStoreWritesRoundTrip() throws {
    let zone = try Self.zone
    var configuration = ReplicaConfiguration(zoneID: zone, deviceName: "phone")
    configuration.persistence = .metadataThenStore
    let kept = try RecordID(recordName: "kept", zoneID: zone)
    let gone = try RecordID(recordName: "gone", zoneID: zone)
    var replica = ZoneReplica(
      configuration: configuration, store: DictionaryReplicaStore([Record(recordType: "Note", recordID: gone)]))
    var engine = SyncEngine.State()
    var note = Record(recordType: "Note", recordID: kept)
    note["title"] = .string("milk")
    try replica.create(note, at: Date(timeIntervalSince1970: 5), syncEngine: &engine)
    try replica.delete(gone, at: Date(timeIntervalSince1970: 6), syncEngine: &engine)
    let data = try JSONEncoder().encode(replica.metadata)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect(object?["format"] as? Int == 2)
    let read = try JSONDecoder().decode(ReplicaMetadata.self, from: data)
    #expect(read.unsavedStoreWrites == replica.metadata.unsavedStoreWrites)
    #expect(read.unsavedStoreWrites[kept] == .some(replica.store[kept]))
    #expect(read.unsavedStoreWrites[gone] == .some(nil))
    // A launch from the old store writes them again.
    let launched = ZoneReplica(
      configuration: configuration, store: DictionaryReplicaStore([Record(recordType: "Note", recordID: gone)]),
      metadata: read)
    #expect(launched.store.recordIDs == [kept])
    replica.storeSaved()
    #expect(replica.metadata.unsavedStoreWrites.isEmpty)
  }

  @Test("metadata from a newer format is a typed error naming both formats, never a reset")
  func newerFormatIsAnError() throws {
    let data = Data(#"{"format": 7, "databaseListingStartsOver": true, "zone": {}, "records": []}"#.utf8)
    #expect(throws: ReplicaMetadata.FormatError.newerFormat(found: 7, supported: ReplicaMetadata.currentFormatVersion))
    {
      try JSONDecoder().decode(ReplicaMetadata.self, from: data)
    }
    let message = "\(ReplicaMetadata.FormatError.newerFormat(found: 7, supported: 2))"
    #expect(message.contains("format 7") && message.contains("0 to 2"))
  }

  @Test(
    "bytes that are not metadata throw, and do not trap",
    arguments: ["", "[]", "{\"format\": \"x\"}", "{\"format\": 1}"])
  func garbageThrows(text: String) {
    #expect(throws: (any Error).self) { try JSONDecoder().decode(ReplicaMetadata.self, from: Data(text.utf8)) }
  }
}
