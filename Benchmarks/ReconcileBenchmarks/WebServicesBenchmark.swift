import Foundation
import Reconcile

/// Decoding real Web Services bodies (the fixtures) with the typed model, beside two floors on the same bytes: the
/// strict byte check alone, and Foundation's `JSONSerialization`, which builds untyped dictionaries and checks nothing
/// CloudKit-specific.
enum WebServicesBenchmark {
  struct Result {
    let name: String
    let bytes: Int
    let nsTyped: Double
    let nsCheck: Double
    let nsFoundation: Double
  }

  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tests/ReconcileTests/Fixtures/web-services")

  static func run(iterations: Int) throws -> [Result] {
    let cases: [(String, String, WebServices.Endpoint)] = [
      ("query page, 2 photo records", "icloudpd-records-query-continuationMarker-TRIMMED-response.json", .recordsQuery),
      ("lookup, record and share", "pyicloud-invites-records-lookup-zoneshare-response.json", .recordsLookup),
      ("zone changes with tombstone", "pyicloud-photos-records-changes-zone-tombstone-response.json", .changesZone),
    ]
    return try cases.map { name, file, endpoint in
      let data = try Data(contentsOf: fixtures.appendingPathComponent(file))
      let count = max(1, iterations / 100)
      let typed = try nanosecondsPerCall(iterations: count) {
        try WebServices.Response(json: data, endpoint: endpoint).records?.results.count ?? 1
      }
      let check = try nanosecondsPerCall(iterations: count) {
        try WireJSON.check(data)
        return 1
      }
      let foundation = try nanosecondsPerCall(iterations: count) {
        (try JSONSerialization.jsonObject(with: data) as? [String: Any])?.count ?? 0
      }
      return Result(name: name, bytes: data.count, nsTyped: typed.ns, nsCheck: check.ns, nsFoundation: foundation.ns)
    }
  }
}
