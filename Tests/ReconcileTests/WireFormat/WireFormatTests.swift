import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

@Suite("CloudKit Web Services JSON")
struct WireFormatTests {
  /// The response example of cloudkit-semantics.md §7 (the record part).
  static let responseRecord = WireExamples.response

  func decode(_ json: String) throws -> Record {
    try WireCoded.decode(Data(json.utf8))
  }

  func roundTrip(_ record: Record) throws -> Record {
    try WireCoded.decode(try WireCoded.encode(record))
  }

  @Test("decodes the real response example")
  func decodesResponse() throws {
    let r = try decode(Self.responseRecord)
    let zone = try ZoneID(zoneName: "Notes", ownerName: "_9a06")
    #expect(r.recordID == (try RecordID(recordName: "note-42", zoneID: zone)))
    #expect(r.recordType == "Note")
    #expect(r.recordChangeTag == "k4")
    #expect(r["title"] == "Hi")
    #expect(r["pinned"]?.boolValue == true)
    #expect(r["due"] == .timestamp(Date(timeIntervalSince1970: 1_700_000_000)))
    #expect(r["tags"] == ["a", "b"])
    #expect(r["list"] == .reference(Reference(recordID: try RecordID(recordName: "L1", zoneID: zone), action: .none)))
    #expect(r.creationDate == Date(timeIntervalSince1970: 1_699_990_000))
    #expect(r.modificationDate == Date(timeIntervalSince1970: 1_700_000_001.234))
    #expect(r.creatorUserRecordName == "_9a06")
    #expect(r.lastModifiedUserRecordName == "_9a06")
    #expect(r.modifiedByDevice == "2")
    #expect(r.isDeleted == false)
    #expect(r.changedKeys.isEmpty)
    #expect(try roundTrip(r) == r)
  }

  @Test("decodes the request example's records, inferring omitted types")
  func decodesRequestRecord() throws {
    let r = try decode(
      """
      {"recordName":"note-42","recordType":"Note","recordChangeTag":"k3",
       "fields":{"title":{"value":"Hi"},"pinned":{"value":1}}}
      """)
    #expect(r.recordID.zoneID == .default)
    #expect(r["title"] == "Hi")
    #expect(r["pinned"] == .int64(1))
  }

  @Test(
    "infers omitted types as documented",
    arguments: [
      (#""x""#, FieldValue.string("x")),
      ("true", .int64(1)),
      ("42", .int64(42)),
      ("9223372036854775807", .int64(.max)),
      ("2.5", .double(2.5)),
      ("[1, 2.5]", .list([.double(1), .double(2.5)])),
      ("[]", .list([])),
      (#"{"latitude": 1, "longitude": 2}"#, .location(Location(latitude: 1, longitude: 2))),
      (#"{"fileChecksum": "abc", "size": 3}"#, .asset(Asset(fileChecksum: "abc", size: 3))),
      (
        #"{"recordName": "x", "action": "DELETE_SELF"}"#,
        .reference(Reference(recordID: try! RecordID(recordName: "x"), action: .deleteSelf))
      ),
    ])
  func inference(json: String, expected: FieldValue) throws {
    let r = try decode(#"{"recordName":"n","recordType":"T","fields":{"f":{"value":"# + json + "}}}")
    #expect(r["f"] == expected)
  }

  @Test("a fraction of a millisecond is rounded away, so a decoded record round trips (found by fuzzing)")
  func fractionalMilliseconds() throws {
    let r = try decode(
      #"""
      {"recordName":"n","recordType":"T","modified":{"timestamp":1700000000000.6},
       "fields":{"t":{"value":16708.3845729,"type":"TIMESTAMP"},
        "l":{"value":{"latitude":1,"longitude":2,"timestamp":0.4},"type":"LOCATION"}}}
      """#)
    #expect(r["t"] == .timestamp(Date(timeIntervalSince1970: 16.708)))
    #expect(r["l"]?.locationValue?.timestamp == Date(timeIntervalSince1970: 0))
    #expect(r.modificationDate == Date(timeIntervalSince1970: 1_700_000_000.001))
    #expect(try roundTrip(r) == r)
  }

  @Test("every type and list type round trips; encrypted values travel as ENCRYPTED_BYTES")
  func everyTypeRoundTrips() throws {
    var r = Record(recordType: "Everything", recordID: try RecordID(recordName: "e"))
    var gen = RandomRecords(seed: 7)
    for (i, type) in RandomRecords.scalarTypes.enumerated() {
      r["s\(i)"] = gen.value(of: type, zone: .default)
      r["l\(i)"] = .list([gen.value(of: type, zone: .default), gen.value(of: type, zone: .default)])
    }
    r.encryptedValues["secretText"] = "pin 1234"
    r.encryptedValues["secretBytes"] = .bytes(Data([1, 2, 3]))
    r.encryptedValues["secretMagic"] = .bytes(Data("RCEV tricky".utf8))
    r.encryptedValues["secretList"] = [1.5, 2.5]
    let json = String(decoding: try WireCoded.encode(r), as: UTF8.self)
    #expect(json.contains("\"ENCRYPTED_BYTES\""))
    #expect(!json.contains("pin 1234"))
    for list in [
      "STRING_LIST", "INT64_LIST", "DOUBLE_LIST", "TIMESTAMP_LIST", "BYTES_LIST", "REFERENCE_LIST", "ASSET_LIST",
      "LOCATION_LIST",
    ] {
      #expect(json.contains("\"\(list)\""), "missing \(list)")
    }
    let back = try roundTrip(r)
    #expect(back == r)
    #expect(back.changedKeys.isEmpty)
  }

  @Test("opaque ENCRYPTED_BYTES from a server read as bytes")
  func opaqueEncryptedBytes() throws {
    let r = try decode(#"{"recordName":"n","recordType":"T","fields":{"e":{"value":"AAEC","type":"ENCRYPTED_BYTES"}}}"#)
    #expect(r.encryptedValues["e"] == .bytes(Data([0, 1, 2])))
    #expect(r["e"] == nil)
  }

  @Test("random records round trip exactly")
  func randomRoundTrip() throws {
    for seed in TestSeeds.seeds(1...1_000) {
      var gen = RandomRecords(seed: seed)
      let record = gen.record()
      let back = try roundTrip(record)
      #expect(back == record, Comment(rawValue: TestSeeds.replay(seed, test: "WireFormatTests")))
      if back != record { break }
    }
  }

  @Test("every truncation of encoded records gives a DecodingError, never a trap")
  func truncatedJSON() throws {
    for seed in TestSeeds.seeds(1...40) {
      var gen = RandomRecords(seed: seed)
      let data = try WireCoded.encode(gen.record())
      for length in 0..<data.count {
        #expect(throws: DecodingError.self, Comment(rawValue: TestSeeds.replay(seed, test: "truncatedJSON"))) {
          try WireCoded.decode(data.prefix(length))
        }
      }
    }
  }

  struct BadInput: CustomTestStringConvertible, Sendable {
    let name: String
    let fields: String
    let mentions: String
    var testDescription: String { name }
  }

  static let badInputs: [BadInput] = [
    BadInput(
      name: "unknown type", fields: #"{"f":{"value":1,"type":"BIGINT"}}"#, mentions: "field 'f': unknown type 'BIGINT'"),
    BadInput(name: "string for INT64", fields: #"{"f":{"value":"x","type":"INT64"}}"#, mentions: "field 'f'"),
    BadInput(name: "fraction for INT64", fields: #"{"f":{"value":1.5,"type":"INT64"}}"#, mentions: "field 'f'"),
    BadInput(name: "bad base64", fields: #"{"f":{"value":"***","type":"BYTES"}}"#, mentions: "not valid base64"),
    BadInput(name: "absurd timestamp", fields: #"{"f":{"value":1e300,"type":"TIMESTAMP"}}"#, mentions: "timestamp"),
    BadInput(name: "mixed list", fields: #"{"f":{"value":[1,"a"]}}"#, mentions: "list mixes"),
    BadInput(name: "list of lists", fields: #"{"f":{"value":[[1]]}}"#, mentions: "lists of lists"),
    BadInput(name: "null value", fields: #"{"f":{"value":null}}"#, mentions: "null"),
    BadInput(name: "no value", fields: #"{"f":{"type":"STRING"}}"#, mentions: "no value"),
    BadInput(
      name: "unknown action", fields: #"{"f":{"value":{"recordName":"x","action":"EXPLODE"},"type":"REFERENCE"}}"#,
      mentions: "action"),
    BadInput(
      name: "location without longitude", fields: #"{"f":{"value":{"latitude":1},"type":"LOCATION"}}"#,
      mentions: "longitude"),
    BadInput(
      name: "invalid reference name", fields: #"{"f":{"value":{"recordName":""},"type":"REFERENCE"}}"#,
      mentions: "empty"),
  ]

  @Test("malformed values give a DecodingError naming the field", arguments: badInputs)
  func malformedValues(input: BadInput) {
    let json = #"{"recordName":"n","recordType":"T","fields":"# + input.fields + "}"
    do {
      _ = try decode(json)
      Issue.record("decoded malformed input")
    } catch let error as DecodingError {
      let text = "\(error)"
      #expect(text.contains(input.mentions), "\(text)")
      #expect(Self.codingPath(of: error).contains("f"), "coding path does not name the field: \(text)")
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  static func codingPath(of error: DecodingError) -> [String] {
    switch error {
    case .dataCorrupted(let c), .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c):
      return c.codingPath.map(\.stringValue)
    @unknown default:
      return []
    }
  }

  @Test("server-made names, user references and system types decode")
  func serverNamesDecode() throws {
    let json = #"""
      {"recordName":"_3f1a","recordType":"cloudkit.share","fields":{
        "cloudkit.title":{"value":"Trip","type":"STRING"},
        "contributors":{"value":[{"recordName":"_91ac8fc0c2e697b008a586b0d9e43566","action":"NONE"}],"type":"REFERENCE_LIST"},
        "count":{"value":7,"type":"NUMBER_INT64"},
        "note":{"value":"secret","type":"STRING","isEncrypted":true}}}
      """#
    let record = try Record(wireJSON: Data(json.utf8))
    #expect(record.recordID.recordName == "_3f1a")
    #expect(record.recordType == "cloudkit.share")
    #expect(record["cloudkit.title"] == "Trip")
    #expect(record["count"] == .int64(7))
    #expect(record.encryptedValues["note"] == "secret")
    let contributor = try RecordID(recordName: "_91ac8fc0c2e697b008a586b0d9e43566")
    #expect(record["contributors"] == .list([.reference(Reference(recordID: contributor, action: .none))]))
    let again = try JSONSerialization.jsonObject(with: record.wireJSON()) as? [String: Any]
    let fields = try #require(again?["fields"] as? [String: [String: Any]])
    #expect(fields["count"]?["type"] as? String == "INT64")
    #expect(fields["note"]?["type"] as? String == "ENCRYPTED_BYTES")
    #expect(try Record(wireJSON: record.wireJSON()) == record)
  }

  @Test(
    "server data writes back as it came: a reference across zones and created.deviceID survive; a save of one is refused"
  )
  func serverDataRoundTrips() throws {
    let json = #"""
      {"recordName":"CPLAsset-1","recordType":"CPLAsset","zoneID":{"zoneName":"SharedSync-982E","ownerRecordName":"_owner"},
       "fields":{"contributors":{"value":[{"recordName":"_91ac8fc0","action":"NONE",
         "zoneID":{"zoneName":"SharedSync-0000","ownerRecordName":"_owner"}}],"type":"REFERENCE_LIST"}},
       "created":{"timestamp":1700000000123,"userRecordName":"_owner","deviceID":"2F3A"},
       "modified":{"timestamp":1700000000456,"userRecordName":"_owner","deviceID":"9B1C"}}
      """#
    let record = try Record(wireJSON: Data(json.utf8))
    #expect(record.creatorDevice == "2F3A")
    #expect(record.modifiedByDevice == "9B1C")
    let again = try Record(wireJSON: record.wireJSON())
    #expect(again == record)
    #expect(again.creatorDevice == "2F3A")
    // The same-zone rule is a save's: a client checks it before saving, and the server refuses such a save.
    #expect(throws: RecordValidationError.self) { try record.validate() }
  }

  @Test("invalid IDs and record types are rejected with the rule")
  func invalidIDs() {
    #expect(throws: DecodingError.self) { try decode(#"{"recordName":"b\u00e4d","recordType":"T"}"#) }
    #expect(throws: DecodingError.self) { try decode(#"{"recordName":"n","recordType":"1T"}"#) }
    #expect(throws: DecodingError.self) {
      try decode(#"{"recordName":"n","recordType":"T","zoneID":{"zoneName":"_z"}}"#)
    }
    #expect(throws: DecodingError.self) { try decode(#"{"recordType":"T"}"#) }
  }

  @Test("parent and share are parsed like reference fields, and their errors name them")
  func parentAndShareErrors() throws {
    let zone = try ZoneID(zoneName: "Z", ownerName: "_o")
    let r = try decode(
      #"{"recordName":"n","recordType":"T","zoneID":{"zoneName":"Z","ownerRecordName":"_o"},"parent":{"recordName":"p"}}"#
    )
    #expect(r.parent == Reference(recordID: try RecordID(recordName: "p", zoneID: zone)))
    for (json, subject) in [
      (#"{"recordName":"n","recordType":"T","parent":{"recordName":"p","action":"EXPLODE"}}"#, "parent"),
      (#"{"recordName":"n","recordType":"T","share":{"recordName":"s","zoneID":{"zoneName":"_bad"}}}"#, "share"),
      (#"{"recordName":"n","recordType":"T","zoneID":{"ownerRecordName":"x"}}"#, "zoneID"),
    ] {
      do {
        _ = try decode(json)
        Issue.record("decoded \(json)")
      } catch let error as DecodingError {
        #expect("\(error)".contains(subject), "\(error)")
        #expect(Self.codingPath(of: error).contains(subject))
      }
    }
  }

  @Test("encoding validates first and names the broken rule")
  func encodingValidates() {
    var r = Record(recordType: "Note", recordID: try! RecordID(recordName: "n"))
    r["_bad"] = 1
    do {
      _ = try WireCoded.encode(r)
      Issue.record("encoded an invalid record")
    } catch let EncodingError.invalidValue(_, context) {
      #expect(context.debugDescription.contains("_bad"))
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test("the deleted flag and parent and share references round trip")
  func deletedParentShare() throws {
    let zone = try ZoneID(zoneName: "Z")
    var r = Record(recordType: "T", recordID: try RecordID(recordName: "n", zoneID: zone))
    r.isDeleted = true
    r.parent = Reference(recordID: try RecordID(recordName: "p", zoneID: zone))
    r.share = Reference(recordID: try RecordID(recordName: "cloudkit.zoneshare", zoneID: zone))
    #expect(try roundTrip(r) == r)
  }
}
