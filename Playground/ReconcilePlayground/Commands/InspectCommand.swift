import Foundation
import Reconcile

/// `inspect FILE [--json]`: recognises a Reconcile system-fields archive, any CloudKit keyed archive (record and share
/// system fields, change tokens, record and zone IDs, arrays of them), or any Web Services JSON document (a record, a
/// share, a request or response of the record and zone endpoints, an error body) or a collection of such bodies, and
/// prints what it holds.
enum InspectCommand {
  /// What a file held.
  enum Contents {
    case reconcileArchive(Record)
    /// Reconcile's local format: a record as `JSONEncoder` writes it (``Record``'s `Codable` conformance).
    case localRecord(Record)
    case keyedArchive(CloudKitArchive)
    case webServices(WebServices.Body)
    case collection(InspectCollection)

    var format: String {
      switch self {
      case .reconcileArchive: return "Reconcile system-fields archive"
      case .localRecord: return "Reconcile local record (JSONEncoder's format)"
      case .keyedArchive(let archive): return "Apple keyed archive of \(archive.kind)"
      case .webServices(let body): return "CloudKit Web Services JSON \(body.kind)"
      case .collection(let c): return "collection of \(c.entries.count) Web Services bodies"
      }
    }
  }

  /// Tries each format in order, once: the first that reads the data wins; otherwise every format's refusal.
  static func decode(_ data: Data) -> Result<Contents, Refusals> {
    var reasons: [String] = []
    do { return .success(.reconcileArchive(try Record(systemFieldsData: data))) } catch {
      reasons.append("Reconcile archive: \(error)")
    }
    do { return .success(.keyedArchive(try CloudKitArchive(data: data))) } catch {
      reasons.append("Apple keyed archive: \(error)")
    }
    // The local format names its version under `format`, which no Web Services body has: tried first, it is never
    // read as a record of another shape.
    if let record = try? JSONDecoder().decode(Record.self, from: data) { return .success(.localRecord(record)) }
    do { return .success(.webServices(try WebServices.Body(json: data))) } catch {
      if let collection = InspectCollection(data) { return .success(.collection(collection)) }
      reasons.append("JSON: \(error)")
    }
    return .failure(Refusals(reasons: reasons))
  }

  /// Why a path could not be read, in words: a folder or a missing file is said so, not as Foundation's error code.
  static func unreadable(_ path: String, _ error: any Error) -> String {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "no such file" }
    return isFolder.boolValue ? "it is a folder; inspect reads one file" : error.localizedDescription
  }

  /// Why no format could read the data, one line per format.
  struct Refusals: Error {
    let reasons: [String]
  }

  static func run(
    arguments: [String], output: some TextOutput, readFile: (String) throws -> Data,
    command: String = "reconcile-playground"
  ) -> Int32 {
    let json = arguments.contains("--json")
    let paths = arguments.filter { $0 != "--json" }
    if let option = paths.first(where: { $0.hasPrefix("--") }) {
      output.writeError("error: unknown option \(option); usage: \(command) inspect FILE [--json]\n")
      return ExitStatus.usage
    }
    guard paths.count == 1, let path = paths.first else {
      output.writeError("error: inspect takes one file: \(command) inspect FILE [--json]\n")
      return ExitStatus.usage
    }
    let data: Data
    do {
      data = try readFile(path)
    } catch {
      output.writeError("error: cannot read \(path): \(unreadable(path, error))\n")
      return 1
    }
    let contents: Contents
    switch decode(data) {
    case .success(let decoded):
      contents = decoded
    case .failure(let refusals):
      output.writeError(
        "error: \(path) is not a Reconcile archive or local record, a CloudKit keyed archive or a Web Services JSON document\n"
          + refusals.reasons.map { "  \($0)\n" }.joined())
      return 1
    }
    if json {
      do {
        output.write(try InspectJSON.render(contents))
        return 0
      } catch {
        output.writeError("error: \(path) read, but cannot be written as JSON: \(error)\n")
        return 1
      }
    }
    output.write("\(path): \(contents.format), \(data.count) bytes\n")
    output.write(InspectText.render(contents))
    if case .collection(let collection) = contents, !collection.allDecoded { return 1 }
    return 0
  }
}
