import Foundation
import Reconcile

/// `inspect FILE [--json]`: reads a Reconcile system-fields archive, an Apple keyed archive (binary or XML) or a Web
/// Services JSON record, and prints what it holds.
enum InspectCommand {
  /// Tries each format in order, once: the first that reads the data wins; otherwise every format's refusal.
  static func decode(_ data: Data) -> Result<(format: String, record: Record), Refusals> {
    var reasons: [String] = []
    do { return .success(("Reconcile system-fields archive", try Record(systemFieldsData: data))) } catch {
      reasons.append("Reconcile archive: \(error)")
    }
    do { return .success(("Apple keyed system-fields archive", try Record(cloudKitSystemFieldsArchive: data))) } catch {
      reasons.append("Apple keyed archive: \(error)")
    }
    do {
      return .success(("CloudKit Web Services JSON record", try Record(wireJSON: data)))
    } catch {
      reasons.append("JSON: \(error)")
    }
    return .failure(Refusals(reasons: reasons))
  }

  /// Why no format could read the data, one line per format.
  struct Refusals: Error {
    let reasons: [String]
  }

  static func run(arguments: [String], output: some TextOutput, readFile: (String) throws -> Data) -> Int32 {
    let json = arguments.contains("--json")
    let paths = arguments.filter { $0 != "--json" }
    guard paths.count == 1, let path = paths.first else {
      output.write("error: inspect takes one file: reconcile-playground inspect FILE [--json]\n")
      return 64
    }
    let data: Data
    do {
      data = try readFile(path)
    } catch {
      output.write("error: cannot read \(path): \(error.localizedDescription)\n")
      return 1
    }
    let format: String
    let record: Record
    switch decode(data) {
    case .success(let decoded):
      (format, record) = decoded
    case .failure(let refusals):
      output.write("error: \(path) is not a Reconcile archive, an Apple keyed archive or a Web Services JSON record\n")
      output.write(refusals.reasons.map { "  \($0)\n" }.joined())
      return 1
    }
    if json {
      guard let text = try? JSONText.render(record) else {
        output.write("error: the record does not pass validate(), so it cannot be written as JSON\n")
        return 1
      }
      output.write(text)
      return 0
    }
    output.write("\(path): \(format), \(data.count) bytes\n")
    output.write(TextTable.render(rows(record).map { [$0.0, $0.1] }, header: false))
    return 0
  }

  private static func rows(_ r: Record) -> [(String, String)] {
    var rows: [(String, String)] = [
      ("recordType", r.recordType), ("recordName", r.recordID.recordName), ("zoneName", r.recordID.zoneID.zoneName),
      ("ownerName", r.recordID.zoneID.ownerName),
    ]
    let optional: [(String, String?)] = [
      ("recordChangeTag", r.recordChangeTag), ("creationDate", r.creationDate.map(iso)),
      ("modificationDate", r.modificationDate.map(iso)), ("creatorUserRecordName", r.creatorUserRecordName),
      ("lastModifiedUserRecordName", r.lastModifiedUserRecordName), ("modifiedByDevice", r.modifiedByDevice),
      ("parent", r.parent?.description), ("share", r.share?.description),
    ]
    rows += optional.map { ($0.0, $0.1 ?? "–") }
    if r.isDeleted { rows.append(("deleted", "true")) }
    for key in r.values.keys.sorted() { rows.append(("field " + key, r[key]?.description ?? "")) }
    for key in r.encryptedValues.keys { rows.append(("field " + key, "<encrypted>")) }
    return rows
  }

  private static func iso(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }
}
