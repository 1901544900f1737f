import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

@Suite("Apple's keyed system-fields archive")
struct CloudKitArchiveTests {
  static let fixtureDate = ISO8601DateFormatter.withFractionalSeconds.date(from: "2017-08-01T22:38:26.484Z")!

  static func checkFixture(_ record: Record) {
    #expect(record.recordType == "QSCompany")
    #expect(record.recordID.recordName == "QSCompany.1739C6A5-C07E-48A5-B83E-AB07694F23DF")
    #expect(record.recordID.zoneID.zoneName == "QSCloudKitCustomZoneName")
    #expect(record.recordID.zoneID.ownerName == "__defaultOwner__")
    #expect(record.recordChangeTag == "4")
    #expect(record.modifiedByDevice == "Manuel’s MacBook Air")
    #expect(record.creatorUserRecordName == "__defaultOwner__")
    #expect(record.lastModifiedUserRecordName == "__defaultOwner__")
    #expect(record.parent == nil)
    #expect(record.share == nil)
    #expect(record.allKeys.isEmpty)
    #expect(record.changedKeys.isEmpty)
    for date in [record.creationDate, record.modificationDate] {
      #expect(date.map { abs($0.timeIntervalSince(fixtureDate)) < 0.0005 } == true)
      #expect(date?.timeIntervalSinceReferenceDate == 523_319_906.484)
    }
  }

  @Test("reads the real binary archive that CKRecord.encodeSystemFields wrote")
  func readsRealBinaryArchive() throws {
    let record = try Record(cloudKitSystemFieldsArchive: try Fixtures.data("synckit-system-fields-QSCompany.bplist"))
    Self.checkFixture(record)
  }

  @Test("reads the same archive as an XML property list")
  func readsXMLArchive() throws {
    let record = try Record(cloudKitSystemFieldsArchive: try Fixtures.data("synckit-system-fields-QSCompany.xml.plist"))
    Self.checkFixture(record)
  }

  @Test("keys added by newer OS releases are ignored, in $top and inside IDs")
  func toleratesUnknownKeys() throws {
    var xml = String(decoding: try Fixtures.data("synckit-system-fields-QSCompany.xml.plist"), as: UTF8.self)
    let newTopKeys = """
      <key>databaseScopeKey</key><integer>2</integer>
      <key>anonymousCKUserID</key><string>_anon</string>
      <key>SomeFutureKey</key><dict><key>nested</key><array><true/></array></dict>
      """
    let topMarker = "<key>$top</key>\n\t<dict>"
    #expect(xml.contains(topMarker))
    xml = xml.replacingOccurrences(of: topMarker, with: topMarker + newTopKeys)
    xml = xml.replacingOccurrences(
      of: "<key>ownerName</key>", with: "<key>zoneType</key><integer>1</integer><key>ownerName</key>")
    Self.checkFixture(try Record(cloudKitSystemFieldsArchive: Data(xml.utf8)))
  }

  @Test("the real archive survives a round trip through Reconcile's writer")
  func rewritesRealArchive() throws {
    let record = try Record(cloudKitSystemFieldsArchive: try Fixtures.data("synckit-system-fields-QSCompany.bplist"))
    let rewritten = try Record(cloudKitSystemFieldsArchive: try record.cloudKitSystemFieldsArchive())
    #expect(rewritten == record)
  }

  @Test("random records round trip through the keyed archive")
  func randomRoundTrip() throws {
    for seed in TestSeeds.seeds(1...500) {
      var gen = RandomRecords(seed: seed)
      var expected = gen.record().systemFieldsOnly
      // Apple's CKReference has no validate action: it is written as none.
      if expected.parent?.action == .validate { expected.parent?.action = .none }
      if expected.share?.action == .validate { expected.share?.action = .none }
      let decoded = try Record(cloudKitSystemFieldsArchive: try expected.cloudKitSystemFieldsArchive())
      #expect(decoded == expected, Comment(rawValue: TestSeeds.replay(seed, test: "CloudKitArchiveTests")))
      if decoded != expected { break }
    }
  }

  @Test("a name spelt \"$null\" survives: only object 0 is nil, as NSKeyedUnarchiver reads it (found by fuzzing)")
  func dollarNullIsAString() throws {
    let zone = try ZoneID(zoneName: "Zone", ownerName: "$null")
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "$null", zoneID: zone))
    record.modifiedByDevice = "$null"
    let decoded = try Record(cloudKitSystemFieldsArchive: try record.cloudKitSystemFieldsArchive())
    #expect(decoded.recordID.zoneID.ownerName == "$null")
    #expect(decoded.recordID.recordName == "$null")
    #expect(decoded == record)
  }

  @Test("the written archive has Apple's $top keys and class names")
  func writtenShape() throws {
    let record = try Record(cloudKitSystemFieldsArchive: try Fixtures.data("synckit-system-fields-QSCompany.bplist"))
    let data = try record.cloudKitSystemFieldsArchive()
    let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    let top = try #require(plist?["$top"] as? [String: Any])
    for key in [
      "RecordType", "RecordID", "ETag", "RecordCtime", "RecordMtime", "CreatorUserRecordID", "LastModifiedUserRecordID",
      "ModifiedByDevice", "ParentReference", "ShareReference", "KnownToServer",
    ] {
      #expect(top[key] != nil, "missing $top key \(key)")
    }
    #expect(plist?["$archiver"] as? String == "NSKeyedArchiver")
    let objects = try #require(plist?["$objects"] as? [Any])
    let classNames = objects.compactMap { ($0 as? [String: Any])?["$classname"] as? String }
    #expect(Set(classNames) == ["CKRecordID", "CKRecordZoneID", "NSDate"])
    #expect(data.count < 1_500)
  }

  @Test("Foundation's NSKeyedUnarchiver reads the written archive")
  func foundationReadsWrittenArchive() throws {
    let zone = try ZoneID(zoneName: "Notes", ownerName: "_owner")
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "note-1", zoneID: zone))
    record.recordChangeTag = "m9ws656p"
    record.modificationDate = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
    record.modifiedByDevice = "iPhone ✓"
    let data = try record.cloudKitSystemFieldsArchive()

    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    unarchiver.setClass(ArchivedRecordID.self, forClassName: "CKRecordID")
    unarchiver.setClass(ArchivedZoneID.self, forClassName: "CKRecordZoneID")
    #expect(unarchiver.decodeObject(forKey: "RecordType") as? String == "Note")
    #expect(unarchiver.decodeObject(forKey: "ETag") as? String == "m9ws656p")
    #expect(unarchiver.decodeObject(forKey: "ModifiedByDevice") as? String == "iPhone ✓")
    #expect(unarchiver.decodeObject(forKey: "RecordMtime") as? Date == record.modificationDate)
    let id = unarchiver.decodeObject(forKey: "RecordID") as? ArchivedRecordID
    #expect(id?.recordName == "note-1")
    #expect(id?.zone?.zoneName == "Notes")
    #expect(id?.zone?.ownerName == "_owner")
    #expect(unarchiver.decodeBool(forKey: "KnownToServer"))
  }

  @Test(
    "garbage and non-archives give a typed error",
    arguments: [
      ("empty", Data()), ("text", Data("hello, world".utf8)), ("json", Data("{\"recordName\":\"x\"}".utf8)),
      ("bplist header only", Data("bplist00".utf8)), ("xml non-plist", Data("<?xml version=\"1.0\"?><html/>".utf8)),
    ])
  func garbage(name: String, data: Data) {
    #expect(throws: CloudKitArchiveError.self) { try Record(cloudKitSystemFieldsArchive: data) }
  }

  @Test("a plist that is not a keyed archive is named as such")
  func notKeyedArchive() throws {
    let data = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
    #expect(throws: CloudKitArchiveError.notAKeyedArchive(reason: "no $objects array")) {
      try Record(cloudKitSystemFieldsArchive: data)
    }
  }

  @Test("a keyed archive without a record type names the missing field")
  func missingRecordType() throws {
    let data = try PropertyListSerialization.data(
      fromPropertyList: ["$archiver": "NSKeyedArchiver", "$objects": ["$null"], "$top": [String: Any]()],
      format: .binary,
      options: 0)
    #expect(throws: CloudKitArchiveError.missingField("RecordType")) { try Record(cloudKitSystemFieldsArchive: data) }
  }

  /// Every truncation and bit flip in the deep sweep; `swift test` samples them (``MutationPlan``), the 6 KB XML twin,
  /// slow to parse in a debug build, more thinly.
  @Test(
    "truncations and single-bit flips of the real archives give a typed error or a valid record",
    arguments: [("synckit-system-fields-QSCompany.bplist", 7), ("synckit-system-fields-QSCompany.xml.plist", 61)])
  func mutationsNeverTrap(name: String, stride: Int) throws {
    let data = try Fixtures.data(name)
    let plan = MutationPlan(byteCount: data.count, stride: stride)
    for length in plan.lengths { Self.decodeTyped(data.prefix(length)) }
    for bit in plan.bits {
      var flipped = data
      flipped[bit / 8] ^= UInt8(1 << (bit % 8))
      Self.decodeTyped(flipped)
    }
  }

  @Test("hostile plists: cycles, deep nesting and huge counts are errors, not traps")
  func hostilePlists() {
    // An array that contains itself: object 0 is an array of one reference, to object 0.
    var cyclic = Array("bplist00".utf8) + [0xA1, 0x00]
    cyclic += [0x08]  // offset table: object 0 at byte 8
    cyclic +=
      [0, 0, 0, 0, 0, 0, 1, 1] + HandBuiltArchives.bigEndian64(1) + HandBuiltArchives.bigEndian64(0)
      + HandBuiltArchives.bigEndian64(10)
    #expect(throws: CloudKitArchiveError.self) { try Record(cloudKitSystemFieldsArchive: Data(cyclic)) }

    // An array claiming 2^62 elements.
    var huge = Array("bplist00".utf8) + [0xAF, 0x13] + HandBuiltArchives.bigEndian64(1 << 62)
    huge +=
      [0x08] + [0, 0, 0, 0, 0, 0, 1, 1] + HandBuiltArchives.bigEndian64(1) + HandBuiltArchives.bigEndian64(0)
      + HandBuiltArchives.bigEndian64(18)
    #expect(throws: CloudKitArchiveError.self) { try Record(cloudKitSystemFieldsArchive: Data(huge)) }

    // XML nested 10,000 levels deep.
    let deep =
      "<plist>" + String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000)
      + "</plist>"
    #expect(throws: CloudKitArchiveError.self) { try Record(cloudKitSystemFieldsArchive: Data(deep.utf8)) }
  }

  static func decodeTyped(_ data: Data) {
    // `init(cloudKitSystemFieldsArchive:)` has typed throws, so any error here is a CloudKitArchiveError.
    if let record = try? Record(cloudKitSystemFieldsArchive: data) {
      #expect(throws: Never.self) { try record.validate() }
    }
  }
}

/// Stand-ins for CloudKit's classes, so Foundation's unarchiver can read what Reconcile writes.
final class ArchivedZoneID: NSObject, NSCoding {
  let zoneName: String?
  let ownerName: String?
  init?(coder: NSCoder) {
    zoneName = coder.decodeObject(forKey: "ZoneName") as? String
    ownerName = coder.decodeObject(forKey: "ownerName") as? String
  }
  func encode(with coder: NSCoder) {}
}

final class ArchivedRecordID: NSObject, NSCoding {
  let recordName: String?
  let zone: ArchivedZoneID?
  init?(coder: NSCoder) {
    recordName = coder.decodeObject(forKey: "RecordName") as? String
    zone = coder.decodeObject(forKey: "ZoneID") as? ArchivedZoneID
  }
  func encode(with coder: NSCoder) {}
}

extension ISO8601DateFormatter {
  nonisolated(unsafe) static let withFractionalSeconds: ISO8601DateFormatter = {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return f
  }()
}
