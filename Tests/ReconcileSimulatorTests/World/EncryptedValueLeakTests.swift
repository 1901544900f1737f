import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// Encrypted values carry a marker no plain value contains; every text and archive the library and the simulator
/// produce is searched for it. (The playground's own output is checked by `SessionTests`.)
@Suite("Security: encrypted values never leak into archives, descriptions, logs or diagnostics")
struct EncryptedValueLeakTests {
  static let marker = "S3CR3T"

  /// Everything a record can be turned into without asking for its encrypted values, as bytes.
  static func exposures(of record: Record) throws -> [(String, Data)] {
    var dumped = ""
    dump(record, to: &dumped)
    var exposed = [
      ("description", Data(record.description.utf8)), ("debugDescription", Data(record.debugDescription.utf8)),
      ("String(reflecting:)", Data(String(reflecting: record).utf8)), ("dump", Data(dumped.utf8)),
      ("system-fields archive", record.encodeSystemFields()),
    ]
    if (try? record.validate()) != nil { exposed.append(("keyed archive", try record.cloudKitSystemFieldsArchive())) }
    return exposed
  }

  /// Whether `data` holds the marker in UTF-8 or in UTF-16 (binary property lists store non-ASCII strings so).
  static func holdsMarker(_ data: Data) -> Bool {
    let utf16 = Data(marker.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    return data.range(of: Data(marker.utf8)) != nil || data.range(of: utf16) != nil
  }

  @Test("random records with encrypted values: no description, dump or archive holds them")
  func recordsNeverShowEncryptedValues() throws {
    for seed in TestSeeds.seeds(1...300) {
      var gen = RandomRecords(seed: seed)
      var record = gen.record()
      record.encryptedValues["secretText"] = .string("\(Self.marker) \(gen.text())")
      record.encryptedValues["secretList"] = .list([.string(Self.marker), .string("\(Self.marker)-2")])
      record.encryptedValues["secretBytes"] = .bytes(Data(Self.marker.utf8))
      for (place, data) in try Self.exposures(of: record) where Self.holdsMarker(data) {
        Issue.record(
          "seed \(seed): the \(place) shows an encrypted value; \(TestSeeds.replay(seed, test: "EncryptedValueLeakTests"))"
        )
      }
    }
  }

  @Test("devices syncing encrypted values through conflicts: no event, diagnostic, error or dump shows them")
  func simulatorNeverShowsEncryptedValues() throws {
    let zone = try ZoneID(zoneName: "Notes")
    for seed in TestSeeds.seeds(1...20) {
      var random = SeededRandom(seed: seed)
      var server = SimulatedServer(configuration: .init(throttle: nil, recordsEvents: true))
      var devices = try ["phone", "mac", "pad"].map { name in
        try SimulatedDevice(
          configuration: .init(name: name, userRecordName: "_alice", zoneID: zone, resolver: FieldMerge()))
      }
      var texts: [String] = []
      for step in 0..<60 {
        let d = Int(random.next() % 3)
        let id = try RecordID(recordName: "n\(random.next() % 4)", zoneID: zone)
        let secret = FieldValue.string("\(Self.marker) \(seed)-\(step)")
        switch random.next() % 4 {
        case 0:
          if devices[d].record(id) == nil {
            var record = Record(recordType: "Note", recordID: id)
            record["title"] = .string("plain \(step)")
            record.encryptedValues["secret"] = secret
            try devices[d].create(record, at: server.now)
          }
        case 1:
          if devices[d].record(id) != nil {
            try devices[d].edit(id, at: server.now) { $0.encryptedValues["secret"] = secret }
          }
        case 2:
          if devices[d].record(id) != nil, random.next() % 3 == 0 { try devices[d].delete(id, at: server.now) }
        default:
          devices[d].sync(with: &server)
        }
        server.advanceClock(by: 1)
        var dumped = ""
        dump(devices[d], to: &dumped)
        texts += [
          String(describing: devices[d].diagnostics), String(reflecting: devices[d].diagnostics),
          devices[d].haltReason?.description ?? "",
          dumped,
        ]
        texts += devices[d].records.map(\.debugDescription)
      }
      texts += server.events.map(\.description)
      for text in texts where text.contains(Self.marker) {
        Issue.record(
          "seed \(seed): encrypted value in \(text.prefix(300)); \(TestSeeds.replay(seed, test: "EncryptedValueLeakTests"))"
        )
        break
      }
      // The values did travel: the secrets are on the server, just never in the text.
      let stored = server.records(in: zone, ownedBy: "_alice").compactMap { $0.encryptedValues["secret"]?.stringValue }
      #expect(stored.contains { $0.hasPrefix(Self.marker) } || stored.isEmpty)
    }
  }

  @Test("a conflict's error and its server record print redacted")
  func conflictErrorsAreRedacted() throws {
    let zone = try ZoneID(zoneName: "Notes")
    var server = SimulatedServer(configuration: .init(throttle: nil))
    let client = ClientIdentity(userRecordName: "_alice", deviceName: "phone")
    _ = try server.modifyZones(ModifyZonesRequest(saving: [RecordZone(zoneID: zone)]), as: client)
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "n", zoneID: zone))
    record.encryptedValues["secret"] = .string(Self.marker)
    _ = try server.modifyRecords(ModifyRecordsRequest(saving: [record]), as: client)
    // A second create of the same record without a change tag is a conflict carrying the server's record.
    let reply = try server.modifyRecords(ModifyRecordsRequest(saving: [record], isAtomic: false), as: client)
    let error = try #require(reply.failures[record.recordID])
    var dumped = ""
    dump(error, to: &dumped)
    for text in [error.description, String(reflecting: error), dumped] {
      #expect(!text.contains(Self.marker), "\(text.prefix(300))")
    }
  }
}
