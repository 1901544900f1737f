import Foundation
import Reconcile
import Testing

@Suite("Field value equality")
struct FieldValueEqualityTests {
  /// One value of every case, and a second of the same case with another payload; built afresh on each call, so equal
  /// values never share storage.
  static func samples() throws -> [FieldValue] {
    let zone = try ZoneID(zoneName: "Notes")
    let long = String(repeating: "long string on the heap ", count: 3)
    return [
      .string("a"), .string(long + "\(1)"), .string("é"),
      .int64(1), .int64(2),
      .double(1), .double(2.5),
      .timestamp(Date(timeIntervalSince1970: 1)), .timestamp(Date(timeIntervalSince1970: 2)),
      .bytes(Data([1, 2])), .bytes(Data([1, 3])),
      .reference(Reference(recordID: try RecordID(recordName: "a", zoneID: zone))),
      .reference(Reference(recordID: try RecordID(recordName: "b", zoneID: zone))),
      .asset(Asset(fileChecksum: "x", size: 1)), .asset(Asset(fileChecksum: "y", size: 1)),
      .location(Location(latitude: 1, longitude: 2)), .location(Location(latitude: 1, longitude: 3)),
      .list([.string("a"), .string("b")]), .list([.string("a")]), .list([]),
    ]
  }

  @Test("a value equals an independently built copy and no other sample, whatever its case")
  func equalityIsStructural() throws {
    let left = try Self.samples()
    let right = try Self.samples()
    for (i, a) in left.enumerated() {
      for (j, b) in right.enumerated() {
        #expect((a == b) == (i == j), "\(a) == \(b) should be \(i == j)")
        if a == b { #expect(a.hashValue == b.hashValue, "equal values \(a) hash alike") }
      }
    }
  }

  @Test("strings compare by canonical equivalence; doubles by Double's ==")
  func equalityFollowsPayloadRules() {
    #expect(FieldValue.string("\u{E9}") == .string("e\u{301}"))
    #expect(FieldValue.double(.nan) != .double(.nan))
    #expect(FieldValue.double(0) == .double(-0.0))
    #expect(FieldValue.int64(1) != .double(1))
    #expect(FieldValue.list([.int64(1)]) != .list([.double(1)]))
  }
}
