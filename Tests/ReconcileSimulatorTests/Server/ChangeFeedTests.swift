import Foundation
import Reconcile
import ReconcileSimulator
import Testing

@Suite("Server: change feeds, fetches and queries")
struct ChangeFeedTests {
  private func changes(
    _ fixture: inout ServerFixture,
    since token: ZoneChangeToken?,
    limit: Int? = nil,
    keys: [String]? = nil
  ) throws -> ZoneChanges {
    try fixture.server.fetchZoneChanges(
      ZoneChangesRequest(zoneID: fixture.notes, since: token, resultsLimit: limit, desiredKeys: keys),
      as: fixture.aliceMac)
  }

  @Test("a record changed many times since the token comes once, in its latest state; deletions with ID and type")
  func coalescesToLatestState() throws {
    var fixture = try ServerFixture()
    let start = try changes(&fixture, since: nil).token
    var note = try fixture.create(try fixture.note("n1"))
    for title in ["b", "c", "d"] {
      note["title"] = .string(title)
      note = try #require(try fixture.save([note]).saved.first)
    }
    let gone = try fixture.create(try fixture.note("gone"))
    _ = try fixture.save([], deleting: [gone.recordID])
    let page = try changes(&fixture, since: start)
    #expect(page.changed.map(\.recordID) == [note.recordID])
    #expect(page.changed.first?["title"] == "d")
    #expect(page.deleted == [DeletedRecord(recordID: gone.recordID, recordType: "Note")])
    #expect(!page.moreComing)
    let after = try changes(&fixture, since: page.token)
    #expect(after.changed.isEmpty && after.deleted.isEmpty)
  }

  @Test("resultsLimit pages the feed with moreComing; following the tokens yields every change once")
  func pagesWithMoreComing() throws {
    var fixture = try ServerFixture()
    for index in 0..<25 { _ = try fixture.create(try fixture.note("n\(index)")) }
    var token: ZoneChangeToken?
    var seen: [RecordID] = []
    var pages = 0
    repeat {
      let page = try changes(&fixture, since: token, limit: 10)
      seen += page.changed.map(\.recordID)
      token = page.token
      pages += 1
      if !page.moreComing { break }
    } while pages < 10
    #expect(pages == 3)
    #expect(Set(seen).count == 25)
    #expect(seen.count == 25)
  }

  @Test("desiredKeys trims values; [] gives system fields only")
  func desiredKeys() throws {
    var fixture = try ServerFixture()
    _ = try fixture.create(try fixture.note("n1", ["title": "a", "body": "b"]))
    let some = try #require(try changes(&fixture, since: nil, keys: ["title"]).changed.first)
    #expect(some.allKeys == ["title"])
    let none = try #require(try changes(&fixture, since: nil, keys: []).changed.first)
    #expect(none.allKeys.isEmpty)
    #expect(none.recordChangeTag != nil)
  }

  @Test("expired tokens fail with changeTokenExpired; nil still returns every live record")
  func tokenExpiry() throws {
    var fixture = try ServerFixture()
    let kept = try fixture.create(try fixture.note("kept"))
    let old = try changes(&fixture, since: nil).token
    let gone = try fixture.create(try fixture.note("gone"))
    _ = try fixture.save([], deleting: [gone.recordID])
    fixture.server.expireChangeTokens(in: fixture.notes, ownedBy: "_alice")
    #expect(throws: CloudKitError.changeTokenExpired) { try changes(&fixture, since: old) }
    let fresh = try changes(&fixture, since: nil)
    #expect(fresh.changed.map(\.recordID) == [kept.recordID])
    #expect(fresh.deleted.isEmpty)
    let current = try #require(fixture.server.currentChangeToken(for: fixture.notes, ownedBy: "_alice"))
    #expect(try changes(&fixture, since: current).changed.isEmpty)
  }

  @Test("re-creating a deleted zone expires its old tokens")
  func recreatedZoneExpiresTokens() throws {
    var fixture = try ServerFixture()
    _ = try fixture.create(try fixture.note("n1"))
    let token = try changes(&fixture, since: nil).token
    fixture.server.deleteZone(fixture.notes, ownedBy: "_alice")
    #expect(throws: CloudKitError.zoneNotFound(fixture.notes)) { try changes(&fixture, since: token) }
    _ = try fixture.server.modifyZones(
      ModifyZonesRequest(saving: [RecordZone(zoneID: fixture.notes)]), as: fixture.alicePhone)
    #expect(throws: CloudKitError.changeTokenExpired) { try changes(&fixture, since: token) }
  }

  @Test("the database feed reports changed, deleted and purged zones")
  func databaseChanges() throws {
    var fixture = try ServerFixture()
    let first = try fixture.server.fetchDatabaseChanges(DatabaseChangesRequest(), as: fixture.aliceMac)
    #expect(first.changedZones == [fixture.notes])
    let other = try ZoneID(zoneName: "Other")
    _ = try fixture.server.modifyZones(ModifyZonesRequest(saving: [RecordZone(zoneID: other)]), as: fixture.alicePhone)
    fixture.server.deleteZone(fixture.notes, ownedBy: "_alice")
    var next = try fixture.server.fetchDatabaseChanges(DatabaseChangesRequest(since: first.token), as: fixture.aliceMac)
    #expect(next.changedZones == [other])
    #expect(next.deletedZones == [fixture.notes])
    fixture.server.userDeletesZone(other, ownedBy: "_alice")
    next = try fixture.server.fetchDatabaseChanges(DatabaseChangesRequest(since: next.token), as: fixture.aliceMac)
    #expect(next.purgedZones == [other])
  }

  @Test("fetch by IDs returns found records with desiredKeys and unknownItem for the rest")
  func fetchByIDs() throws {
    var fixture = try ServerFixture()
    let note = try fixture.create(try fixture.note("n1", ["title": "a", "body": "b"]))
    let missing = try fixture.id("missing")
    let reply = try fixture.server.fetchRecords(
      FetchRecordsRequest(recordIDs: [note.recordID, missing], desiredKeys: ["body"]), as: fixture.aliceMac)
    #expect(reply.records.map(\.allKeys) == [["body"]])
    #expect(reply.failures == [missing: .unknownItem(missing)])
  }

  @Test("queries filter with =, <, BEGINSWITH, IN, AND, NOT; sort; page with cursors")
  func queries() throws {
    var fixture = try ServerFixture()
    for index in 0..<10 {
      _ = try fixture.create(
        try fixture.note(
          "n\(index)",
          ["rank": .int64(Int64(index)), "title": .string(index.isMultiple(of: 2) ? "even\(index)" : "odd\(index)")]))
    }
    func run(
      _ predicate: QueryPredicate, sort: [QuerySort] = [QuerySort("rank")], limit: Int? = nil,
      cursor: QueryCursor? = nil
    )
      throws -> QueryReply
    {
      try fixture.server.query(
        QueryRequest(
          zoneID: fixture.notes, query: Query(recordType: "Note", predicate: predicate, sortedBy: sort),
          resultsLimit: limit, cursor: cursor), as: fixture.aliceMac)
    }
    func ranks(_ reply: QueryReply) -> [FieldValue?] { reply.records.map { $0["rank"] } }
    #expect(ranks(try run(.equals("rank", 3))) == [3])
    #expect(ranks(try run(.lessThan("rank", 3))) == [0, 1, 2])
    #expect(ranks(try run(.greaterThanOrEqual("rank", 8.5))) == [9])
    #expect(
      ranks(try run(.beginsWith("title", "odd"), sort: [QuerySort("rank", ascending: false)])) == [9, 7, 5, 3, 1])
    #expect(ranks(try run(.isIn("rank", [1, 4, 42]))) == [1, 4])
    #expect(ranks(try run(.and([.greaterThan("rank", 2), .not(.beginsWith("title", "even"))]))) == [3, 5, 7, 9])
    let first = try run(.all, limit: 4)
    #expect(ranks(first) == [0, 1, 2, 3])
    let cursor = try #require(first.cursor)
    let second = try run(.all, limit: 4, cursor: cursor)
    #expect(ranks(second) == [4, 5, 6, 7])
    let secondCursor = try #require(second.cursor)
    let last = try run(.all, limit: 4, cursor: secondCursor)
    #expect(ranks(last) == [8, 9])
    #expect(last.cursor == nil)
    #expect(throws: CloudKitError.self) { try run(.equals("rank", 1), cursor: cursor) }
  }

  @Test("a query on an encrypted field is refused with invalidArguments")
  func encryptedFieldsCannotBeQueried() throws {
    var fixture = try ServerFixture()
    var secret = try fixture.note("n1")
    secret.encryptedValues["pin"] = "1234"
    _ = try fixture.create(secret)
    #expect(throws: CloudKitError.self) {
      try fixture.server.query(
        QueryRequest(zoneID: fixture.notes, query: Query(recordType: "Note", predicate: .equals("pin", "1234"))),
        as: fixture.aliceMac)
    }
  }
}
