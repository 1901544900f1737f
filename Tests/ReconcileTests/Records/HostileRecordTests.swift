import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// Records at and past every limit. None may trap; each limit is reported by the error that names it. The time and
/// memory these take are measured in the benchmark executable's `hostile` group, not here.
@Suite("Hostile records: 1 MB, 10 MB strings, 100,000 fields, nested and mixed lists, far dates")
struct HostileRecordTests {
  let id = try! RecordID(recordName: "n")

  @Test("a record of exactly 1 MB round trips as JSON; one byte more is named by validate and by the encoder")
  func oneMegabyte() throws {
    var r = Record(recordType: "Note", recordID: id)
    r["s"] = .string(String(repeating: "x", count: Record.maximumDataSize - 1))
    #expect(try Record(wireJSON: try WireCoded.encode(r)) == r)

    let over = try Record(wireJSON: HostileDocuments.stringRecord(bytes: Record.maximumDataSize))
    let tooLarge = RecordValidationError.recordTooLarge(size: Record.maximumDataSize + 1, limit: Record.maximumDataSize)
    #expect(throws: tooLarge) { try over.validate() }
    do {
      _ = try WireCoded.encode(over)
      Issue.record("a record over 1 MB was encoded")
    } catch let EncodingError.invalidValue(_, context) {
      #expect(context.debugDescription == tooLarge.description)
    }
  }

  @Test("a 10 MB string decodes from JSON in one piece and validation names its size")
  func tenMegabyteString() throws {
    let size = 10 * 1_048_576
    let r = try Record(wireJSON: HostileDocuments.stringRecord(bytes: size))
    #expect(r["s"]?.stringValue?.utf8.count == size)
    #expect(throws: RecordValidationError.recordTooLarge(size: size + 1, limit: Record.maximumDataSize)) {
      try r.validate()
    }
  }

  @Test("100,000 fields decode, and validation refuses them by count")
  func hundredThousandFields() throws {
    let count = 100_000
    let r = try Record(wireJSON: HostileDocuments.fieldsRecord(count: count))
    #expect(r.allKeys.count == count)
    #expect(r["f99999"] == .int64(99_999))
    #expect(throws: RecordValidationError.tooManyFields(count: count, limit: Record.maximumFieldCount)) {
      try r.validate()
    }
  }

  @Test("lists of lists and mixed lists are named by key and index, plain or encrypted")
  func nestedAndMixedLists() {
    var r = Record(recordType: "Note", recordID: id)
    r["l"] = .list([.list([1])])
    #expect(throws: RecordValidationError.nestedList(key: "l", index: 0)) { try r.validate() }
    r["l"] = .list([1, 2, "three"])
    #expect(throws: RecordValidationError.mixedTypeList(key: "l", index: 2, expected: .int64, found: .string)) {
      try r.validate()
    }
    r["l"] = nil
    r.encryptedValues["e"] = .list([.list(["a"])])
    #expect(throws: RecordValidationError.nestedList(key: "e", index: 0)) { try r.validate() }
    #expect(throws: EncodingError.self) { try WireCoded.encode(r) }
  }

  @Test(
    "dates beyond 100,000,000 days of 1970 are named by validation, in values and in locations",
    arguments: [1e13, -1e13, 1e300, 8.64e12 + 1])
  func farDates(secondsSince1970: Double) {
    let far = Date(timeIntervalSince1970: secondsSince1970)
    var r = Record(recordType: "Note", recordID: id)
    r["t"] = .timestamp(far)
    #expect(throws: RecordValidationError.dateOutOfRange(key: "t")) { try r.validate() }
    r["t"] = nil
    r["where"] = .location(Location(latitude: 1, longitude: 2, timestamp: far))
    #expect(throws: RecordValidationError.dateOutOfRange(key: "where")) { try r.validate() }
  }

  @Test("the last representable dates validate and round trip through JSON")
  func edgeDates() throws {
    var r = Record(recordType: "Note", recordID: id)
    r["first"] = .timestamp(Record.representableDates.lowerBound)
    r["last"] = .timestamp(Record.representableDates.upperBound)
    try r.validate()
    #expect(try Record(wireJSON: try WireCoded.encode(r)) == r)
  }

  @Test("a 10 MB schema version is refused by naming the oversized part")
  func tenMegabyteVersion() {
    let digits = String(repeating: "1", count: 10 * 1_048_576)
    #expect {
      try SchemaVersion(digits + ".0.0")
    } throws: { error in
      guard let error = error as? SchemaVersionError, case .tooLarge = error.problem else { return false }
      return error.description.utf8.count < 200  // the message quotes a prefix, not ten megabytes
    }
  }
}
