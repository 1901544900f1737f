import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// Every real body and state archive, cut short at every length and with bits flipped, must decode or give a typed
/// error — never trap, never hang. (The archives' bit flips and truncations are sampled in `swift test` and tried
/// whole in the deep sweep: ``MutationPlan``.)
@Suite("Hostile bodies and state archives: truncations and bit flips are typed errors")
struct HostileBodyTests {
  static let bodies = [
    "icloudpd-records-modify-update-response.json", "pyicloud-invites-records-lookup-zoneshare-response.json",
    "pyicloud-photos-records-changes-zone-tombstone-response.json", "icloudpd-zones-list-private-response.json",
  ]

  @Test("every truncation of a real body is an error naming a byte offset, or a body", arguments: bodies)
  func truncatedBodies(file: String) throws {
    let data = try Fixtures.data("web-services/" + file)
    var decoded = 0
    for length in 0..<data.count {
      do {
        _ = try WebServices.Body(json: data.prefix(length))
        decoded += 1
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
    #expect(decoded <= 1, "only a cut at trailing whitespace can still be a whole document")
  }

  @Test("single-bit flips (every 11th byte) of a real share lookup decode or fail with a typed error")
  func flippedBody() throws {
    let data = try Fixtures.data("web-services/pyicloud-invites-records-lookup-zoneshare-response.json")
    var outcomes = [0, 0]
    for index in stride(from: 0, to: data.count, by: 11) {
      var copy = data
      copy[copy.startIndex + index] ^= 0x10
      do {
        _ = try WebServices.Body(json: copy)
        outcomes[0] += 1
      } catch {
        outcomes[1] += 1
      }
    }
    #expect(outcomes[1] > 0 && outcomes[0] > 0, "some flips land in values and still decode; others break the body")
  }

  @Test(
    "every truncation and bit flip of the real token, ID and share archives is a typed error or an archive",
    arguments: ["canopy-server-change-token.bplist", "canopy-record-id.bplist", "synthetic-share-system-fields.bplist"])
  func damagedStateArchives(file: String) throws {
    let data = try Fixtures.data(file)
    let plan = MutationPlan(byteCount: data.count)
    for length in plan.lengths {
      #expect(throws: CloudKitArchiveError.self) { try CloudKitArchive(data: data.prefix(length)) }
    }
    for bit in plan.bits {
      var copy = data
      copy[copy.startIndex + bit / 8] ^= UInt8(1 << (bit % 8))
      _ = try? CloudKitArchive(data: copy)
    }
  }

  @Test("a user record, ENCRYPTED_BYTES holding a property list, and a tombstone without a type decode")
  func realShapes() throws {
    let plist = try PropertyListSerialization.data(fromPropertyList: ["k": "v"], format: .binary, options: 0)
    let json = """
      {"records":[
        {"recordName":"_91ac8fc0c2e697b008a586b0d9e43566","recordType":"Users","fields":{}},
        {"recordName":"n1","recordType":"Note","fields":{"blob":{"value":"\(plist.base64EncodedString())","type":"ENCRYPTED_BYTES"}}},
        {"recordName":"gone","deleted":true}]}
      """
    let response = try WebServices.Response(json: Data(json.utf8), endpoint: .recordsLookup)
    let results = try #require(response.records?.results)
    #expect(results[0].record?.recordType == "Users")
    #expect(results[1].record?.encryptedValues["blob"] == .bytes(plist))
    #expect(results[2] == .deleted(try RecordID(recordName: "gone"), recordType: nil))
  }
}
