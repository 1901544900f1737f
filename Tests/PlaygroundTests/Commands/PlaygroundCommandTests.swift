import Foundation
import Reconcile
import ReconcilePlayground
import Testing

@Suite("Playground command line")
struct PlaygroundCommandTests {

  @Test("a misspelt subcommand gets a suggestion on standard error and exit status 2")
  func suggestion() {
    let out = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["dmeo"], output: out) == 2)
    #expect(out.standardError.contains("did you mean 'demo'?"))
    #expect(out.standardOutput.isEmpty)
  }

  @Test(
    "--help and -h describe every subcommand on standard output with status 0",
    arguments: ["demo", "repl", "run", "simulate", "explore", "replay", "inspect", "help"], ["--help", "-h"])
  func helpForEverySubcommand(_ subcommand: String, _ flag: String) {
    let out = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: [subcommand, flag], output: out) == 0)
    #expect(out.standardOutput.contains("usage: reconcile-playground \(subcommand)"))
    #expect(out.standardOutput.contains("exit status: 0 ok, 1 a check failed, 2 usage error"))
    #expect(out.standardError.isEmpty)
  }

  @Test(
    "every option a subcommand's --help lists, it takes (explore's --jobs was missing from its help)",
    arguments: ["demo", "run", "simulate", "explore", "replay", "inspect"])
  func helpListsWhatTheParserTakes(_ subcommand: String) {
    let help = BufferedOutput()
    _ = PlaygroundCommand.run(arguments: [subcommand, "--help"], output: help)
    let listed = help.standardOutput.split(separator: "\n").compactMap { line -> String? in
      let word = line.split(separator: " ").first.map(String.init) ?? ""
      return line.hasPrefix("  --") ? word : nil
    }
    #expect(listed.count >= 1)
    if subcommand == "explore" { #expect(listed.contains("--jobs")) }
    for option in listed {
      let out = BufferedOutput()
      // A value the option may refuse, but not as unknown; two stray words stop every command before it runs.
      _ = PlaygroundCommand.run(arguments: [subcommand, option, "0", "/no/such/file.rcp", "stray"], output: out)
      #expect(!out.standardError.isEmpty, "\(subcommand) \(option) ran")
      #expect(!out.standardError.contains("unknown option"), "\(subcommand) \(option): \(out.standardError)")
    }
    let unknown = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: [subcommand, "--no-such-option"], output: unknown) == 2)
    #expect(unknown.standardError.contains("unknown option --no-such-option"))
  }

  @Test(
    "an app's own command line names itself in every usage and help line",
    arguments: [
      ["--help"], ["explore", "--help"], ["simulate", "--sede", "3"], ["run"], ["inspect"], ["help", "replay"],
    ])
  func ownCommandLineNamesItself(_ arguments: [String]) {
    var environment = PlaygroundEnvironment()
    environment.commandName = "notes-playground"
    let out = BufferedOutput()
    _ = PlaygroundCommand.run(arguments: arguments, output: out, environment: environment)
    let text = out.standardOutput + out.standardError
    #expect(text.contains("notes-playground"), "\(text)")
    #expect(!text.contains("reconcile-playground"), "\(text)")
  }

  @Test("`help NAME` describes one subcommand; an unknown one is a usage error")
  func helpNamesASubcommand() {
    let out = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["help", "simulate"], output: out) == 0)
    #expect(out.standardOutput.contains("--clock-skew SECONDS"))
    let bad = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["help", "simulat"], output: bad) == 2)
    #expect(bad.standardError.contains("no subcommand 'simulat'"))
  }

  @Test("--version prints the version on standard output")
  func version() {
    let out = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["--version"], output: out) == 0)
    #expect(out.standardOutput == PlaygroundCommand.version + "\n")
  }

  @Test("an unknown option is a usage error on standard error, naming it, with status 2")
  func unknownOptionIsAUsageError() {
    let out = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["simulate", "--sede", "3"], output: out) == 2)
    #expect(out.standardError.contains("unknown option --sede; did you mean --seed?"))
    #expect(out.standardOutput.isEmpty)
  }
}

@Suite("Playground inspect")
struct InspectTests {
  static let fixture = GoldenTests.repository.appendingPathComponent(
    "Tests/ReconcileTests/Fixtures/synckit-system-fields-QSCompany.bplist")

  @Test("inspect prints the system fields of a real Apple archive")
  func inspectsAppleArchive() {
    let out = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["inspect", Self.fixture.path], output: out) == 0)
    #expect(out.text.contains("Apple keyed archive of record system fields, 1690 bytes"))
    #expect(out.text.contains("QSCompany.1739C6A5-C07E-48A5-B83E-AB07694F23DF"))
    #expect(out.text.contains("2017-08-01T22:38:26.484Z"))
    #expect(out.text.contains("Manuel’s MacBook Air"))
  }

  @Test("inspect says in words why a path cannot be read: a folder, a missing file")
  func unreadablePaths() {
    let folder = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["inspect", NSTemporaryDirectory()], output: folder) == 1)
    #expect(folder.standardError.contains("it is a folder; inspect reads one file"), "\(folder.standardError)")
    let missing = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["inspect", "/no/such/archive"], output: missing) == 1)
    #expect(missing.standardError.contains("no such file"), "\(missing.standardError)")
    #expect(!(folder.standardError + missing.standardError).contains("NSCocoaErrorDomain"))
  }

  @Test("inspect prints the account status of a real archived CKAccountInfo, as text and as JSON")
  func inspectsAccountInfo() {
    let path = Self.fixture.deletingLastPathComponent().appendingPathComponent("macos-assistantd-ckaccountinfo.bplist")
      .path
    let out = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["inspect", path], output: out) == 0)
    #expect(out.text.contains("Apple keyed archive of CKAccountInfo, 390 bytes"))
    #expect(out.text.contains("available (1)"))
    #expect(out.text.contains("validationCounter") && out.text.contains("43"))
    let json = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["inspect", "--json", path], output: json) == 0)
    #expect(json.text.contains("\"accountStatus\" : \"available\""))
  }

  @Test("inspect reads Reconcile archives and JSON, and --json prints the wire format")
  func inspectsOtherFormats() throws {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "n1"))
    record.recordChangeTag = "t9"
    record["title"] = "hello"
    record.encryptedValues["pin"] = "1234"
    let files: [String: Data] = [
      "a.rcsf": record.encodeSystemFields(), "b.json": try record.wireJSON(),
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

  @Test(
    "inspect tells formats apart: the local Codable format is read as such, an empty object is refused, not guessed")
  func inspectTellsFormatsApart() throws {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "n1", zoneID: try ZoneID(zoneName: "Z")))
    record["title"] = "hello"
    let files: [String: Data] = ["local.json": try JSONEncoder().encode(record), "empty.json": Data("{}".utf8)]
    let reader: @Sendable (String) throws -> Data = { path in
      guard let data = files[path] else { throw CocoaError(.fileNoSuchFile) }
      return data
    }
    let local = BufferedOutput()
    #expect(
      PlaygroundCommand.run(
        arguments: ["inspect", "local.json"], output: local, environment: PlaygroundEnvironment(readFile: reader)) == 0)
    #expect(local.text.contains("Reconcile local record (JSONEncoder's format)"))
    #expect(local.text.contains("\"hello\""))
    #expect(local.text.contains("Z"))
    // Web Services decoding alone names the local format and the API that reads it.
    #expect(throws: WireJSONError.self) { try WebServices.Body(json: files["local.json"] ?? Data()) }
    do {
      _ = try WebServices.Body(json: files["local.json"] ?? Data())
    } catch {
      #expect("\(error)".contains("JSONDecoder().decode(Record.self, from:)"))
    }
    let empty = BufferedOutput()
    #expect(
      PlaygroundCommand.run(
        arguments: ["inspect", "empty.json"], output: empty, environment: PlaygroundEnvironment(readFile: reader)) == 1)
    #expect(empty.text.contains("an empty object is the body of several requests"))
  }

  @Test("inspect prints an archived date to the millisecond it holds, rounding a binary double's shortfall")
  func inspectRoundsMilliseconds() throws {
    let output = BufferedOutput()
    let path = Self.fixture.deletingLastPathComponent().appendingPathComponent(
      "apple-notes-system-fields-AccountData.bplist")
    #expect(PlaygroundCommand.run(arguments: ["inspect", path.path], output: output) == 0)
    #expect(output.text.contains("2019-12-07T23:45:41.680Z"))
  }

  @Test("inspect reads icloud.com's batched bodies as a collection, each element by its shape")
  func inspectsBatch() throws {
    let batch = #"""
      {"batch":[{"records":[{"recordName":"a","recordType":"CPLAsset","fields":{"n":{"value":1,"type":"INT64"}}}],
        "syncToken":"AQAA","moreComing":false},{"records":[],"syncToken":"AQAB","moreComing":false}]}
      """#
    let reader: @Sendable (String) throws -> Data = { _ in Data(batch.utf8) }
    let output = BufferedOutput()
    #expect(
      PlaygroundCommand.run(
        arguments: ["inspect", "batch.json"], output: output, environment: PlaygroundEnvironment(readFile: reader))
        == 0)
    #expect(output.text.contains("collection of 2 Web Services bodies"))
    #expect(output.text.contains("[1] batch"))
    // Decoded as one body, a batch is refused with what it is.
    do {
      _ = try WebServices.Body(json: Data(batch.utf8))
      Issue.record("a batch decoded as one body")
    } catch {
      #expect("\(error)".contains("an icloud.com batch of 2 bodies"))
    }
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
    #expect(PlaygroundCommand.run(arguments: ["inspect"], output: usage) == 2)
  }

  static var fixtureFiles: [URL] {
    let root = fixture.deletingLastPathComponent()
    let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
    return (files ?? []).filter { ["bplist", "plist", "json"].contains($0.pathExtension) }
      .sorted { $0.path < $1.path }
  }

  @Test("inspect recognises every fixture: archives of records, shares, tokens and IDs, and every Web Services body")
  func inspectsEveryFixture() throws {
    let files = Self.fixtureFiles
    #expect(files.count >= 21, "the fixtures folder moved?")
    for file in files {
      let out = BufferedOutput()
      let status = PlaygroundCommand.run(arguments: ["inspect", file.path], output: out)
      #expect(status == 0, "\(file.lastPathComponent): \(out.text)")
      let json = BufferedOutput()
      #expect(
        PlaygroundCommand.run(arguments: ["inspect", file.path, "--json"], output: json) == 0,
        "\(file.lastPathComponent)")
    }
  }

  @Test("inspect prints tombstones, errors with codes, tokens, moreComing, markers and participants")
  func inspectsWhatBodiesHold() throws {
    let root = Self.fixture.deletingLastPathComponent()
    func inspect(_ name: String) -> String {
      let out = BufferedOutput()
      _ = PlaygroundCommand.run(arguments: ["inspect", root.appendingPathComponent(name).path], output: out)
      return out.text
    }
    let changes = inspect("web-services/pyicloud-photos-records-changes-zone-tombstone-response.json")
    #expect(changes.contains("changes/zone response"))
    #expect(changes.contains("deleted     ALBUM_RECORD_ID_999"))
    #expect(changes.contains("moreComing  false"))
    #expect(changes.contains("syncToken   SYNC_TOKEN_103"))
    let query = inspect("web-services/icloudpd-records-query-continuationMarker-TRIMMED-response.json")
    #expect(query.contains("continuationMarker  EgYZYs4rPu8a"))
    let errors = inspect("web-services/detectify-real-ckws-error-and-zone-responses.json")
    #expect(errors.contains("NOT_SUPPORTED_BY_ZONE for zone metadata_zone"))
    let token = inspect("canopy-server-change-token.bplist")
    #expect(token.contains("Apple keyed archive of CKServerChangeToken"))
    #expect(token.contains("9 bytes: 01000001861120693e"))
    let share = inspect("synthetic-share-system-fields.bplist")
    #expect(share.contains("share system fields"))
    #expect(
      share.contains(
        "_0123456789abcdef0123456789abcdef <bo@example.invalid> (Bo Sample) PRIVATE_USER READ_ONLY PENDING"))
  }

  @Test("a damaged archive or body is one error naming each reading and why it failed, with status 1")
  func damagedInputs() throws {
    let root = Self.fixture.deletingLastPathComponent()
    let archive = try Data(contentsOf: root.appendingPathComponent("canopy-server-change-token.bplist"))
    let body = try Data(
      contentsOf: root.appendingPathComponent("web-services/icloudpd-zones-list-private-response.json"))
    let files: [String: Data] = [
      "cut.bplist": archive.prefix(archive.count / 2),
      "cut.json": body.prefix(body.count - 3),
      "foreign.json": Data(#"{"hello":"world"}"#.utf8),
    ]
    let environment = PlaygroundEnvironment(readFile: { path in
      guard let data = files[path] else { throw CocoaError(.fileNoSuchFile) }
      return data
    })
    for (name, reason) in [
      ("cut.bplist", "Apple keyed archive: malformed property list"), ("cut.json", "JSON: JSON syntax error at byte"),
      ("foreign.json", "no known request or response has the top-level keys hello"),
    ] {
      let out = BufferedOutput()
      #expect(PlaygroundCommand.run(arguments: ["inspect", name], output: out, environment: environment) == 1)
      #expect(
        out.text.contains(
          "is not a Reconcile archive or local record, a CloudKit keyed archive or a Web Services JSON document"))
      #expect(out.text.contains("Reconcile archive: "), "\(name)")
      #expect(out.text.contains(reason), "\(name): \(out.text)")
    }
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

@Suite("The version printed, and the CHANGELOG it comes from")
struct VersionTests {
  @Test("the CHANGELOG is written for users: one line per change, no entry running on")
  func changelogEntriesAreOneLine() throws {
    let changelog = try String(
      contentsOf: GoldenTests.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let lines = changelog.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() where line.hasPrefix("- ") && index + 1 < lines.count {
      #expect(!lines[index + 1].hasPrefix("  "), "an entry runs on past one line: \(line)")
    }
  }

  @Test("--version prints the newest release the CHANGELOG names, from the one place the version is written")
  func versionIsTheChangelogs() throws {
    let changelog = try String(
      contentsOf: GoldenTests.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let newest = try #require(
      changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0.dropFirst(3).first?.isNumber == true })
    let version = String(newest.dropFirst(3).prefix { !$0.isWhitespace })
    #expect(PlaygroundCommand.version == "reconcile-playground \(version) (Reconcile \(version))")
  }
}
