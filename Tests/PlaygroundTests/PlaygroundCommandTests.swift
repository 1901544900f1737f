import Foundation
import Reconcile
import ReconcilePlayground
import Testing

@Suite("Playground command line")
struct PlaygroundCommandTests {

  @Test("a misspelt subcommand gets a suggestion and exit status 64")
  func suggestion() {
    let out = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["dmeo"], output: out) == 64)
    #expect(out.text.contains("did you mean 'demo'?"))
  }
}

@Suite("Playground inspect")
struct InspectTests {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("ReconcileTests/Fixtures/synckit-system-fields-QSCompany.bplist")

  @Test("inspect prints the system fields of a real Apple archive")
  func inspectsAppleArchive() {
    let out = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["inspect", Self.fixture.path], output: out) == 0)
    #expect(out.text.contains("Apple keyed system-fields archive, 1690 bytes"))
    #expect(out.text.contains("QSCompany.1739C6A5-C07E-48A5-B83E-AB07694F23DF"))
    #expect(out.text.contains("2017-08-01T22:38:26.484Z"))
    #expect(out.text.contains("Manuel’s MacBook Air"))
  }

  @Test("inspect reads Reconcile archives and JSON, and --json prints the wire format")
  func inspectsOtherFormats() throws {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "n1"))
    record.recordChangeTag = "t9"
    record["title"] = "hello"
    record.encryptedValues["pin"] = "1234"
    let files: [String: Data] = [
      "a.rcsf": record.encodeSystemFields(), "b.json": try JSONEncoder().encode(record),
    ]
    let reader: @Sendable (String) throws -> Data = { path in
      guard let data = files[path] else { throw CocoaError(.fileNoSuchFile) }
      return data
    }
    let archive = BufferedOutput()
    #expect(
      PlaygroundCommand.run(
        arguments: ["inspect", "a.rcsf"], output: archive, environment: PlaygroundEnvironment(readFile: reader)) == 0)
    #expect(archive.text.contains("Reconcile system-fields archive"))
    #expect(archive.text.contains("t9"))

    let json = BufferedOutput()
    #expect(
      PlaygroundCommand.run(
        arguments: ["inspect", "b.json"], output: json, environment: PlaygroundEnvironment(readFile: reader)) == 0)
    #expect(json.text.contains("\"hello\""))
    #expect(json.text.contains("<encrypted>"))
    #expect(!json.text.contains("1234"))

    let wire = BufferedOutput()
    #expect(
      PlaygroundCommand.run(
        arguments: ["inspect", "a.rcsf", "--json"], output: wire, environment: PlaygroundEnvironment(readFile: reader))
        == 0)
    #expect(wire.text.contains("\"recordChangeTag\" : \"t9\""))
  }

  @Test("inspect names the problem with unreadable or unknown input")
  func inspectErrors() {
    let reader: @Sendable (String) throws -> Data = { path in
      if path == "garbage" { return Data("not a record".utf8) }
      throw CocoaError(.fileNoSuchFile)
    }
    let missing = BufferedOutput()
    #expect(
      PlaygroundCommand.run(
        arguments: ["inspect", "nope"], output: missing, environment: PlaygroundEnvironment(readFile: reader)) == 1)
    #expect(missing.text.contains("cannot read nope"))
    let garbage = BufferedOutput()
    #expect(
      PlaygroundCommand.run(
        arguments: ["inspect", "garbage"], output: garbage, environment: PlaygroundEnvironment(readFile: reader)) == 1)
    #expect(garbage.text.contains("Reconcile archive: not a Reconcile system-fields archive"))
    let usage = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["inspect"], output: usage) == 64)
  }

  @Test("inspect reads JSON strictly: a repeated key is named with its offset; replay refuses bytes that are not UTF-8")
  func hostileFiles() {
    let reader: @Sendable (String) throws -> Data = { path in
      path == "dup.json"
        ? Data(#"{"recordName":"a","recordName":"b","recordType":"T"}"#.utf8) : Data([0x73, 0x65, 0xFF, 0x0A])
    }
    let environment = PlaygroundEnvironment(readFile: reader)
    let duplicate = BufferedOutput()
    #expect(
      PlaygroundCommand.run(arguments: ["inspect", "dup.json"], output: duplicate, environment: environment) == 1)
    #expect(duplicate.text.contains(#"JSON: JSON object repeats the key "recordName" at byte 18"#), "\(duplicate.text)")
    let binary = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["replay", "bad.rcp"], output: binary, environment: environment) == 1)
    #expect(binary.text.contains("bad.rcp is not UTF-8 text"), "\(binary.text)")
  }
}
