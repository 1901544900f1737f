import Foundation
import Reconcile
import Testing

@Suite("CloudKit bridge logic, against a fake CKRecord and CKError")
struct CloudKitBridgeTests {
  @Test(
    "NSNumber's type encoding decides INT64 or DOUBLE, not a cast",
    arguments: [
      ("q", CloudKitNumber.integer(3)), ("i", .integer(3)), ("c", .integer(3)), ("d", .floatingPoint(3)),
      ("f", .floatingPoint(3)),
    ])
  func numbers(objCType: String, expected: CloudKitNumber) {
    #expect(CloudKitNumber.classify(objCType: objCType, integer: 3, double: 3) == expected)
  }

  @Test("every value type converts both ways; a VALIDATE reference becomes none; an asset keeps its file URL")
  func values() throws {
    let target = try RecordID(recordName: "p", zoneID: ZoneID(zoneName: "Notes", ownerName: "_9a06"))
    let file = URL(fileURLWithPath: "/tmp/photo.jpg")
    let values: [FieldValue] = [
      "a", .int64(4), .double(0.5), .timestamp(Date(timeIntervalSince1970: 1e9)), .bytes(Data([1, 2])),
      .reference(Reference(recordID: target, action: .deleteSelf)), .asset(Asset(fileURL: file)),
      .location(Location(latitude: 1, longitude: 2, altitude: 3)), .list(["x", "y"]),
    ]
    for value in values {
      #expect(try FieldValue(cloudKitValue: value.cloudKitValue, key: "k") == value)
    }
    let validate = FieldValue.reference(Reference(recordID: target, action: .validate))
    #expect(try FieldValue(cloudKitValue: validate.cloudKitValue, key: "k") == .reference(Reference(recordID: target)))
    #expect(throws: CloudKitBridgeError.self) {
      try FieldValue(cloudKitValue: .list([.string("a"), .number(.integer(1))]), key: "mixed")
    }
    #expect(throws: CloudKitBridgeError.self) {
      try FieldValue(cloudKitValue: .list([.list([])]), key: "nested")
    }
  }

  @Test("a CKRecord becomes a Record with plain and encrypted values, system fields, parent and changed keys")
  func recordFromCloudKit() throws {
    let ck = FakeCKRecord(type: "Note", name: "n1")
    ck.setBridgedValue(.string("Hi"), forKey: "title", encrypted: false)
    ck.setBridgedValue(.number(.integer(1)), forKey: "pinned", encrypted: false)
    ck.setBridgedValue(.string("secret"), forKey: "body", encrypted: true)
    ck.bridgedParent = ("folder", "Notes", "__defaultOwner__")
    ck.markFetched(tag: "k3")
    ck.bridgedSystemFields.lastModifiedUserRecordName = "_9a06"
    ck.setBridgedValue(.string("Hello"), forKey: "title", encrypted: false)
    let record = try Record(bridging: ck)
    #expect(record["title"] == "Hello")
    #expect(record["pinned"] == .int64(1))
    #expect(record.encryptedValues["body"] == "secret")
    #expect(record.recordChangeTag == "k3")
    #expect(record.parent?.recordID.recordName == "folder")
    #expect(record.changedKeys == ["title"])
  }

  @Test("applying a resolved record writes exactly its changed keys onto the server's CKRecord, keeping its tag")
  func applyWritesChangedKeysOnly() throws {
    let server = FakeCKRecord(type: "Note", name: "n1")
    server.setBridgedValue(.string("Hi"), forKey: "title", encrypted: false)
    server.setBridgedValue(.string("two"), forKey: "body", encrypted: false)
    server.setBridgedValue(.string("old"), forKey: "note", encrypted: true)
    server.markFetched(tag: "k4")
    var resolved = try Record(bridging: server)
    resolved["title"] = "Hello"
    resolved.encryptedValues["note"] = nil
    resolved.apply(bridgingTo: server)
    #expect(server.bridgedChangedKeys.sorted() == ["note", "title"])
    #expect(server.plain["title"] == .string("Hello"))
    #expect(server.plain["body"] == .string("two"), "a key the merge did not change is left alone")
    #expect(server.encrypted["note"] == nil)
    #expect(server.bridgedSystemFields.recordChangeTag == "k4")
    #expect(server.parentWrites == 0, "an unchanged parent is not rewritten")
  }

  @Test("a serverRecordChanged CKError becomes a Conflict a resolver merges; a partial failure lists its items")
  func errors() throws {
    let ancestor = FakeCKRecord(type: "Note", name: "n1")
    ancestor.setBridgedValue(.string("Hi"), forKey: "title", encrypted: false)
    ancestor.setBridgedValue(.string("one"), forKey: "body", encrypted: false)
    ancestor.markFetched(tag: "k3")
    let client = FakeCKRecord(type: "Note", name: "n1")
    client.plain = ancestor.plain
    client.markFetched(tag: "k3")
    client.setBridgedValue(.string("Hello"), forKey: "title", encrypted: false)
    let server = FakeCKRecord(type: "Note", name: "n1")
    server.plain = ancestor.plain
    server.plain["body"] = .string("two")
    server.markFetched(tag: "k4")
    let changed = FakeCKError(bridgedCode: 14, bridgedConflictRecords: (client, ancestor, server))
    let error = try CloudKitError(bridging: changed)
    #expect(error.code == .serverRecordChanged)
    let conflict = try #require(error.conflict)
    let merged = try FieldMerge().resolve(conflict)
    #expect(merged["title"] == "Hello" && merged["body"] == "two" && merged.recordChangeTag == "k4")
    merged.apply(bridgingTo: server)
    #expect(server.bridgedChangedKeys == ["title"])

    let partial = FakeCKError(
      bridgedCode: 2,
      bridgedPartialErrors: [(("n2", "Notes", "_alice"), FakeCKError(bridgedCode: 23, bridgedRetryAfter: 5))])
    let failure = try CloudKitError(bridging: partial)
    let n2 = try RecordID(recordName: "n2", zoneID: ZoneID(zoneName: "Notes", ownerName: "_alice"))
    #expect(failure.code == .partialFailure)
    #expect(failure.partialErrors[n2]?.code == .zoneBusy)
    #expect(failure.partialErrors[n2]?.isTransient == true)
    #expect(CloudKitError.Code(rawValue: 99) == .other(99))
    for raw in 0...40 {
      let code = CloudKitError.Code(rawValue: raw)
      #expect(code.rawValue == raw)
      #expect(code.name != "other" || code == .other(raw))
    }
    #expect(CloudKitError.Code.serverRecordChanged.rawValue == 14)
    #expect(error.localizedDescription == error.description)
  }
}
