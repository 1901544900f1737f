import Foundation
import Reconcile
import ReconcilePlayground
import ReconcileSimulator
import ReconcileTestSupport

/// The big hostile inputs of the hostile-input tests, each timed at two sizes ten times apart, so the table shows
/// whether time grows with the input (linear: about 10×) or faster. Where a well-behaved input of the same size
/// exists, it is timed beside the hostile one as the baseline.
enum HostileInputBenchmark {
  struct Result {
    let name: String
    let smallBytes: Int
    let largeBytes: Int
    let smallSeconds: Double
    let largeSeconds: Double
    /// The baseline's time on the large input, when there is one.
    let baselineSeconds: Double?
    let baselineName: String?

    /// How much faster than the input the time grew: 1 is linear.
    var growthPerByte: Double { (largeSeconds / smallSeconds) / (Double(largeBytes) / Double(smallBytes)) }
  }

  struct Case {
    let name: String
    /// Builds the input for a scale (1 or 10) and returns its size and the work to time.
    let make: (Int) throws -> (bytes: Int, run: () throws -> Void)
    var baseline: (name: String, run: (Int) throws -> () throws -> Void)? = nil
  }

  static func run(rounds: Int) throws -> [Result] {
    try cases().map { c in
      let small = try c.make(1)
      let large = try c.make(10)
      let baseline = try c.baseline.map { try $0.run(10) }
      return Result(
        name: c.name, smallBytes: small.bytes, largeBytes: large.bytes,
        smallSeconds: try fastest(rounds, small.run), largeSeconds: try fastest(rounds, large.run),
        baselineSeconds: try baseline.map { try fastest(rounds, $0) }, baselineName: c.baseline?.name)
    }
  }

  static func fastest(_ rounds: Int, _ body: () throws -> Void) throws -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
      let start = DispatchTime.now().uptimeNanoseconds
      try body()
      best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
  }

  /// Runs `body`, which must throw: a hostile input that decodes is a benchmark bug.
  static func expectFailure(_ body: () throws -> Void) throws {
    do { try body() } catch { return }
    throw HostileBenchmarkError.accepted
  }

  enum HostileBenchmarkError: Error { case accepted }

  static let megabyte = 1_048_576

  static func record(fields count: Int) throws -> Record {
    var r = Record(recordType: "Note", recordID: try RecordID(recordName: "n"))
    for i in 0..<count { r["f\(i)"] = .int64(Int64(i)) }
    return r
  }

  static func cases() throws -> [Case] {
    [
      Case(
        name: "JSON record, 1/10 MB string",
        make: { scale in
          let data = HostileDocuments.stringRecord(bytes: scale * megabyte)
          return (data.count, { _ = try Record(wireJSON: data) })
        },
        baseline: (
          "JSONDecoder",
          { scale in
            let data = HostileDocuments.stringRecord(bytes: scale * megabyte)
            return { _ = try WireCoded.decode(data) }
          }
        )),
      Case(
        name: "JSON record, 10,000/100,000 fields",
        make: { scale in
          let data = HostileDocuments.fieldsRecord(count: scale * 10_000)
          return (data.count, { _ = try Record(wireJSON: data) })
        },
        baseline: (
          "JSONDecoder",
          { scale in
            let data = HostileDocuments.fieldsRecord(count: scale * 10_000)
            return { _ = try WireCoded.decode(data) }
          }
        )),
      Case(
        name: "JSON, repeated key after 10,000/100,000 fields",
        make: { scale in
          let data = HostileDocuments.fieldsRecord(count: scale * 10_000, duplicateLast: true)
          return (data.count, { try expectFailure { _ = try Record(wireJSON: data) } })
        }),
      Case(
        name: "JSON nested 10,000/100,000 deep",
        make: { scale in
          let depth = scale * 10_000
          let data = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
          return (data.count, { try expectFailure { try WireJSON.check(data) } })
        },
        baseline: (
          "JSONDecoder",
          { scale in
            let depth = scale * 10_000
            let data = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            return { try expectFailure { _ = try WireCoded.decode(data) } }
          }
        )),
      Case(
        name: "validate 10,000/100,000 fields",
        make: { scale in
          let r = try record(fields: scale * 10_000)
          return (r.dataSize, { try expectFailure { try r.validate() } })
        }),
      Case(
        name: "FieldMerge 10,000/100,000 fields",
        make: { scale in
          let conflict = try MergeBenchmark.conflict(fields: scale * 10_000, stamped: false)
          let merge = FieldMerge(.editCount(key: "editCount"))
          return (conflict.server.dataSize, { _ = try merge.resolve(conflict) })
        }),
      Case(
        name: "system fields, 1/10 MB record name",
        make: { scale in
          let name = [UInt8](repeating: 0x6E, count: scale * megabyte)
          let body =
            HandBuiltArchives.string("Note") + HandBuiltArchives.varint(UInt64(name.count)) + name
            + HandBuiltArchives.string("Z") + HandBuiltArchives.string("_o")
          let data = HandBuiltArchives.systemFields(body: body)
          return (data.count, { try expectFailure { _ = try Record(systemFieldsData: data) } })
        }),
      Case(
        name: "SchemaVersion, 1/10 MB of digits",
        make: { scale in
          let text = String(repeating: "1", count: scale * megabyte) + ".0.0"
          return (text.utf8.count, { try expectFailure { _ = try SchemaVersion(text) } })
        }),
      Case(
        name: "playground line, 1/10 MB value",
        make: { scale in
          let line = "phone create Note/1 title=\"" + String(repeating: "x", count: scale * megabyte) + "\""
          return (line.utf8.count, { _ = try ScriptParser.parse(line) })
        }),
    ]
  }
}
