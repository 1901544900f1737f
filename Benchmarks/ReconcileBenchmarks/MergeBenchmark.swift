import Foundation
import Reconcile

/// `FieldMerge` and `HybridLogicalClockMerge` on records of 10 and 100 fields, against a naive three-way merge over
/// `[String: Any]` written the obvious way.
///
/// Each conflict is what a busy record looks like: a fifth of the fields changed on the server, a fifth on the client,
/// one field changed on both (settled by the edit counter), and the rest untouched.
enum MergeBenchmark {
  struct Result {
    let name: String
    let fields: Int
    let nsPerResolution: Double
  }

  static func run(iterations: Int) throws -> [Result] {
    var results: [Result] = []
    for fields in [10, 100] {
      let scale = iterations * 10 / fields
      let plain = try conflict(fields: fields, stamped: false)
      let fieldMerge = try nanosecondsPerCall(iterations: scale) { try resolve(plain) }
      results.append(Result(name: "FieldMerge", fields: fields, nsPerResolution: fieldMerge.ns))

      let stamped = try conflict(fields: fields, stamped: true)
      let hlc = HybridLogicalClockMerge()
      let hlcMerge = try nanosecondsPerCall(iterations: max(scale / 10, 1)) {
        try hlc.resolve(stamped).changedKeys.count
      }
      results.append(Result(name: "HybridLogicalClockMerge", fields: fields, nsPerResolution: hlcMerge.ns))

      let (ancestor, server, client) = (dictionary(plain.ancestor), dictionary(plain.server), dictionary(plain.client))
      let naive = nanosecondsPerCall(iterations: scale) {
        naiveMerge(ancestor: ancestor, server: server, client: client).count
      }
      results.append(Result(name: "naive [String: Any]", fields: fields, nsPerResolution: naive.ns))

      let floor = nanosecondsPerCall(iterations: scale) { floorCopy(plain.server) }
      results.append(Result(name: "floor: copy record, write 1 key", fields: fields, nsPerResolution: floor.ns))
    }
    return results
  }

  /// A ten-field FieldMerge and the floor timed in alternating rounds, so both see the same minutes of a shared machine;
  /// the fastest round of each. Returns nanoseconds per call of each.
  static func againstFloor(iterations: Int, rounds: Int = 15) throws -> (merge: Double, floor: Double) {
    let plain = try conflict(fields: 10, stamped: false)
    var best = (merge: Double.infinity, floor: Double.infinity)
    for _ in 0..<rounds {
      let floor = nanosecondsPerCall(iterations: iterations, rounds: 1) { floorCopy(plain.server) }
      let resolved = try nanosecondsPerCall(iterations: iterations, rounds: 1) { try resolve(plain) }
      best = (min(best.merge, resolved.ns), min(best.floor, floor.ns))
    }
    return best
  }

  /// What callgrind counts for the FieldMerge-vs-floor target: `count` ten-field FieldMerge resolutions, or (`floor`)
  /// `count` copies of the server record with one key written. Returns the units done.
  static func instructionWorkload(floor: Bool, count: Int = 20_000) throws -> Int {
    let plain = try conflict(fields: 10, stamped: false)
    var sink = 0
    for _ in 0..<count { sink &+= floor ? floorCopy(plain.server) : try resolve(plain) }
    return sink > 0 ? count : 0
  }

  /// The merge every FieldMerge row times: edit counters settle keys both sides changed.
  static let fieldMerge = FieldMerge(.editCount(key: "editCount"))

  /// One FieldMerge resolution; returns something of the result so the work is not optimized away.
  @inline(__always)
  static func resolve(_ conflict: Conflict) throws -> Int { try fieldMerge.resolve(conflict).changedKeys.count }

  /// The least any resolution that changes something can cost: copy the server record and write one key.
  @inline(__always)
  static func floorCopy(_ server: Record) -> Int {
    var copy = server
    copy["field0"] = "x"
    return copy.changedKeys.count
  }

  static func conflict(fields: Int, stamped: Bool) throws -> Conflict {
    let id = try RecordID(recordName: "bench-\(fields)")
    var base = Record(recordType: "Item", recordID: id)
    for i in 0..<fields - 1 {
      switch i % 3 {
      case 0: base["field\(i)"] = .string("value \(i)")
      case 1: base["field\(i)"] = .int64(Int64(i))
      default: base["field\(i)"] = .double(Double(i) / 3)
      }
    }
    base["editCount"] = 1
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    let merge = HybridLogicalClockMerge()
    var creator = try HybridLogicalClock(nodeID: "creator")
    if stamped { try merge.stamp(&base, with: &creator, at: start) }
    base.recordChangeTag = "t1"
    base.modificationDate = start
    base.clearChangedKeys()

    let fifth = max(fields / 5, 2)
    var server = base
    var serverClock = try HybridLogicalClock(nodeID: "server-device")
    for i in 0..<fifth { server["field\(i)"] = .string("server \(i)") }
    server["editCount"] = 2
    if stamped { try merge.stamp(&server, with: &serverClock, at: start.addingTimeInterval(1)) }
    server.recordChangeTag = "t2"
    server.modificationDate = start.addingTimeInterval(1)
    server.clearChangedKeys()

    var client = base
    var clientClock = try HybridLogicalClock(nodeID: "client-device")
    for i in (fifth - 1)..<(2 * fifth - 1) { client["field\(i)"] = .string("client \(i)") }
    client["editCount"] = 3
    if stamped { try merge.stamp(&client, with: &clientClock, at: start.addingTimeInterval(2)) }
    return Conflict(client: client, ancestor: base, server: server)
  }

  static func dictionary(_ record: Record?) -> [String: Any] {
    var result: [String: Any] = [:]
    for (key, value) in record?.values ?? [:] {
      switch value {
      case .string(let s): result[key] = s
      case .int64(let i): result[key] = i
      case .double(let d): result[key] = d
      default: result[key] = value.description
      }
    }
    return result
  }

  /// The obvious three-way merge: every key of either side, compared through `AnyHashable`.
  static func naiveMerge(ancestor: [String: Any]?, server: [String: Any], client: [String: Any]) -> [String: Any] {
    var result = server
    for key in Set(server.keys).union(client.keys) {
      let a = ancestor?[key] as? AnyHashable
      let s = server[key] as? AnyHashable
      let c = client[key] as? AnyHashable
      if c == s || c == a { continue }
      if s == a {
        result[key] = client[key]
        continue
      }
      if (client["editCount"] as? Int64 ?? 0) > (server["editCount"] as? Int64 ?? 0) { result[key] = client[key] }
    }
    return result
  }
}
