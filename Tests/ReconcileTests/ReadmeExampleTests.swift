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
    let restored = try Record(systemFieldsData: archive)

    let fromiOS = try Record(cloudKitSystemFieldsArchive: storedData)
    let forApple = try restored.cloudKitSystemFieldsArchive()

    let json = try JSONEncoder().encode(note)
    let decoded = try JSONDecoder().decode(Record.self, from: json)

    #expect(restored == note.systemFieldsOnly)
    #expect(fromiOS.recordChangeTag == "4")
    #expect(try Record(cloudKitSystemFieldsArchive: forApple) == restored)
    #expect(decoded == note)
    #expect(archive.count < 200)
  }
}
