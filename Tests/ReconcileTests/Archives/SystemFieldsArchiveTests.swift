import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

@Suite("Reconcile system-fields archive")
struct SystemFieldsArchiveTests {
  static func sample() -> Record {
    let zone = try! ZoneID(zoneName: "Notes", ownerName: "_owner")
    var r = Record(recordType: "Note", recordID: try! RecordID(recordName: "note-1", zoneID: zone))
    r["title"] = "must not be archived"
    r.encryptedValues["secret"] = "never archived"
    r.recordChangeTag = "k4"
    r.creationDate = Date(timeIntervalSinceReferenceDate: 523_319_906.484)
    r.modificationDate = Date(timeIntervalSinceReferenceDate: 523_319_907.5)
    r.creatorUserRecordName = "_creator"
    r.lastModifiedUserRecordName = "_modifier"
    r.modifiedByDevice = "Manuel’s MacBook Air"
    r.parent = Reference(recordID: try! RecordID(recordName: "list-1", zoneID: zone))
    r.share = Reference(
      recordID: try! RecordID(recordName: "share", zoneID: try! ZoneID(zoneName: "Other")), action: .none)
    return r
  }

  @Test("round trip keeps every system field and drops every value")
  func roundTrip() throws {
    let original = Self.sample()
    let data = original.encodeSystemFields()
    let decoded = try Record(systemFieldsData: data)
    #expect(decoded == original.systemFieldsOnly)
    #expect(decoded.allKeys.isEmpty)
    #expect(decoded.changedKeys.isEmpty)
    #expect(decoded.modifiedByDevice == "Manuel’s MacBook Air")
    #expect(!String(decoding: data, as: UTF8.self).contains("never archived"))
    #expect(!String(decoding: data, as: UTF8.self).contains("must not be archived"))
  }

  @Test("random records round trip exactly")
  func randomRoundTrip() throws {
    for seed in TestSeeds.seeds(1...2_000) {
      var gen = RandomRecords(seed: seed)
      let record = gen.record()
      let decoded = try Record(systemFieldsData: record.encodeSystemFields())
      #expect(decoded == record.systemFieldsOnly, Comment(rawValue: TestSeeds.replay(seed, test: "randomRoundTrip")))
      if decoded != record.systemFieldsOnly { break }
    }
  }

  /// Decoding must give a valid record or the typed error; anything else (a trap) would end the test process.
  private func decodesOrThrowsTyped(_ data: Data) -> Bool {
    do {
      let record = try Record(systemFieldsData: data)
      try record.validate()
      return true
    } catch is SystemFieldsArchiveError {
      return false
    } catch {
      Issue.record("unexpected error type: \(error)")
      return false
    }
  }

  @Test("every truncation of valid archives gives the typed error")
  func truncations() {
    for seed in TestSeeds.seeds(1...100) {
      var gen = RandomRecords(seed: seed)
      let data = gen.record().encodeSystemFields()
      for length in 0..<data.count {
        let accepted = decodesOrThrowsTyped(data.prefix(length))
        #expect(!accepted, Comment(rawValue: "length \(length); " + TestSeeds.replay(seed, test: "truncations")))
      }
    }
  }

  @Test("every single-bit flip of valid archives gives the typed error")
  func bitFlips() {
    // The magic, the version and CRC-32 together catch every single-bit error, so no flip may decode.
    for seed in TestSeeds.seeds(1...60) {
      var gen = RandomRecords(seed: seed)
      let data = gen.record().encodeSystemFields()
      for bit in 0..<(data.count * 8) {
        var flipped = data
        flipped[bit / 8] ^= UInt8(1 << (bit % 8))
        let accepted = decodesOrThrowsTyped(flipped)
        #expect(!accepted, Comment(rawValue: "bit \(bit); " + TestSeeds.replay(seed, test: "bitFlips")))
      }
    }
  }

  @Test("the checksum catches corruption and says so")
  func checksumError() throws {
    var data = Self.sample().encodeSystemFields()
    data[12] ^= 0x20
    #expect {
      try Record(systemFieldsData: data)
    } throws: { error in
      guard case .checksumMismatch = error as? SystemFieldsArchiveError else { return false }
      return true
    }
  }

  @Test("foreign input is named: an Apple keyed archive gets a hint")
  func foreignInput() throws {
    let apple = try Fixtures.data("synckit-system-fields-QSCompany.bplist")
    #expect {
      try Record(systemFieldsData: apple)
    } throws: { error in
      guard case .notAnArchive(let hint?) = error as? SystemFieldsArchiveError else { return false }
      return hint.contains("cloudKitSystemFieldsArchive")
    }
    #expect(throws: SystemFieldsArchiveError.notAnArchive(hint: nil)) {
      try Record(systemFieldsData: Data("hello".utf8))
    }
    #expect(throws: SystemFieldsArchiveError.notAnArchive(hint: nil)) { try Record(systemFieldsData: Data()) }
  }

  @Test("a newer format version is refused by number")
  func newerVersion() {
    var data = Self.sample().encodeSystemFields()
    data[4] = 2
    #expect(throws: SystemFieldsArchiveError.unsupportedVersion(2)) { try Record(systemFieldsData: data) }
  }

  @Test("the header is the documented bytes")
  func documentedHeader() {
    var r = Record(recordType: "T", recordID: try! RecordID(recordName: "n"))
    r.recordChangeTag = "4"
    let data = r.encodeSystemFields()
    let expected: [UInt8] =
      Array("RCSF".utf8) + [1, 0x01, 0x00] + [1] + Array("T".utf8) + [1] + Array("n".utf8) + [12]
      + Array("_defaultZone".utf8)
      + [16] + Array("__defaultOwner__".utf8) + [1] + Array("4".utf8)
    #expect(Array(data.prefix(expected.count)) == expected)
    #expect(data.count == expected.count + 4)
  }
}
