import Foundation
import Reconcile

/// `inspect FILE [--json]`: reads a Reconcile system-fields archive, an Apple keyed archive (binary or XML) or a Web
/// Services JSON record, and prints what it holds.
enum InspectCommand {
  /// The formats tried, in order; each names itself for the output.
  static func decode(_ data: Data) -> (format: String, record: Record)? {
    if let r = try? Record(systemFieldsData: data) { return ("Reconcile system-fields archive", r) }
    if let r = try? Record(cloudKitSystemFieldsArchive: data) { return ("Apple keyed system-fields archive", r) }
    if let r = try? JSONDecoder().decode(Record.self, from: data) { return ("CloudKit Web Services JSON record", r) }
    return nil
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
    guard let (format, record) = decode(data) else {
      output.write("error: \(path) is not a Reconcile archive, an Apple keyed archive or a Web Services JSON record\n")
      output.write(reasons(data).map { "  \($0)\n" }.joined())
      return 1
    }
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      guard let text = try? encoder.encode(record) else {
        output.write("error: the record does not pass validate(), so it cannot be written as JSON\n")
        return 1
      }
      output.write(String(decoding: text, as: UTF8.self) + "\n")
      return 0
    }
    output.write("\(path): \(format), \(data.count) bytes\n")
    output.write(table(rows(record)))
    return 0
  }

  /// Why each format refused the data, for the error message.
  private static func reasons(_ data: Data) -> [String] {
    var lines: [String] = []
    do { _ = try Record(systemFieldsData: data) } catch { lines.append("Reconcile archive: \(error)") }
    do { _ = try Record(cloudKitSystemFieldsArchive: data) } catch { lines.append("Apple keyed archive: \(error)") }
    do { _ = try JSONDecoder().decode(Record.self, from: data) } catch { lines.append("JSON: \(error)") }
    return lines
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

  private static func table(_ rows: [(String, String)]) -> String {
    let width = rows.map(\.0.count).max() ?? 0
    return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 + "\n" }.joined()
  }
}
