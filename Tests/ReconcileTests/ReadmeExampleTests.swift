import Foundation
import Reconcile
import Testing

/// The README's example, line for line, so the README cannot drift from the API.
@Suite("README example")
struct ReadmeExampleTests {
  @Test("the record-model example runs as written")
  func recordModelExample() throws {
    let storedData = try Fixtures.data("synckit-system-fields-QSCompany.bplist")

    let notes = try ZoneID(zoneName: "Notes")
    var note = Record(recordType: "Note", recordID: try RecordID(recordName: "note-1", zoneID: notes))
    note["title"] = "Groceries"
    note["pinned"] = true
    note["tags"] = ["home", "weekly"]
    note.encryptedValues["body"] = "milk, eggs"
    #expect(note.changedKeys == ["title", "pinned", "tags", "body"])
    try note.validate()

    let archive = note.encodeSystemFields()
    let forApple = try note.cloudKitSystemFieldsArchive()
    let fromiOS = try Record(cloudKitSystemFieldsArchive: forApple)
    let json = try note.wireJSON()

    let cached = try JSONDecoder().decode(Record.self, from: JSONEncoder().encode(note))
    #expect(cached == note && cached.changedKeys == note.changedKeys)
    #expect(try Record(systemFieldsData: archive) == note.systemFieldsOnly)
    #expect(fromiOS == note.systemFieldsOnly)
    #expect(try Record(cloudKitSystemFieldsArchive: storedData).recordChangeTag == "4")
    #expect(try Record(wireJSON: json) == note)
    #expect(archive.count < 200)
  }

  @Test("a modify request, a conflict reply and an archived token read as Web Services requests and responses shows")
  func webServicesExample() throws {
    let notes = try ZoneID(zoneName: "Notes")
    var note = Record(recordType: "Note", recordID: try RecordID(recordName: "note-1", zoneID: notes))
    note["title"] = "Groceries"
    let reply = Data(#"{"serverErrorCode":"CONFLICT","reason":"record to update has been modified"}"#.utf8)
    let tokenArchive = try Fixtures.data("canopy-server-change-token.bplist")

    let body = try WebServices.Request.modifyRecords(.init(zoneID: notes, operations: [.update(note)])).jsonData()
    let response = try WebServices.Response(json: reply, endpoint: .recordsModify, httpStatus: 409, zone: notes)
    let token = try ServerChangeToken(cloudKitArchive: tokenArchive)  // an archived CKServerChangeToken, read anywhere

    #expect(String(decoding: body, as: UTF8.self).contains(#""operationType":"update""#))
    #expect(response == .error(.init(code: .conflict, reason: "record to update has been modified", httpStatus: 409)))
    #expect(token.data.count == 9)
  }

  @Test("the conflict example runs as written")
  func conflictExample() throws {
    var lastKnown = Record(recordType: "Note", recordID: try RecordID(recordName: "note-1"))
    lastKnown["title"] = "Groceries"
    lastKnown["tags"] = ["home"]
    lastKnown["editCount"] = 1
    lastKnown.recordChangeTag = "t1"
    lastKnown.clearChangedKeys()
    var current = lastKnown
    current["tags"] = ["home", "weekly"]
    current["editCount"] = 2
    current.recordChangeTag = "t2"
    current.clearChangedKeys()
    var attempted = lastKnown
    attempted["title"] = "Groceries for Sunday"
    attempted["tags"] = ["home", "sunday"]
    attempted["editCount"] = 2

    let conflict = Conflict(client: attempted, ancestor: lastKnown, server: current)
    let merge = FieldMerge(.editCount(key: "editCount"), overrides: ["tags": .set(.addWins), "body": .text(.line)])
    let resolved = try merge.resolve(conflict)
    #expect(resolved.recordChangeTag == current.recordChangeTag)
    #expect(resolved.changedKeys == ["title", "tags"])
    #expect(resolved["title"] == "Groceries for Sunday")
    #expect(resolved["tags"] == ["home", "weekly", "sunday"])
  }

  @Test("the schema example runs as written")
  func schemaExample() throws {
    var fetched = Record(recordType: "Note", recordID: try RecordID(recordName: "note-1"))
    fetched["title"] = "Groceries"
    fetched["schemaVersion"] = "1.0.0"
    fetched.clearChangedKeys()
    var stored: [Record] = []
    func store(_ record: Record) { stored.append(record) }

    let v1 = try SchemaVersion("1.0.0")
    let v2 = try SchemaVersion("2.0.0")
    let schema = Schema(
      [
        RecordSchema(
          recordType: "Note", version: v2,
          fields: [
            .init("title", .string, required: true),
            .init("due", .timestamp, required: true, since: v2),
          ])
      ],
      unknownKeys: .preserve,
      futureVersions: .allowNewerMinor,
      migrations: [SchemaMigration(recordType: "Note", from: v1, to: v2) { $0["due"] = .timestamp(.distantFuture) }])

    switch try schema.check(fetched) {
    case .compatible, .newerMinor: store(fetched)
    case .needsMigration: store(try schema.migrate(fetched))
    }
    let resolver = FieldMerge().guarded(by: schema)  // the README guards its merge; any resolver is guarded the same

    #expect(stored.first?["due"] == .timestamp(.distantFuture))
    #expect(stored.first?.changedKeys == ["due", "schemaVersion"])
    #expect(
      try resolver.resolve(Conflict(client: fetched, ancestor: nil, server: fetched)).changedKeys == [
        "due", "schemaVersion",
      ])
  }
}
