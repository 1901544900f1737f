import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// Archives written by hand to say what no writer would: absurd lengths and counts, dates past any calendar, names of
/// ten megabytes. Each must give the typed error naming the field, without allocating what the bytes claim.
@Suite("Hostile archives: absurd sizes, counts and dates are named errors")
struct HostileArchiveTests {
  static let validIDs =
    HandBuiltArchives.string("Note") + HandBuiltArchives.string("n1") + HandBuiltArchives.string("Zone")
    + HandBuiltArchives.string("_owner")

  func systemFieldsError(_ data: Data) -> SystemFieldsArchiveError? {
    do {
      _ = try Record(systemFieldsData: data)
      return nil
    } catch {
      return error
    }
  }

  @Test("the hand-built archive decodes, so the cases below fail only where they say")
  func builderIsValid() throws {
    let record = try Record(systemFieldsData: HandBuiltArchives.systemFields(body: Self.validIDs))
    #expect(record.recordType == "Note")
    #expect(record.recordID.zoneID.ownerName == "_owner")
  }

  @Test(
    "a length claiming more bytes than remain is a truncation at the length, not an allocation",
    arguments: [UInt64(1) << 62, UInt64.max, 1_000_000])
  func absurdStringLengths(length: UInt64) {
    let data = HandBuiltArchives.systemFields(body: HandBuiltArchives.varint(length) + Array("Note".utf8))
    #expect(systemFieldsError(data) == .truncated(field: "recordType", offset: 7))
  }

  @Test("a varint longer than ten bytes is malformed")
  func overlongVarint() {
    let data = HandBuiltArchives.systemFields(body: [UInt8](repeating: 0xFF, count: 11) + [0x01])
    guard case .malformed(let field, let offset, _)? = systemFieldsError(data) else {
      Issue.record("expected malformed")
      return
    }
    #expect(field == "recordType")
    #expect(offset == 7)
  }

  @Test("a 10 MB record name is refused by the naming rule, not stored")
  func tenMegabyteName() {
    let name = String(repeating: "n", count: 10 * 1_048_576)
    let data = HandBuiltArchives.systemFields(
      body: HandBuiltArchives.string("Note") + HandBuiltArchives.string(name) + HandBuiltArchives.string("Zone")
        + HandBuiltArchives.string("_o"))
    guard case .invalidValue(let field, .invalidName(.recordName, _, .tooLong(let count)))? = systemFieldsError(data)
    else {
      Issue.record("expected the record name to be refused as too long")
      return
    }
    #expect(field == "recordID.recordName")
    #expect(count == name.count)
  }

  @Test(
    "dates that are not finite or lie beyond 100,000,000 days of 1970 are refused by field",
    arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 8.65e12 - 978_307_200])
  func overflowingDates(seconds: Double) {
    let body = Self.validIDs + (0..<8).map { UInt8(truncatingIfNeeded: seconds.bitPattern >> (8 * UInt64($0))) }
    #expect(
      systemFieldsError(HandBuiltArchives.systemFields(flags: 1 << 1, body: body))
        == .invalidDate(field: "creationDate"))
  }

  @Test("invalid UTF-8 in a name is malformed at its offset")
  func invalidUTF8() {
    let data = HandBuiltArchives.systemFields(body: [2, 0xC0, 0xAF] + Array(Self.validIDs.dropFirst(5)))
    guard case .malformed(let field, let offset, _)? = systemFieldsError(data) else {
      Issue.record("expected malformed")
      return
    }
    #expect(field == "recordType")
    #expect(offset == 8)
  }

  // MARK: Binary property lists

  /// A one-object binary plist whose object is `object`, with an 8-byte offset table.
  static func bplist(_ object: [UInt8], objectCount: UInt64 = 1, tableOffset: UInt64? = nil) -> Data {
    var bytes = Array("bplist00".utf8) + object
    let table = UInt64(bytes.count)
    bytes += HandBuiltArchives.bigEndian64(8)
    bytes +=
      [0, 0, 0, 0, 0, 0, 8, 1] + HandBuiltArchives.bigEndian64(objectCount) + HandBuiltArchives.bigEndian64(0)
      + HandBuiltArchives.bigEndian64(tableOffset ?? table)
    return Data(bytes)
  }

  func plistReason(_ data: Data) -> String? {
    do {
      _ = try Record(cloudKitSystemFieldsArchive: data)
      return nil
    } catch {
      guard case .malformedPropertyList(_, let reason) = error else { return "unexpected: \(error)" }
      return reason
    }
  }

  @Test(
    "absurd counts and offsets in a binary plist are named",
    arguments: [
      // an array whose length is a negative 8-byte integer
      (bplist([0xAF, 0x13] + HandBuiltArchives.bigEndian64(UInt64(bitPattern: -5))), "negative length"),
      // an array claiming 2^62 elements
      (bplist([0xAF, 0x13] + HandBuiltArchives.bigEndian64(1 << 62)), "runs past"),
      // a string claiming 2^40 bytes
      (bplist([0x5F, 0x13] + HandBuiltArchives.bigEndian64(1 << 40)), "runs past"),
      // a trailer claiming 2^63 objects
      (bplist([0x08], objectCount: 1 << 63), "trailer gives"),
      // an offset table far past the end
      (bplist([0x08], tableOffset: 1 << 60), "does not fit"),
    ])
  func absurdPlistCounts(data: Data, reason: String) {
    let found = plistReason(data)
    #expect(found?.contains(reason) == true, "got \(found ?? "no error")")
  }

  @Test("an archived date of 1e300 seconds is refused, naming the field")
  func keyedArchiveDateOverflow() throws {
    var xml = String(
      decoding: try Data(contentsOf: fixture("synckit-system-fields-QSCompany.xml.plist")), as: UTF8.self)
    let time = "<real>523319906.484</real>"
    #expect(xml.contains(time))
    xml = xml.replacingOccurrences(of: time, with: "<real>1e300</real>")
    #expect {
      try Record(cloudKitSystemFieldsArchive: Data(xml.utf8))
    } throws: { error in
      guard case .wrongType(let field, _, _) = error as? CloudKitArchiveError else { return false }
      return field == "RecordCtime"
    }
  }

  private func fixture(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures").appendingPathComponent(name)
  }
}
