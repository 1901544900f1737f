import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// A record keeps its values sorted by key; these check what users see of that, through the public API.
@Suite("Record values: any order in, one order out")
struct RecordFieldStorageTests {
  @Test("values written in any order read back by key, list in key order, and equal a record written in another order")
  func orderOfWritesDoesNotMatter() throws {
    var random = SeededRandom(seed: 7)
    let keys = (0..<300).map { "key\($0)" }
    var forward = Record(recordType: "Item", recordID: try RecordID(recordName: "r"))
    var shuffled = forward
    for (i, key) in keys.enumerated() { forward[key] = .int64(Int64(i)) }
    for (i, key) in keys.enumerated().shuffled(using: &random) { shuffled[key] = .int64(Int64(i)) }
    #expect(forward == shuffled)
    #expect(forward.hashValue == shuffled.hashValue)
    #expect(shuffled.allKeys == keys.sorted())
    for (i, key) in keys.enumerated() { #expect(shuffled[key] == .int64(Int64(i))) }
    #expect(
      shuffled.values == Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, FieldValue.int64(Int64($0))) }))

    for key in keys.shuffled(using: &random).prefix(150) { shuffled[key] = nil }
    #expect(shuffled.allKeys.count == 150)
    #expect(shuffled.allKeys == shuffled.allKeys.sorted())
    #expect(shuffled.changedKeys == Set(keys))
  }

  @Test("canonically equivalent keys are one key, as in a dictionary")
  func canonicallyEquivalentKeys() throws {
    var record = Record(recordType: "Item", recordID: try RecordID(recordName: "r"))
    record["caf\u{E9}"] = "composed"
    record["cafe\u{301}"] = "decomposed"
    #expect(record.allKeys.count == 1)
    #expect(record["caf\u{E9}"] == "decomposed")
    #expect(record.values.count == 1)
  }

  @Test("a plain write moves a key out of the encrypted values, and back, without leaving two values")
  func oneValuePerKey() throws {
    var record = Record(recordType: "Item", recordID: try RecordID(recordName: "r"))
    record["b"] = "plain"
    record.encryptedValues["b"] = "secret"
    #expect(record["b"] == nil && record.encryptedValues["b"] == "secret")
    record["b"] = "plain again"
    #expect(record.encryptedValues["b"] == nil && record["b"] == "plain again")
    #expect(record.allKeys == ["b"])
  }

  @Test("a wide record survives the wire format and the local format, decoded in one pass")
  func wideRecordsRoundTrip() throws {
    var record = Record(recordType: "Item", recordID: try RecordID(recordName: "wide"))
    for i in (0..<200).reversed() { record["f\(i)"] = .string("value \(i)") }
    for i in 0..<50 { record.encryptedValues["s\(i)"] = .int64(Int64(i)) }
    let wire = try Record(wireJSON: try record.wireJSON())
    #expect(wire.values == record.values)
    #expect(wire.encryptedValuesByKey == record.encryptedValuesByKey)
    let local = try JSONDecoder().decode(Record.self, from: try JSONEncoder().encode(record))
    #expect(local == record)
    #expect(local.changedKeys == record.changedKeys)
  }
}
