// Writes ZoneReplica metadata saved mid-sync by this release, and the end state a device that never upgraded reaches.
import Foundation
import Reconcile

typealias Replica = ZoneReplica<DictionaryReplicaStore>
let zone = try ZoneID(zoneName: "Notes")
func id(_ name: String) throws -> RecordID { try RecordID(recordName: name, zoneID: zone) }
func note(_ name: String, _ title: String) throws -> Record {
  var note = Record(recordType: "Note", recordID: try id(name))
  note["title"] = .string(title)
  return note
}
func saved(_ record: Record, tag: String) -> Record {
  var saved = record
  saved.recordChangeTag = tag
  saved.creationDate = Date(timeIntervalSince1970: 1)
  saved.clearChangedKeys()
  return saved
}
func at(_ s: Double) -> Date { Date(timeIntervalSince1970: s) }
func batch(_ r: inout Replica, _ s: inout SyncEngine.State) -> SyncEngine.RecordZoneChangeBatch? {
  r.nextRecordZoneChangeBatch(SyncEngine.SendChangesContext(reason: .scheduled), syncEngine: &s)
}
var replica = Replica(
  configuration: ReplicaConfiguration(zoneID: zone, deviceName: "phone", resolver: FieldMerge(), deletePolicy: .deleteWins),
  store: DictionaryReplicaStore())
var state = SyncEngine.State()
// n1 created and saved as t1; n2 and n3 created: n2's answer is lost (it landed), n3 saved as t1.
try replica.create(note("n1", "milk"), at: at(10), syncEngine: &state)
_ = batch(&replica, &state)
replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [saved(try note("n1", "milk"), tag: "t1")])), syncEngine: &state)
try replica.create(note("n2", "eggs"), at: at(12), syncEngine: &state)
try replica.create(note("n3", "flour"), at: at(13), syncEngine: &state)
let second = batch(&replica, &state)?.recordsToSave ?? []
let n2 = second.first { $0.recordID.recordName == "n2" }!
let n3 = second.first { $0.recordID.recordName == "n3" }!
replica.handleEvent(
  .sentRecordZoneChanges(.init(
    savedRecords: [saved(n3, tag: "t1")],
    failedRecordSaves: [.init(record: n2, error: CloudKitError(code: .networkFailure))])),
  syncEngine: &state)
// n1 edited here; its save refused by a change made elsewhere, the error without the server's record.
try replica.edit(try id("n1"), setting: ["title": .string("oat milk")], at: at(20), syncEngine: &state)
let third = batch(&replica, &state)?.recordsToSave ?? []
if let n1 = third.first(where: { $0.recordID.recordName == "n1" }) {
  replica.handleEvent(
    .sentRecordZoneChanges(.init(
      savedRecords: [], failedRecordSaves: [.init(record: n1, error: CloudKitError(code: .serverRecordChanged))])),
    syncEngine: &state)
}
// n3 deleted (waits for a fetch); n4 created, unsent.
try replica.delete(try id("n3"), at: at(21), syncEngine: &state)
try replica.create(note("n4", "butter"), at: at(22), syncEngine: &state)
replica.handleEvent(.stateUpdate(state.serialization), syncEngine: &state)

struct Saved: Codable { var metadata: ReplicaMetadata; var store: DictionaryReplicaStore }
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
let out = URL(fileURLWithPath: CommandLine.arguments[1])
try encoder.encode(Saved(metadata: replica.metadata, store: replica.store)).write(to: out.appendingPathComponent("saved.json"))

// What a device that never upgraded does next: the server holds n1 edited elsewhere (t2), n2 (its save landed), n3.
var server: [RecordID: Record] = [:]
var n1Server = saved(try note("n1", "milk"), tag: "t2"); n1Server["body"] = .string("2 litres"); n1Server.clearChangedKeys()
server[n1Server.recordID] = n1Server
server[n2.recordID] = saved(n2, tag: "t1")
server[n3.recordID] = saved(n3, tag: "t1")
var tags = 2
for event: SyncEngine.Event in [
  .willFetchChanges, .fetchedDatabaseChanges(.init(modifications: [zone], deletions: [])),
  .willFetchRecordZoneChanges(zone),
  .fetchedRecordZoneChanges(.init(modifications: server.values.sorted { $0.recordID < $1.recordID }, deletions: [])),
  .didFetchRecordZoneChanges(zone, error: nil), .didFetchChanges,
] { replica.handleEvent(event, syncEngine: &state) }
for _ in 0..<6 {
  guard let next = batch(&replica, &state), !(next.recordsToSave.isEmpty && next.recordIDsToDelete.isEmpty) else { break }
  var answered: [Record] = []
  var failed: [SyncEngine.FailedRecordSave] = []
  for record in next.recordsToSave {
    if let current = server[record.recordID], current.recordChangeTag != record.recordChangeTag {
      failed.append(.init(record: record, error: CloudKitError(
        code: .serverRecordChanged, conflict: .init(client: record, ancestor: nil, server: current))))
      continue
    }
    tags += 1
    let landed = saved(record, tag: "t\(tags)")
    server[record.recordID] = landed
    answered.append(landed)
  }
  for gone in next.recordIDsToDelete { server[gone] = nil }
  // The engine drops what the server took (and what it refused for good) from its pending changes.
  state.remove(pendingRecordZoneChanges: answered.map { .saveRecord($0.recordID) } + failed.map { .saveRecord($0.record.recordID) }
    + next.recordIDsToDelete.map { .deleteRecord($0) })
  replica.handleEvent(.sentRecordZoneChanges(.init(
    savedRecords: answered, failedRecordSaves: failed, deletedRecordIDs: next.recordIDsToDelete)), syncEngine: &state)
}
struct End: Codable { var records: [String: [String: String]]; var server: [String: [String: String]]; var pending: Int }
func user(_ records: [Record]) -> [String: [String: String]] {
  Dictionary(uniqueKeysWithValues: records.map { r in
    (r.recordID.recordName, Dictionary(uniqueKeysWithValues: ["title", "body"].compactMap { k in r[k].map { (k, "\($0)") } }))
  })
}
try encoder.encode(End(records: user(replica.store.records), server: user(Array(server.values)), pending: state.pendingRecordZoneChanges.count))
  .write(to: out.appendingPathComponent("end.json"))

