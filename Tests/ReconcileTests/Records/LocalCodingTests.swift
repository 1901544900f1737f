import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

@Suite("Codable is a lossless local format; the wire format has its own entry points")
struct LocalCodingTests {
  @Test(
    "random records round trip through JSON and property lists with changed keys and exact values", arguments: 1...40)
  func randomRecordsRoundTrip(seed: UInt64) throws {
    var generator = RandomRecords(seed: seed)
    var record = generator.record()
    record.markChanged("neverWritten")
    let json = try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(record))
    #expect(json == record, "seed \(seed)")
    #expect(json.changedKeys == record.changedKeys, "seed \(seed)")
    let plist = try PropertyListDecoder().decode(Record.self, from: PropertyListEncoder().encode(record))
    #expect(plist == record && plist.changedKeys == record.changedKeys, "seed \(seed)")
  }

  @Test(
    "what the wire format loses, local storage keeps: sub-millisecond dates, encrypted types, invalid names, deleted")
  func keepsWhatTheWireDrops() throws {
    var record = Record(recordType: "1nvalid", recordID: try RecordID(recordName: "n"))
    record["when"] = .timestamp(Date(timeIntervalSinceReferenceDate: 123.000_456_7))
    record.encryptedValues["pin"] = .int64(1234)
    record.isDeleted = true
    record.parent = Reference(recordID: try RecordID(recordName: "p"), action: .validate)
    record["photo"] = .asset(Asset(fileChecksum: "AX1", size: 3, fileURL: URL(fileURLWithPath: "/tmp/photo.jpg")))
    let back = try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(record))
    #expect(back == record)
    #expect(back.changedKeys == ["when", "pin", "photo"])
    let wire = try Record(
      wireJSON: try {
        var valid = record
        valid.recordType = "Note"
        return valid
      }().wireJSON())
    guard case .asset(let asset)? = wire["photo"] else { throw CocoaError(.coderInvalidValue) }
    #expect(asset.fileURL == nil, "the wire format has no file URLs")
    #expect(throws: WireJSONError.self) { try record.wireJSON() }  // the wire format validates; local storage does not
  }

  /// Decodes the stored record `object` and expects a `DecodingError.dataCorrupted` whose description says `reason`.
  static func expectRefused(
    _ object: [String: Any], saying reason: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let data = try JSONSerialization.data(withJSONObject: object)
    do {
      _ = try JSONDecoder().decode(Record.self, from: data)
      Issue.record("decoded a stored record that should be refused: \(reason)", sourceLocation: sourceLocation)
    } catch let DecodingError.dataCorrupted(context) {
      #expect(context.debugDescription.contains(reason), sourceLocation: sourceLocation)
    }
  }

  @Test("a damaged stored record is a DecodingError naming what is wrong")
  func damagedStorage() throws {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "n"))
    record["title"] = "x"
    var object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
    object["values"] = ["title": Data("garbage".utf8).base64EncodedString()]
    try Self.expectRefused(object, saying: "the stored value of 'title' is not one Reconcile wrote")
    object["format"] = 99
    let future = try JSONSerialization.data(withJSONObject: object)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Record.self, from: future) }
  }

  @Test("a stored record holding one key both plain and encrypted is refused, naming the key")
  func keyStoredTwice() throws {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "n"))
    record["a"] = "plain"
    record["title"] = "plain"
    record.encryptedValues["secret"] = "hidden"
    record.encryptedValues["z"] = "hidden"
    var object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
    var encrypted = try #require(object["encryptedValues"] as? [String: Any])
    let plain = try #require(object["values"] as? [String: Any])
    encrypted["title"] = plain["title"]
    object["encryptedValues"] = encrypted
    try Self.expectRefused(object, saying: "'title' is stored both plain and encrypted")
    // The untampered record still reads back.
    #expect(try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(record)) == record)
  }

  @Test("shares store their record and participants losslessly")
  func sharesRoundTrip() throws {
    var share = Share(
      recordID: try RecordID(recordName: "cloudkit.zoneshare", zoneID: ZoneID(zoneName: "Trip")), title: "Trip")
    share.participants = [
      .init(
        userIdentity: .init(userRecordName: "_a", lookupInfo: .init(emailAddress: "a@example.invalid")), role: .owner,
        permission: .readWrite, acceptanceStatus: .accepted)
    ]
    let back = try JSONDecoder().decode(Share.self, from: JSONEncoder().encode(share))
    #expect(back == share)
    #expect(back.record.changedKeys == ["cloudkit.title"])
    #expect(try Share(wireJSON: share.wireJSON()).participants == share.participants)
  }
}
