import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// The app's schema in the seed scenarios: notes at 1.0.0 (title, tags, body encrypted) and what version 2.0.0 adds.
enum Notes {
  static let v1 = SchemaVersion(major: 1)
  static let v11 = SchemaVersion(major: 1, minor: 1)
  static let v2 = SchemaVersion(major: 2)

  static let fieldsV1: [RecordSchema.Field] = [
    .init("title", .string, required: true),
    .init("tags", .list(.string)),
    .init("body", .string, encrypted: true),
    .init("editCount", .int64),
  ]

  static func schema(
    version: SchemaVersion = v1, extraFields: [RecordSchema.Field] = [], unknownKeys: Schema.UnknownKeyPolicy = .halt,
    futureVersions: Schema.FutureVersionPolicy = .halt, migrations: [SchemaMigration] = []
  ) -> Schema {
    Schema(
      [RecordSchema(recordType: "Note", version: version, fields: fieldsV1 + extraFields)],
      unknownKeys: unknownKeys, futureVersions: futureVersions, migrations: migrations)
  }

  static func note(version: String?, _ values: [String: FieldValue] = ["title": "Groceries"]) throws -> Record {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "note-1"))
    for (key, value) in values { record[key] = value }
    if let version { record["schemaVersion"] = .string(version) }
    return record.savedByServer(tag: "t1", at: Scenario.t0)
  }
}

@Suite("Schema checks and migrations")
struct SchemaTests {
  @Test("seed scenario: an app-1.0 device meets a record written by app 2.0 — halt, and nothing is saved")
  func futureVersionHalts() throws {
    let schema = Notes.schema()
    let fromV2 = try Notes.note(version: "2.0.0", ["title": "New", "dueDate": .timestamp(Scenario.t0)])
    var store: [RecordID: Record] = [:]
    let local = try Notes.note(version: "1.0.0")
    store[local.recordID] = local

    func applyFetched(_ record: Record) throws {
      _ = try schema.check(record)
      store[record.recordID] = record
    }
    let halt = #expect(throws: SchemaHalt.self) { try applyFetched(fromV2) }
    #expect(halt?.reason == .futureVersion(found: Notes.v2, supported: Notes.v1))
    #expect(halt?.recordVersion == Notes.v2 && halt?.appVersion == Notes.v1)
    #expect(store[local.recordID] == local, "nothing was saved")
    let text = halt?.description ?? ""
    #expect(text.contains("note-1") && text.contains("2.0.0") && text.contains("1.0.0"))
    #expect(
      text
        == "Syncing stopped: Note note-1 in _defaultZone:__defaultOwner__ was written by schema version 2.0.0, newer than "
        + "1.0.0, the newest this app understands (record version 2.0.0, app version 1.0.0). Nothing was saved. Update the "
        + "app to the latest version to keep syncing.")

    var edited = local
    edited["title"] = "Mine"
    let conflict = Conflict(client: edited, ancestor: local, server: fromV2)
    #expect(throws: SchemaHalt.self, "the guarded resolver refuses to merge") {
      try FieldMerge(.client).guarded(by: schema).resolve(conflict)
    }
  }

  @Test("seed scenario: an unknown key halts; with .preserve it is kept")
  func unknownKeys() throws {
    let record = try Notes.note(version: "1.0.0", ["title": "x", "mood": "happy"])
    let halt = #expect(throws: SchemaHalt.self) { try Notes.schema().check(record) }
    #expect(halt?.reason == .unknownKeys(["mood"]))
    #expect(halt?.description.contains("mood") == true)

    let preserving = Notes.schema(unknownKeys: .preserve)
    #expect(try preserving.check(record) == .compatible)
    #expect(preserving.unknownKeys(in: record) == ["mood"])
    var client = record
    client["title"] = "edited"
    client["mood"] = "stale"  // a stale copy must not overwrite the newer app's value
    var server = record
    server["mood"] = "thrilled"
    server = server.savedByServer(tag: "t2", at: Scenario.t0.addingTimeInterval(5))
    let resolved = try FieldMerge(.client).guarded(by: preserving).resolve(
      Conflict(client: client, ancestor: record, server: server))
    #expect(resolved["mood"] == "thrilled")
    #expect(resolved["title"] == "edited")
    #expect(resolved.changedKeys == ["title"])
  }

  @Test("seed scenario: an older record is migrated, and every key the migration wrote is marked for upload")
  func migration() throws {
    let toV2 = SchemaMigration(recordType: "Note", from: Notes.v1, to: Notes.v2) { note in
      note["headline"] = note["title"]
      note["title"] = nil
    }
    let schema = Schema(
      [
        RecordSchema(
          recordType: "Note", version: Notes.v2,
          fields: [.init("headline", .string, required: true, since: Notes.v2), .init("title", .string)])
      ], migrations: [toV2])
    let old = try Notes.note(version: "1.0.0", ["title": "Groceries"])
    #expect(try schema.check(old) == .needsMigration(from: Notes.v1))
    let migrated = try schema.migrate(old)
    #expect(migrated["headline"] == "Groceries" && migrated["title"] == nil)
    #expect(migrated["schemaVersion"] == "2.0.0")
    #expect(migrated.changedKeys == ["headline", "title", "schemaVersion"])
    #expect(try schema.check(migrated) == .compatible)
    #expect(try schema.migrate(migrated) == migrated, "a current record is returned unchanged")
  }

  @Test("seed scenario: a type mismatch halts, naming the key")
  func typeMismatch() throws {
    let record = try Notes.note(version: "1.0.0", ["title": 42])
    let halt = #expect(throws: SchemaHalt.self) { try Notes.schema().check(record) }
    #expect(halt?.reason == .typeMismatch(key: "title", expected: .string, found: .int64))
    #expect(halt?.description.contains("INT64 in \"title\", where this app expects STRING") == true)
  }

  @Test("the other halts: unknown type, encryption, missing required field, unreadable version")
  func otherHalts() throws {
    let schema = Notes.schema()
    var task = try Notes.note(version: "1.0.0")
    task.recordType = "Task"
    #expect(throws: SchemaHalt.self) { try schema.check(task) }
    #expect((try? schema.check(task)) == nil)
    do {
      _ = try schema.check(task)
    } catch {
      #expect(error.reason == .unknownRecordType && error.appVersion == nil)
    }

    var plainBody = try Notes.note(version: "1.0.0")
    plainBody["body"] = "not encrypted"
    #expect(throws: SchemaHalt.self) { try schema.check(plainBody) }

    let untitled = try Notes.note(version: "1.0.0", [:])
    let missing = #expect(throws: SchemaHalt.self) { try schema.check(untitled) }
    #expect(missing?.reason == .missingRequiredField(key: "title"))

    for bad: FieldValue in [.int64(1), "1.x", "1.0"] {
      var record = try Notes.note(version: nil)
      record["schemaVersion"] = bad
      let halt = #expect(throws: SchemaHalt.self) { try schema.check(record) }
      guard case .invalidVersion = halt?.reason else {
        Issue.record("\(bad): \(String(describing: halt))")
        continue
      }
    }
  }

  @Test("a record without a version field is read as versionWhenMissing")
  func missingVersion() throws {
    let record = try Notes.note(version: nil)
    #expect(try Notes.schema().check(record) == .compatible)
    #expect(try Notes.schema(version: Notes.v11).check(record) == .needsMigration(from: Notes.v1))
  }

  @Test("a required field added in a later version is not required of older records")
  func requiredSince() throws {
    let schema = Notes.schema(
      version: Notes.v11, extraFields: [.init("due", .timestamp, required: true, since: Notes.v11)],
      migrations: [
        SchemaMigration(recordType: "Note", from: Notes.v1, to: Notes.v11) { $0["due"] = .timestamp(Scenario.t0) }
      ])
    let old = try Notes.note(version: "1.0.0")
    #expect(try schema.check(old) == .needsMigration(from: Notes.v1))
    #expect(try schema.migrate(old)["due"] == .timestamp(Scenario.t0))
    let current = try Notes.note(version: "1.1.0")
    let halt = #expect(throws: SchemaHalt.self) { try schema.check(current) }
    #expect(halt?.reason == .missingRequiredField(key: "due"))
  }

  @Test(".allowNewerMinor accepts a newer minor version and keeps its unknown keys; a newer major still halts")
  func newerMinor() throws {
    let schema = Notes.schema(futureVersions: .allowNewerMinor)
    let minor = try Notes.note(version: "1.3.0", ["title": "x", "color": "red"])
    #expect(try schema.check(minor) == .newerMinor(SchemaVersion(major: 1, minor: 3)))
    var client = minor
    client["title"] = "mine"
    client["color"] = nil
    let resolved = try FieldMerge(.client).guarded(by: schema).resolve(
      Conflict(client: client, ancestor: minor, server: minor))
    #expect(resolved["color"] == "red", "a key this app does not know is never written")
    #expect(resolved.changedKeys == ["title"])
    #expect(throws: SchemaHalt.self) { try schema.check(Notes.note(version: "2.0.0")) }
  }

  @Test("migrations run in order, the latest applicable step first; a gap or a throwing step halts")
  func migrationChain() throws {
    let v12 = SchemaVersion(major: 1, minor: 2)
    let steps = [
      SchemaMigration(recordType: "Note", from: Notes.v1, to: Notes.v11) { $0["log"] = .list(["1.1"]) },
      SchemaMigration(recordType: "Note", from: Notes.v11, to: Notes.v2) {
        $0["log"] = .list(($0["log"]?.listValue ?? []) + ["2.0"])
      },
    ]
    let schema = Notes.schema(version: Notes.v2, extraFields: [.init("log", .list(.string))], migrations: steps)
    #expect(try schema.migrate(Notes.note(version: "1.0.0"))["log"] == ["1.1", "2.0"])
    #expect(try schema.migrate(Notes.note(version: "1.0.5"))["log"] == ["1.1", "2.0"], "1.0.5 starts at the 1.0 step")
    #expect(try schema.migrate(Notes.note(version: "1.2.0"))["log"] == ["2.0"], "1.2 starts at the 1.1 step")

    let gappy = Notes.schema(
      version: Notes.v2, extraFields: [.init("log", .list(.string))],
      migrations: [steps[0], SchemaMigration(recordType: "Note", from: v12, to: Notes.v2)])
    let gap = #expect(throws: SchemaHalt.self) { try gappy.migrate(Notes.note(version: "1.0.0")) }
    #expect(gap?.reason == .migrationGap(from: Notes.v11, to: Notes.v2))
    #expect(gap?.description.contains("bug in the app") == true)

    struct Broken: Error {}
    let failing = Notes.schema(
      version: Notes.v2,
      migrations: [SchemaMigration(recordType: "Note", from: Notes.v1, to: Notes.v2) { _ in throw Broken() }])
    let failed = #expect(throws: SchemaHalt.self) { try failing.migrate(Notes.note(version: "1.0.0")) }
    guard case .migrationFailed(from: Notes.v1, to: Notes.v2, _) = failed?.reason else {
      Issue.record("\(String(describing: failed))")
      return
    }
  }

  @Test("stampVersion writes the app's version of the record type")
  func stampVersion() throws {
    var record = Record(recordType: "Note")
    try Notes.schema(version: Notes.v11).stampVersion(&record)
    #expect(record["schemaVersion"] == "1.1.0")
    #expect(record.changedKeys == ["schemaVersion"])
  }

  @Test("a guarded resolver migrates an older server copy and uploads the migration")
  func guardedMigratesServer() throws {
    let schema = Notes.schema(
      version: Notes.v11, extraFields: [.init("pinned", .int64, since: Notes.v11)],
      migrations: [SchemaMigration(recordType: "Note", from: Notes.v1, to: Notes.v11) { $0["pinned"] = false }])
    let server = try Notes.note(version: "1.0.0", ["title": "old"])
    var client = try Notes.note(version: "1.1.0", ["title": "old", "pinned": false])
    client["title"] = "new"
    let resolved = try FieldMerge(.client).guarded(by: schema).resolve(
      Conflict(client: client, ancestor: nil, server: server))
    #expect(resolved["title"] == "new" && resolved["pinned"] == false && resolved["schemaVersion"] == "1.1.0")
    #expect(resolved.changedKeys == ["title", "pinned", "schemaVersion"])
    #expect(resolved.recordChangeTag == server.recordChangeTag)
    #expect(
      ResolverContractTests.violations(of: resolved, for: Conflict(client: client, ancestor: nil, server: server))
        .isEmpty)
  }
}
