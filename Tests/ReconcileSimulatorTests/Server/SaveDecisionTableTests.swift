import Foundation
import Reconcile
import ReconcileSimulator
import Testing

@Suite("Server: the save decision table")
struct SaveDecisionTableTests {
  @Test("a new record without a tag is created with a tag, dates, creator and device")
  func createsNewRecord() throws {
    var fixture = try ServerFixture()
    fixture.server.advanceClock(by: 10)
    let saved = try fixture.create(try fixture.note("n1"))
    #expect(saved.recordChangeTag != nil)
    #expect(saved.creationDate == fixture.server.now)
    #expect(saved.modificationDate == fixture.server.now)
    #expect(saved.creatorUserRecordName == "_alice")
    #expect(saved.lastModifiedUserRecordName == "_alice")
    #expect(saved.modifiedByDevice == "phone")
    #expect(saved.changedKeys.isEmpty)
    #expect(saved["title"] == "a")
  }

  @Test("a matching tag applies the change with a new tag, date and last modifier")
  func matchingTagApplies() throws {
    var fixture = try ServerFixture()
    var record = try fixture.create(try fixture.note("n1"))
    fixture.server.advanceClock(by: 5)
    record["title"] = "b"
    let reply = try fixture.save([record], as: fixture.aliceMac)
    let saved = try #require(reply.saved.first)
    #expect(saved.recordChangeTag != record.recordChangeTag)
    #expect(saved.modificationDate == fixture.server.now)
    #expect(saved.creationDate == record.creationDate)
    #expect(saved.modifiedByDevice == "mac")
    #expect(saved["title"] == "b")
  }

  @Test("a stale tag fails with serverRecordChanged carrying client, ancestor and server")
  func staleTagConflicts() throws {
    var fixture = try ServerFixture()
    let base = try fixture.create(try fixture.note("n1"))
    var first = base
    first["title"] = "first"
    let server = try #require(try fixture.save([first]).saved.first)
    var second = base
    second["title"] = "second"
    let reply = try fixture.save([second])
    guard let failure = reply.failures[base.recordID], failure.code == .serverRecordChanged,
      let client = failure.clientRecord
    else {
      Issue.record("expected serverRecordChanged, got \(reply.failures)")
      return
    }
    let (ancestor, current) = (failure.ancestorRecord, failure.serverRecord)
    #expect(client["title"] == "second")
    #expect(ancestor == base)
    #expect(current == server)
    #expect(reply.partialFailure?.code == .partialFailure)
  }

  @Test("a record without a tag whose ID exists fails with serverRecordChanged and no ancestor")
  func taglessExistingConflicts() throws {
    var fixture = try ServerFixture()
    let server = try fixture.create(try fixture.note("n1"))
    let reply = try fixture.save([try fixture.note("n1", ["title": "other"])])
    guard let failure = reply.failures[server.recordID], failure.code == .serverRecordChanged else {
      Issue.record("expected serverRecordChanged, got \(reply.failures)")
      return
    }
    let (ancestor, current) = (failure.ancestorRecord, failure.serverRecord)
    #expect(ancestor == nil)
    #expect(current == server)
  }

  @Test("a tagged record that is gone from the server fails with unknownItem")
  func goneRecordIsUnknown() throws {
    var fixture = try ServerFixture()
    var record = try fixture.create(try fixture.note("n1"))
    _ = try fixture.save([], deleting: [record.recordID])
    record["title"] = "late"
    let reply = try fixture.save([record])
    #expect(reply.failures[record.recordID] == .unknownItem(record.recordID))
  }

  @Test("a save into a missing zone fails with zoneNotFound; after a purge with userDeletedZone")
  func missingZone() throws {
    var fixture = try ServerFixture()
    let elsewhere = try ZoneID(zoneName: "Elsewhere")
    let stray = Record(recordType: "Note", recordID: try fixture.id("n1", in: elsewhere))
    #expect(try fixture.save([stray]).failures[stray.recordID] == .zoneNotFound(elsewhere))
    fixture.server.userDeletesZone(fixture.notes, ownedBy: "_alice")
    let note = try fixture.note("n2")
    #expect(try fixture.save([note]).failures[note.recordID] == .userDeletedZone(fixture.notes))
  }

  @Test("a parent that does not exist fails with referenceViolation; one in the same batch is fine")
  func parentMustExist() throws {
    var fixture = try ServerFixture()
    var child = try fixture.note("child")
    child.parent = Reference(recordID: try fixture.id("folder"))
    #expect(try fixture.save([child]).failures[child.recordID] == .referenceViolation(try fixture.id("folder")))
    let folder = try fixture.note("folder")
    let reply = try fixture.save([child, folder])
    #expect(reply.failures.isEmpty)
    #expect(reply.saved.count == 2)
  }

  @Test("changedKeys and allKeys overwrite without comparing tags", arguments: [SavePolicy.changedKeys, .allKeys])
  func taglessPoliciesOverwrite(policy: SavePolicy) throws {
    var fixture = try ServerFixture()
    let base = try fixture.create(try fixture.note("n1", ["title": "a", "body": "x"]))
    var first = base
    first["title"] = "first"
    _ = try fixture.save([first])
    var stale = base
    stale["title"] = "stale"
    let reply = try fixture.save([stale], policy: policy)
    #expect(reply.failures.isEmpty)
    #expect(reply.saved.first?["title"] == "stale")
    #expect(reply.saved.first?["body"] == "x")
  }

  @Test("the server merges per key: keys not sent keep their server values; nil removes")
  func mergesPerKey() throws {
    var fixture = try ServerFixture()
    let base = try fixture.create(try fixture.note("n1", ["title": "a", "body": "x", "tags": ["t"]]))
    var fetched = base
    fetched.clearChangedKeys()
    fetched["body"] = nil
    let saved = try #require(try fixture.save([fetched]).saved.first)
    #expect(saved["title"] == "a")
    #expect(saved["tags"] == ["t"])
    #expect(saved["body"] == nil)
  }

  @Test("change tags are unique across records and saves")
  func tagsAreUnique() throws {
    var fixture = try ServerFixture()
    var tags = Set<String>()
    for index in 0..<50 {
      let saved = try fixture.create(try fixture.note("n\(index)"))
      tags.insert(try #require(saved.recordChangeTag))
    }
    #expect(tags.count == 50)
    #expect(fixture.server.changeTagsIssued == 50)
  }
}
