import Foundation
import Reconcile
import Testing

@Suite("Edit stamping: each resolver writes what it later compares")
struct EditStampingTests {
  static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

  static func note() -> Record {
    var record = Record(recordType: "Note", recordID: try! RecordID(recordName: "n1"))
    record["title"] = "a"
    record.clearChangedKeys()
    return record
  }

  @Test("EditCountWins counts edits from 1, and keeps an encrypted counter encrypted")
  func editCount() throws {
    var clock = try HybridLogicalClock(nodeID: "phone")
    let resolver = EditCountWins(key: "editCount")
    var record = Self.note()
    try resolver.stampEdit(&record, clock: &clock, at: Self.t0)
    try resolver.stampEdit(&record, clock: &clock, at: Self.t0)
    #expect(record["editCount"] == .int64(2))
    #expect(record.changedKeys.contains("editCount"))
    #expect(resolver.stampedKeys == ["editCount"])
    var secret = Self.note()
    secret.encryptedValues["editCount"] = .int64(5)
    try resolver.stampEdit(&secret, clock: &clock, at: Self.t0)
    #expect(secret.encryptedValues["editCount"] == .int64(6))
    #expect(secret["editCount"] == nil)
  }

  @Test("a stamp field of the wrong type is an error naming it, and the record is unchanged")
  func wrongType() throws {
    var clock = try HybridLogicalClock(nodeID: "phone")
    var record = Self.note()
    record["editCount"] = "seven"
    record["editedAt"] = .int64(1)
    let before = record
    #expect(throws: EditStampingError.unexpectedFieldType(key: "editCount", expected: .int64, found: .string)) {
      try EditCountWins(key: "editCount").stampEdit(&record, clock: &clock, at: Self.t0)
    }
    let both = EditBookkeeping(editCountKey: "counter", modifiedAtKey: "editedAt")
    #expect(throws: EditStampingError.unexpectedFieldType(key: "editedAt", expected: .timestamp, found: .int64)) {
      try both.stampEdit(&record, clock: &clock, at: Self.t0)
    }
    #expect(record == before)
    #expect(record["counter"] == nil, "the counter written before the failure was rolled back")
  }

  @Test("when field stamps cannot be written, the counter and timestamp already written are put back")
  func clockFailureRollsBack() throws {
    var clock = try HybridLogicalClock(nodeID: "phone")
    var record = Self.note()
    record["editCount"] = .int64(3)
    record["fieldStamps"] = .bytes(Data([0xFF, 0x00]))
    record.clearChangedKeys()
    record["title"] = "edited"
    let before = record
    let bookkeeping = EditBookkeeping(
      editCountKey: "editCount", modifiedAtKey: "editedAt", fieldStampsKey: "fieldStamps")
    #expect(throws: EditStampingError.self) { try bookkeeping.stampEdit(&record, clock: &clock, at: Self.t0) }
    #expect(record == before)
    #expect(record.changedKeys == ["title"])
  }

  @Test("LocalClockLastWriterWins writes the device's time; FieldMerge writes what its policies name")
  func clocksAndFieldMerge() throws {
    var clock = try HybridLogicalClock(nodeID: "phone")
    var record = Self.note()
    try LocalClockLastWriterWins(key: "editedAt").stampEdit(&record, clock: &clock, at: Self.t0)
    #expect(record["editedAt"] == .timestamp(Self.t0))
    let merge = FieldMerge(
      .editCount(key: "editCount"), overrides: ["body": .localClock(key: "editedAt"), "tags": .listUnion])
    #expect(merge.stampedKeys == ["editCount", "editedAt"])
    let later = Self.t0.addingTimeInterval(5)
    try merge.stampEdit(&record, clock: &clock, at: later)
    #expect(record["editCount"] == .int64(1))
    #expect(record["editedAt"] == .timestamp(later))
    #expect(FieldMerge().stampedKeys.isEmpty)
  }

  @Test("hybrid-logical-clock stamps cover the changed keys, and observing a received record moves the clock")
  func hybridLogicalClock() throws {
    let resolver = HybridLogicalClockMerge(stampsKey: "fieldStamps")
    var phone = try HybridLogicalClock(nodeID: "phone")
    var record = Self.note()
    record["title"] = "b"
    try resolver.stampEdit(&record, clock: &phone, at: Self.t0)
    let stamps = try resolver.stamps(in: record)
    #expect(stamps.keys.sorted() == ["title"])
    var laptop = try HybridLogicalClock(nodeID: "laptop")
    try resolver.observeStamps(of: record, clock: &laptop, at: Self.t0.addingTimeInterval(-60))
    let seen = try #require(stamps["title"])
    #expect(try #require(laptop.latest) > seen, "a clock a minute slow still orders its next edit after what it saw")
    var garbage = Self.note()
    garbage["fieldStamps"] = .bytes(Data([0xFF, 0x00]))
    #expect(throws: EditStampingError.self) { try resolver.observeStamps(of: garbage, clock: &laptop, at: Self.t0) }
  }

  @Test("a resolver set stamps as the resolver for the record's type; a schema guard as its base")
  func composites() throws {
    var clock = try HybridLogicalClock(nodeID: "phone")
    let set = ResolverSet(
      default: ServerLastWriterWins(), byRecordType: ["Note": EditCountWins(key: "editCount")])
    #expect(set.stampedKeys == ["editCount"])
    var note = Self.note()
    try set.stampEdit(&note, clock: &clock, at: Self.t0)
    #expect(note["editCount"] == .int64(1))
    var other = Record(recordType: "Tag", recordID: try RecordID(recordName: "t1"))
    try set.stampEdit(&other, clock: &clock, at: Self.t0)
    #expect(other.allKeys.isEmpty, "server-wins stamps nothing")
    let guarded = LocalClockLastWriterWins(key: "editedAt").guarded(by: Schema([]))
    try guarded.stampEdit(&note, clock: &clock, at: Self.t0)
    #expect(note["editedAt"] == .timestamp(Self.t0))
  }
}
