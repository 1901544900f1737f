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
    let nsCodable: Double
  }

  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tests/ReconcileTests/Fixtures/web-services")

  /// The bodies: three real responses, and a 200-record query page made of the first one's records.
  static func bodies() throws -> [(name: String, data: Data, endpoint: WebServices.Endpoint)] {
    let cases: [(String, String, WebServices.Endpoint)] = [
      ("query page, 2 photo records", "icloudpd-records-query-continuationMarker-TRIMMED-response.json", .recordsQuery),
      ("lookup, record and share", "pyicloud-invites-records-lookup-zoneshare-response.json", .recordsLookup),
      ("zone changes with tombstone", "pyicloud-photos-records-changes-zone-tombstone-response.json", .changesZone),
    ]
    var bodies = try cases.map { name, file, endpoint in
      (name: name, data: try Data(contentsOf: fixtures.appendingPathComponent(file)), endpoint: endpoint)
    }
    bodies.append((name: "query page, 200 records", data: try page(of: 200, from: bodies[0].data), .recordsQuery))
    return bodies
  }

  /// A query response of `count` records, copies of `data`'s records as written, each renamed `NAME-i`. Built from
  /// the text, not through a parser, so the bytes are the same in every run (callgrind counts this section's work).
  static func page(of count: Int, from data: Data) throws -> Data {
    let text = String(decoding: data, as: UTF8.self)
    guard let key = text.range(of: #""records""#), let open = text[key.upperBound...].range(of: "[") else {
      throw CocoaError(.coderReadCorrupt)
    }
    var records: [Substring] = []
    var depth = 0
    var inString = false
    var escaped = false
    var start = open.upperBound
    var index = open.upperBound
    scan: while index < text.endIndex {
      let character = text[index]
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else {
        switch character {
        case "\"": inString = true
        case "{", "[":
          if depth == 0 { start = index }
          depth += 1
        case "}", "]":
          if depth == 0 { break scan }
          depth -= 1
          if depth == 0 { records.append(text[start...index]) }
        default: break
        }
      }
      index = text.index(after: index)
    }
    guard !records.isEmpty else { throw CocoaError(.coderReadCorrupt) }
    let copies = (0..<count).map { copy -> String in
      var record = String(records[copy % records.count])
      if let key = record.range(of: #""recordName""#), let quote = record[key.upperBound...].range(of: "\"") {
        record.insert(contentsOf: "\(copy)-", at: quote.upperBound)
      }
      return record
    }
    return Data((String(text[..<open.upperBound]) + copies.joined(separator: ",") + String(text[index...])).utf8)
  }

  /// Each body decoded four ways in alternating rounds (so each way sees the same minutes of a shared machine), the
  /// fastest round of each.
  static func run(iterations: Int, rounds: Int = 9) throws -> [Result] {
    try bodies().map { name, data, endpoint in
      let count = max(1, iterations / 100 * 9_000 / max(data.count, 1))
      var best = (typed: Double.infinity, check: Double.infinity, foundation: Double.infinity, codable: Double.infinity)
      for _ in 0..<rounds {
        let typed = try nanosecondsPerCall(iterations: count, rounds: 1) { try decodeTyped(data, endpoint) }
        let check = try nanosecondsPerCall(iterations: count, rounds: 1) {
          try WireJSON.check(data)
          return 1
        }
        let foundation = try nanosecondsPerCall(iterations: count, rounds: 1) { try decodeUntyped(data) }
        let codable = try nanosecondsPerCall(iterations: count, rounds: 1) { try PlainCodableBodies.decode(data) }
        best = (
          min(best.typed, typed.ns), min(best.check, check.ns), min(best.foundation, foundation.ns),
          min(best.codable, codable.ns)
        )
      }
      return Result(
        name: name, bytes: data.count, nsTyped: best.typed, nsCheck: best.check, nsFoundation: best.foundation,
        nsCodable: best.codable)
    }
  }

  static func decodeTyped(_ data: Data, _ endpoint: WebServices.Endpoint) throws -> Int {
    switch try WebServices.Response(json: data, endpoint: endpoint) {
    case .records(let records): return records.results.count
    case .zoneChanges(let changes): return changes.zones.count
    default: return 1
    }
  }

  static func decodeUntyped(_ data: Data) throws -> Int {
    (try JSONSerialization.jsonObject(with: data) as? [String: Any])?.count ?? 0
  }

  /// What callgrind counts for the instruction columns: `BODY_DECODER` (typed, untyped or codable) decoding every body
  /// `BODY_REPEATS` times (1 unless set); with `BODY_INDEX`, only that body (0 for the first of ``bodies()``).
  static func instructionWorkload() throws -> Int {
    let environment = ProcessInfo.processInfo.environment
    let repeats = environment["BODY_REPEATS"].flatMap(Int.init) ?? 1
    let decoder = environment["BODY_DECODER"] ?? "typed"
    let index = environment["BODY_INDEX"].flatMap(Int.init)
    var sink = 0
    for (position, (_, data, endpoint)) in try bodies().enumerated() where index.map({ $0 == position }) ?? true {
      for _ in 0..<repeats {
        switch decoder {
        case "untyped": sink &+= try decodeUntyped(data)
        case "codable": sink &+= try PlainCodableBodies.decode(data)
        default: sink &+= try decodeTyped(data, endpoint)
        }
      }
    }
    return sink
  }
}
