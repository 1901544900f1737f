import Foundation
import Reconcile
import Testing

@Suite("Record IDs and names")
struct RecordIDTests {
  @Test(
    "valid names are accepted",
    arguments: ["a", "note-42", "QSCompany.1739C6A5-C07E-48A5-B83E-AB07694F23DF", String(repeating: "x", count: 255)])
  func validRecordNames(name: String) throws {
    let id = try RecordID(recordName: name)
    #expect(id.recordName == name)
    #expect(id.zoneID == .default)
  }

  @Test("names starting with an underscore are read, but a client may not create a record with one")
  func underscoreNamesAreTheServers() throws {
    let user = try RecordID(recordName: "_91ac8fc0c2e697b008a586b0d9e43566")
    #expect(user.isReservedName)
    #expect(throws: RecordValidationError.invalidName(.recordName, user.recordName, violation: .leadingUnderscore)) {
      try user.checkNameForNewRecord()
    }
    let chosen = try RecordID(recordName: "note-1")
    #expect(!chosen.isReservedName)
    try chosen.checkNameForNewRecord()
  }

  @Test("CloudKit's system record types and keys are accepted, other dotted names are not")
  func systemNames() throws {
    var share = Record(recordType: "cloudkit.share", recordID: try RecordID(recordName: "cloudkit.zoneshare"))
    share["cloudkit.title"] = "Trip"
    try share.validate()
    var bad = Record(recordType: "cloud.share")
    #expect(
      throws: RecordValidationError.invalidName(
        .recordType, "cloud.share", violation: .invalidCharacter(".", offset: 5))
    ) {
      try bad.validate()
    }
    bad = Record(recordType: "cloudkit._x")
    #expect(throws: RecordValidationError.invalidName(.recordType, "cloudkit._x", violation: .leadingUnderscore)) {
      try bad.validate()
    }
  }

  @Test("invalid record names throw an error naming the rule")
  func invalidRecordNames() {
    #expect(throws: RecordValidationError.invalidName(.recordName, "", violation: .empty)) {
      try RecordID(recordName: "")
    }
    let long = String(repeating: "a", count: 256)
    #expect(throws: RecordValidationError.invalidName(.recordName, long, violation: .tooLong(count: 256))) {
      try RecordID(recordName: long)
    }
    #expect(
      throws: RecordValidationError.invalidName(.recordName, "café", violation: .invalidCharacter("é", offset: 3))
    ) {
      try RecordID(recordName: "café")
    }
  }

  @Test("zone names follow the rules; the default zone may start with an underscore")
  func zoneNames() throws {
    #expect(ZoneID.default.zoneName == "_defaultZone")
    #expect(ZoneID.default.ownerName == "__defaultOwner__")
    #expect(try ZoneID(zoneName: "_defaultZone") == .default)
    #expect(throws: RecordValidationError.invalidName(.zoneName, "_private", violation: .leadingUnderscore)) {
      try ZoneID(zoneName: "_private")
    }
    #expect(try ZoneID(zoneName: "Notes", ownerName: "_9a06").ownerName == "_9a06")
    #expect(throws: RecordValidationError.invalidName(.ownerName, "", violation: .empty)) {
      try ZoneID(zoneName: "Notes", ownerName: "")
    }
  }

  @Test("a record ID without a name gets a UUID name")
  func generatedName() {
    let a = RecordID()
    let b = RecordID()
    #expect(a != b)
    #expect(UUID(uuidString: a.recordName) != nil)
  }

  @Test("IDs are equal, and hash alike, by name and zone, whether built or decoded; a name in two zones is two IDs")
  func equalityAndHashing() throws {
    let notes = try ZoneID(zoneName: "Notes")
    let built = try RecordID(recordName: "n1", zoneID: notes)
    let decoded = try JSONDecoder().decode(RecordID.self, from: JSONEncoder().encode(built))
    #expect(built == decoded)
    #expect(built.hashValue == decoded.hashValue)
    #expect(try RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Notes")) == built)
    #expect(try ZoneID(zoneName: "Notes") == notes)
    #expect(try JSONDecoder().decode(ZoneID.self, from: JSONEncoder().encode(notes)).hashValue == notes.hashValue)
    let elsewhere = try RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Notes", ownerName: "_bob"))
    #expect(built != elsewhere)
    #expect(built != (try RecordID(recordName: "n2", zoneID: notes)))
    #expect(notes != (try ZoneID(zoneName: "Notes", ownerName: "_bob")))
    #expect(notes != (try ZoneID(zoneName: "Other")))
    let table = [built: 1, elsewhere: 2]
    #expect(table[decoded] == 1)
    #expect(Set([built, decoded, elsewhere]).count == 2)
  }

  @Test("tables keyed by IDs find every key, spread the keys, and order them differently per table seed")
  func tablesKeyedByIDs() throws {
    let zones = try (0..<8).map { try ZoneID(zoneName: "Zone\($0)") }
    let ids = try (0..<20_000).map { try RecordID(recordName: "note-\($0)", zoneID: zones[$0 % zones.count]) }
    let table = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
    for (index, id) in ids.enumerated() {
      let decoded = try JSONDecoder().decode(RecordID.self, from: JSONEncoder().encode(id))
      #expect(table[decoded] == index)
    }
    #expect(Set(zones + zones).count == zones.count)
    // The hash a table uses comes from the stored name hash and the table's seed. Names must not collide, and a
    // table seeded otherwise must see the keys in an unrelated order: a mix that drops the seed, or keeps its bits
    // apart from the name's, clusters keys when one table is copied into a smaller one.
    let buckets = 1 << 12
    for seed in [0, 1, 0x5bd1_e995] {
      let hashes = ids.map { $0._rawHashValue(seed: seed) }
      #expect(Set(hashes).count == ids.count)
      var load = [Int](repeating: 0, count: buckets)
      for hash in hashes { load[hash & (buckets - 1)] += 1 }
      // 20,000 keys over 4,096 buckets: about 4.9 a bucket. Names hash with Swift's per-process seed, so the fullest
      // bucket varies from run to run: a random mix reaches 20 once in a thousand runs (seen), 28 once in four hundred
      // million; a mix that clusters puts hundreds in one.
      #expect(load.max() ?? 0 < 28, "seed \(seed): \(load.max() ?? 0) keys in one bucket")
    }
    // How a key's bucket moves between two seeds must differ from key to key; adding or xoring the seed moves all alike.
    let moves = Set(ids.prefix(1_000).map { ($0._rawHashValue(seed: 1) ^ $0._rawHashValue(seed: 2)) & (buckets - 1) })
    #expect(moves.count > 800, "1,000 keys moved between two seeds' buckets in only \(moves.count) ways")
    #expect(zones.map { $0._rawHashValue(seed: 1) } != zones.map { $0._rawHashValue(seed: 2) })
  }

  @Test("errors read as sentences that name the input")
  func errorDescriptions() {
    let error = RecordValidationError.invalidName(.key, "_secret", violation: .leadingUnderscore)
    #expect(error.description == "invalid key \"_secret\": names starting with '_' are reserved")
  }
}

@Suite("Record values and changed keys")
struct RecordValueTests {
  let id = try! RecordID(recordName: "note-1")

  @Test("literals map to CloudKit types; Booleans are INT64")
  func literals() {
    var r = Record(recordType: "Note", recordID: id)
    r["title"] = "Hi"
    r["count"] = 3
    r["ratio"] = 0.5
    r["pinned"] = true
    r["tags"] = ["a", "b"]
    #expect(r["title"] == .string("Hi"))
    #expect(r["count"] == .int64(3))
    #expect(r["ratio"] == .double(0.5))
    #expect(r["pinned"] == .int64(1))
    #expect(r["pinned"]?.boolValue == true)
    #expect(r["tags"]?.type == .list(.string))
    #expect(r["tags"]?.type.wireName == "STRING_LIST")
  }

  @Test("setting or removing a key marks it changed, even when the value is unchanged")
  func changedKeys() {
    var r = Record(recordType: "Note", recordID: id)
    #expect(r.changedKeys.isEmpty)
    r["title"] = "a"
    r.clearChangedKeys()
    r["title"] = "a"
    #expect(r.changedKeys == ["title"])
    r.clearChangedKeys()
    r["missing"] = nil
    #expect(r.changedKeys == ["missing"])
    r.encryptedValues["body"] = "secret"
    #expect(r.changedKeys == ["missing", "body"])
  }

  @Test("a key holds one value: plain and encrypted writes replace each other")
  func oneValuePerKey() {
    var r = Record(recordType: "Note", recordID: id)
    r["body"] = "plain"
    r.encryptedValues["body"] = "secret"
    #expect(r["body"] == nil)
    #expect(r.encryptedValues["body"] == "secret")
    #expect(r.allKeys == ["body"])
    r["body"] = "plain again"
    #expect(r.encryptedValues["body"] == nil)
  }

  @Test("copies are independent values")
  func copyOnWrite() {
    var a = Record(recordType: "Note", recordID: id)
    a["title"] = "one"
    var b = a
    b["title"] = "two"
    b.encryptedValues["k"] = 1
    #expect(a["title"] == "one")
    #expect(a.encryptedValues["k"] == nil)
    #expect(b["title"] == "two")
  }

  @Test("== compares contents and system fields but not changed keys")
  func equality() {
    var a = Record(recordType: "Note", recordID: id)
    a["title"] = "x"
    var b = a
    b.clearChangedKeys()
    #expect(a == b)
    b.recordChangeTag = "t2"
    #expect(a != b)
    var c = a
    c.encryptedValues["secret"] = 1
    #expect(a != c)
  }

  @Test("description never shows encrypted values")
  func redaction() {
    var r = Record(recordType: "Note", recordID: id)
    r.encryptedValues["pin"] = "1234"
    r["title"] = "hello"
    #expect(!r.description.contains("1234"))
    #expect(!r.debugDescription.contains("1234"))
    #expect(r.description.contains("<encrypted>"))
  }
}

@Suite("Record validation")
struct RecordValidationTests {
  let zone = try! ZoneID(zoneName: "Notes")
  var id: RecordID { try! RecordID(recordName: "n", zoneID: zone) }

  func record(_ edit: (inout Record) -> Void) -> Record {
    var r = Record(recordType: "Note", recordID: id)
    edit(&r)
    return r
  }

  @Test("of several bad keys the first in sorted order is named, whatever order the record stores them in")
  func firstBadKeyInSortedOrder() {
    for _ in 0..<20 {
      var keys = ["zz", "9lives", "ok", "_hidden", "1up"]
      keys.shuffle()
      let bad = record { r in for key in keys { r[key] = "x" } }
      #expect(throws: RecordValidationError.invalidName(.key, "1up", violation: .mustStartWithLetter)) {
        try bad.validate()
      }
    }
  }

  @Test("a record with every value type validates")
  func everyTypeValidates() throws {
    let r = record {
      $0["s"] = "x"
      $0["i"] = 1
      $0["d"] = 2.5
      $0["t"] = .timestamp(Date(timeIntervalSince1970: 0))
      $0["b"] = .bytes(Data([1, 2]))
      $0["r"] = .reference(Reference(recordID: try! RecordID(recordName: "other", zoneID: zone), action: .deleteSelf))
      $0["a"] = .asset(Asset(fileChecksum: "abc", size: 3))
      $0["l"] = .location(Location(latitude: 1, longitude: 2))
      $0["list"] = [1, 2, 3]
      $0["empty"] = []
      $0.encryptedValues["e"] = "secret"
    }
    try r.validate()
  }

  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let expected: RecordValidationError
    let edit: @Sendable (inout Record, ZoneID) -> Void
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "key with leading underscore", expected: .invalidName(.key, "_x", violation: .leadingUnderscore)) {
      r, _ in r["_x"] = 1
    },
    Case(name: "key starting with a digit", expected: .invalidName(.key, "1x", violation: .mustStartWithLetter)) {
      r, _ in r["1x"] = 1
    },
    Case(name: "key with a space", expected: .invalidName(.key, "a b", violation: .invalidCharacter(" ", offset: 1))) {
      r, _ in r["a b"] = 1
    },
    Case(name: "empty key", expected: .invalidName(.key, "", violation: .empty)) { r, _ in r[""] = 1 },
    Case(name: "reserved key", expected: .invalidName(.key, "recordID", violation: .reserved)) { r, _ in
      r["recordID"] = 1
    },
    Case(
      name: "256-character key",
      expected: .invalidName(.key, String(repeating: "k", count: 256), violation: .tooLong(count: 256))
    ) { r, _ in r[String(repeating: "k", count: 256)] = 1 },
    Case(
      name: "bad record type",
      expected: .invalidName(.recordType, "Bad Type", violation: .invalidCharacter(" ", offset: 3))
    ) { r, _ in
      r.recordType = "Bad Type"
    },
    Case(name: "mixed list", expected: .mixedTypeList(key: "l", index: 1, expected: .int64, found: .string)) { r, _ in
      r["l"] = [1, "x"]
    },
    Case(name: "list of lists", expected: .nestedList(key: "l", index: 0)) { r, _ in r["l"] = [[1]] },
    Case(name: "NaN", expected: .nonFiniteNumber(key: "d")) { r, _ in r["d"] = .double(.nan) },
    Case(name: "infinite latitude", expected: .nonFiniteNumber(key: "loc")) { r, _ in
      r["loc"] = .location(Location(latitude: .infinity, longitude: 0))
    },
    Case(name: "encrypted reference", expected: .unencryptableType(key: "e", type: .reference)) { r, z in
      r.encryptedValues["e"] = .reference(Reference(recordID: try! RecordID(recordName: "x", zoneID: z)))
    },
    Case(name: "encrypted asset list", expected: .unencryptableType(key: "e", type: .list(.asset))) { r, _ in
      r.encryptedValues["e"] = [.asset(Asset())]
    },
    Case(
      name: "reference into another zone",
      expected: .referenceCrossesZone(
        key: "r", target: try! RecordID(recordName: "x"), recordZone: try! ZoneID(zoneName: "Notes"))
    ) { r, _ in r["r"] = .reference(Reference(recordID: try! RecordID(recordName: "x"))) },
    Case(
      name: "parent in another zone",
      expected: .referenceCrossesZone(
        key: "parent", target: try! RecordID(recordName: "p"), recordZone: try! ZoneID(zoneName: "Notes"))
    ) { r, _ in r.parent = Reference(recordID: try! RecordID(recordName: "p")) },
    Case(name: "257 fields", expected: .tooManyFields(count: 257, limit: 256)) { r, _ in
      for i in 0..<257 { r["k\(i)"] = 1 }
    },
  ]

  @Test("each broken rule gives its own error", arguments: cases)
  func brokenRules(c: Case) {
    var r = Record(recordType: "Note", recordID: id)
    c.edit(&r, zone)
    #expect(throws: c.expected) { try r.validate() }
  }

  @Test("the 1 MB limit: exactly 1,048,576 bytes passes, one more byte fails")
  func sizeLimit() throws {
    var r = Record(recordType: "Note", recordID: id)
    r["b"] = .bytes(Data(count: Record.maximumDataSize - 1))  // key "b" is 1 byte
    #expect(r.dataSize == Record.maximumDataSize)
    try r.validate()
    r["b"] = .bytes(Data(count: Record.maximumDataSize))
    #expect(
      throws: RecordValidationError.recordTooLarge(size: Record.maximumDataSize + 1, limit: Record.maximumDataSize)
    ) {
      try r.validate()
    }
  }

  @Test("data size counts keys and values as documented")
  func dataSizeRule() {
    var r = Record(recordType: "Note", recordID: id)
    r["ab"] = "héllo"  // 2 + 6
    r["n"] = 7  // 1 + 8
    r["l"] = [1.5, 2.5]  // 1 + 16
    r["a"] = .asset(Asset(size: 1_000_000))  // 1 + 0
    r.encryptedValues["e"] = .bytes(Data(count: 10))  // 1 + 10
    #expect(r.dataSize == 8 + 9 + 17 + 1 + 11)
  }
}

@Suite("Encrypted values view")
struct EncryptedValuesViewTests {
  @Test("writing through encryptedValues leaves copies untouched and keeps every plain value")
  func writesThroughView() throws {
    var a = Record(recordType: "Note", recordID: try RecordID(recordName: "n"))
    for i in 0..<50 { a["k\(i)"] = .int64(Int64(i)) }
    let snapshot = a
    a.encryptedValues["secret"] = "x"
    a.encryptedValues["secret"] = nil
    a.encryptedValues["other"] = 7
    #expect(snapshot.encryptedValues.keys.isEmpty)
    #expect(a.encryptedValues.keys == ["other"])
    #expect(a.values.count == 50)
    #expect(a.recordType == "Note")
    #expect(a.changedKeys.isSuperset(of: ["secret", "other"]))
  }
}
