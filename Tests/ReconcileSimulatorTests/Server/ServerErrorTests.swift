import Foundation
import Reconcile
import ReconcileSimulator
import Testing

@Suite("Server: every error it emits")
struct ServerErrorTests {
  @Test("more than 400 items or 2 MB in a request fails with limitExceeded; a record over 1 MB fails on its own")
  func batchLimits() throws {
    var fixture = try ServerFixture()
    let many = try (0..<401).map { try fixture.note("n\($0)") }
    #expect(throws: CloudKitError.self) { try fixture.save(many) }
    do {
      _ = try fixture.save(many)
    } catch {
      #expect(error.code.rawValue == 27)
      #expect(error.description.contains("401 items"))
    }
    let big = String(repeating: "x", count: 700_000)
    let heavy = try (0..<4).map { try fixture.note("h\($0)", ["body": .string(big)]) }
    #expect(throws: CloudKitError.self) { try fixture.save(heavy) }
    let huge = try fixture.note("huge", ["body": .string(String(repeating: "y", count: 1_100_000))])
    let reply = try fixture.save([huge], atomic: false)
    #expect(reply.failures[huge.recordID]?.code.rawValue == 27)
  }

  @Test("under a shrunk request limit, a record alone is never refused for its bytes; two that exceed it together are")
  func recordAloneAlwaysFits() throws {
    var configuration = SimulatedServer.Configuration(throttle: nil, recordsEvents: true)
    configuration.limits.maximumBatchBytes = 400
    var fixture = try ServerFixture(configuration: configuration)
    let text = String(repeating: "x", count: 300)
    let alone = try fixture.note("alone", ["body": .string(String(repeating: "y", count: 900))])
    #expect(try fixture.save([alone]).failures.isEmpty, "a record alone is split no further")
    let pair = try ["a", "b"].map { try fixture.note($0, ["body": .string(text)]) }
    #expect(throws: CloudKitError.self) { try fixture.save(pair) }
  }

  @Test("a record of exactly 1 MB of data is saved; one byte more is limitExceeded naming both sizes, and not stored")
  func oneMegabyteBoundary() throws {
    var fixture = try ServerFixture()
    // The key "body" counts 4 bytes.
    let exact = try fixture.note("exact", ["body": .string(String(repeating: "x", count: Record.maximumDataSize - 4))])
    #expect(exact.dataSize == Record.maximumDataSize)
    #expect(try fixture.save([exact]).failures.isEmpty)
    let over = try fixture.note("over", ["body": .string(String(repeating: "x", count: Record.maximumDataSize - 3))])
    let error = try #require(try fixture.save([over], atomic: false).failures[over.recordID])
    #expect(error.code.rawValue == 27)
    #expect(error.description.contains("1048577 bytes, the limit is 1048576"))
    #expect(fixture.server.records(in: fixture.notes, ownedBy: "_alice").map(\.recordID) == [exact.recordID])
  }

  @Test("in an atomic zone one failure fails its siblings with batchRequestFailed and saves nothing")
  func atomicZone() throws {
    var fixture = try ServerFixture()
    let good = try fixture.note("good")
    var bad = try fixture.note("bad")
    bad.recordChangeTag = "stale"
    let reply = try fixture.save([good, bad])
    #expect(reply.failures[good.recordID] == .batchRequestFailed)
    #expect(reply.failures[bad.recordID] == .unknownItem(bad.recordID))
    #expect(reply.saved.isEmpty)
    #expect(fixture.server.records(in: fixture.notes, ownedBy: "_alice").isEmpty)
  }

  @Test("without atomicity (request or zone) the good items are saved and only the bad one fails")
  func nonAtomic() throws {
    for (capabilities, atomic) in [(ZoneCapabilities.customZone, false), ([.fetchChanges], true)] {
      var fixture = try ServerFixture(capabilities: capabilities)
      let good = try fixture.note("good")
      var bad = try fixture.note("bad")
      bad.recordChangeTag = "stale"
      let reply = try fixture.save([good, bad], atomic: atomic)
      #expect(reply.saved.map(\.recordID) == [good.recordID])
      #expect(reply.failures.keys.sorted() == [bad.recordID])
    }
  }

  @Test("saving one ID twice, or saving and deleting it, is refused with invalidArguments naming it")
  func duplicateItems() throws {
    var fixture = try ServerFixture()
    let note = try fixture.note("n1")
    for attempt in [{ try fixture.save([note, note]) }, { try fixture.save([note], deleting: [note.recordID]) }] {
      do {
        _ = try attempt()
        Issue.record("expected invalidArguments")
      } catch let error as CloudKitError {
        #expect(error.code.rawValue == 12)
        #expect(error.description.contains("n1"))
      }
    }
  }

  @Test("a key saved with another type than first is refused with invalidArguments naming key and types")
  func typeIsFixedByFirstSave() throws {
    var fixture = try ServerFixture()
    _ = try fixture.create(try fixture.note("n1", ["rank": 1]))
    let other = try fixture.note("n2", ["rank": "high"])
    let error = try #require(try fixture.save([other]).failures[other.recordID])
    #expect(error.code.rawValue == 12)
    #expect(error.description.contains("'rank'"))
    #expect(error.description.contains("INT64"))
  }

  @Test("field types are checked whatever keys a record adds or lacks, and an edit adding a key fixes its type")
  func typesCheckedAtAnyPosition() throws {
    var fixture = try ServerFixture()
    // Registered: rank (INT64) and title (STRING); a record that adds keys before them shifts their positions.
    _ = try fixture.create(try fixture.note("n1", ["rank": 1, "title": "a"]))
    let shifted = try fixture.note("n2", ["author": "b", "body": "c", "title": 7])
    let error = try #require(try fixture.save([shifted]).failures[shifted.recordID])
    #expect(error.description.contains("'title'"))
    // A record lacking the first registered key holds title where the table holds rank: it is still title's type.
    let lone = try fixture.note("n5", ["title": 7])
    let loneError = try #require(try fixture.save([lone]).failures[lone.recordID])
    #expect(loneError.description.contains("'title'"))
    // An edit that adds a key (only that key changed) fixes its type for every later save.
    var edited = try fixture.create(try fixture.note("n3", ["title": "a"]))
    edited["zeal"] = 3
    #expect(try fixture.save([edited]).failures.isEmpty)
    let mismatched = try fixture.note("n4", ["zeal": "high"])
    let second = try #require(try fixture.save([mismatched]).failures[mismatched.recordID])
    #expect(second.description.contains("'zeal'"))
  }

  @Test("an encrypted key's type is fixed by its first save too")
  func encryptedTypeIsFixedByFirstSave() throws {
    var fixture = try ServerFixture()
    var first = try fixture.note("n1")
    first.encryptedValues["secret"] = "a"
    _ = try fixture.create(first)
    var other = try fixture.note("n2")
    other.encryptedValues["secret"] = 5
    let error = try #require(try fixture.save([other]).failures[other.recordID])
    #expect(error.description.contains("'secret'"))
  }

  @Test("a production schema refuses unknown types and keys with CloudKit's message")
  func productionSchema() throws {
    let schema: [String: [String: FieldType]] = ["Note": ["title": .string]]
    var fixture = try ServerFixture(configuration: .init(throttle: nil, schemaMode: .production(schema)))
    #expect(try fixture.save([try fixture.note("ok")]).failures.isEmpty)
    let extra = try fixture.note("extra", ["title": "a", "color": "red"])
    let error = try #require(try fixture.save([extra]).failures[extra.recordID])
    #expect(error.description.contains("Cannot create or modify field 'color' in record 'Note' in production schema"))
  }

  @Test("an invalid key is refused with invalidArguments naming it")
  func invalidKey() throws {
    var fixture = try ServerFixture()
    var note = try fixture.note("n1")
    note["_secret"] = "x"
    let error = try #require(try fixture.save([note]).failures[note.recordID])
    #expect(error.code.rawValue == 12)
    #expect(error.description.contains("_secret"))
  }

  @Test("a client creating a record whose name starts with '_' is refused with invalidArguments naming the rule")
  func reservedNameOnCreate() throws {
    var fixture = try ServerFixture()
    let note = try fixture.note("_x")
    let error = try #require(try fixture.save([note]).failures[note.recordID])
    #expect(error.code.rawValue == 12)
    #expect(error.description.contains("cannot create record _x"))
    #expect(error.description.contains("names starting with '_' are reserved"))
    let fine = try fixture.note("x")
    #expect(try fixture.save([fine]).failures.isEmpty)
  }

  @Test("a sync engine delegate is handed the server's error as CloudKit reports it: code, delay, conflict, items")
  func cloudKitErrors() throws {
    let id = try RecordID(recordName: "n")
    var client = Record(recordType: "Note", recordID: id)
    client["title"] = .string("mine")
    var server = client
    server["title"] = .string("theirs")
    server.recordChangeTag = "t2"
    let changed = CloudKitError.serverRecordChanged(client: client, ancestor: nil, server: server).asReported
    #expect(changed.code == .serverRecordChanged)
    #expect(changed.conflict == Conflict(client: client, ancestor: nil, server: server))
    let busy = CloudKitError.zoneBusy(retryAfter: 5).asReported
    #expect(busy.code == .zoneBusy && busy.retryAfter == 5 && busy.isTransient)
    let partial = CloudKitError.partialFailure([id: .unknownItem(id)]).asReported
    #expect(partial.partialErrors[id]?.code == .unknownItem)
    #expect(CloudKitError.zoneNotFound(id.zoneID).asReported.message?.contains("zoneNotFound (26)") == true)
  }

  @Test("simulator errors read the same in localizedDescription as in description")
  func localizedDescriptions() throws {
    var errors: [any Error & CustomStringConvertible] = [
      CloudKitError.zoneBusy(retryAfter: 5), DeviceError.bookkeeping(try RecordID(recordName: "n"), "broken"),
    ]
    do {
      _ = try SimulationScript.parse("explode everything")
    } catch {
      errors.append(error)
    }
    #expect(errors.count == 3)
    for error in errors { #expect(error.localizedDescription == error.description, "\(type(of: error))") }
  }

  @Test("no account: notAuthenticated on private, shared and public writes; public reads work")
  func noAccount() throws {
    var fixture = try ServerFixture()
    let anonymous = fixture.anonymous
    #expect(throws: CloudKitError.notAuthenticated) { try fixture.save([try fixture.note("n1")], as: anonymous) }
    var poster = Record(recordType: "Poster", recordID: try RecordID(recordName: "p1"))
    poster["title"] = "hi"
    #expect(throws: CloudKitError.notAuthenticated) { try fixture.save([poster], as: anonymous, scope: .public) }
    #expect(throws: CloudKitError.notAuthenticated) {
      try fixture.server.fetchZoneChanges(ZoneChangesRequest(scope: .shared, zoneID: fixture.notes), as: anonymous)
    }
    _ = try fixture.save([poster], scope: .public)
    let read = try fixture.server.query(
      QueryRequest(scope: .public, query: Query(recordType: "Poster")), as: anonymous)
    #expect(read.records.map(\.recordID) == [poster.recordID])
  }

  @Test("another user's private zone is unreachable with permissionFailure")
  func otherUsersPrivateDatabase() throws {
    var fixture = try ServerFixture()
    let aliceZone = try ZoneID(zoneName: "Notes", ownerName: "_alice")
    let spy = Record(recordType: "Note", recordID: try RecordID(recordName: "n1", zoneID: aliceZone))
    let error = try #require(try fixture.save([spy], as: fixture.bob).failures[spy.recordID])
    #expect(error.code.rawValue == 10)
    #expect(throws: CloudKitError.self) {
      try fixture.server.fetchZoneChanges(ZoneChangesRequest(zoneID: aliceZone), as: fixture.bob)
    }
  }

  @Test("a read-only participant reads a shared zone but cannot write; read-write can")
  func sharedZonePermissions() throws {
    var fixture = try ServerFixture()
    _ = try fixture.create(try fixture.note("n1", ["title": "shared"]))
    let shared = try ZoneID(zoneName: "Notes", ownerName: "_alice")
    fixture.server.share(fixture.notes, ownedBy: "_alice", with: "_bob", permission: .readOnly)
    let changes = try fixture.server.fetchZoneChanges(
      ZoneChangesRequest(scope: .shared, zoneID: shared), as: fixture.bob)
    let seen = try #require(changes.changed.first)
    #expect(seen.recordID.zoneID == shared)
    #expect(seen["title"] == "shared")
    var edit = seen
    edit["title"] = "bob was here"
    let refused = try fixture.save([edit], as: fixture.bob, scope: .shared)
    #expect(refused.failures[edit.recordID]?.code.rawValue == 10)
    fixture.server.share(fixture.notes, ownedBy: "_alice", with: "_bob", permission: .readWrite)
    let accepted = try fixture.save([edit], as: fixture.bob, scope: .shared)
    #expect(accepted.failures.isEmpty)
    #expect(
      fixture.server.records(in: fixture.notes, ownedBy: "_alice").first { $0.recordType == "Note" }?["title"]
        == "bob was here")
  }

  @Test("public records can be modified and deleted only by their creator")
  func publicCreatorOnly() throws {
    var fixture = try ServerFixture()
    var poster = Record(recordType: "Poster", recordID: try RecordID(recordName: "p1"))
    poster["title"] = "mine"
    let saved = try #require(try fixture.save([poster], scope: .public).saved.first)
    var stolen = saved
    stolen["title"] = "yours"
    #expect(try fixture.save([stolen], as: fixture.bob, scope: .public).failures[saved.recordID]?.code.rawValue == 10)
    #expect(
      try fixture.save([], deleting: [saved.recordID], as: fixture.bob, scope: .public).failures[saved.recordID]?.code
        .rawValue == 10)
  }

  @Test("zones can be created only in the private database: badDatabase elsewhere; no change feeds on public")
  func badDatabase() throws {
    var fixture = try ServerFixture()
    let zone = RecordZone(zoneID: try ZoneID(zoneName: "Mine"))
    for scope in [DatabaseScope.public, .shared] {
      #expect(throws: CloudKitError.self) {
        try fixture.server.modifyZones(ModifyZonesRequest(scope: scope, saving: [zone]), as: fixture.alicePhone)
      }
    }
    do {
      _ = try fixture.server.fetchZoneChanges(
        ZoneChangesRequest(scope: .public, zoneID: .default), as: fixture.alicePhone)
      Issue.record("expected badDatabase")
    } catch {
      #expect(error.code.rawValue == 24)
    }
  }

  @Test("a full quota fails saves with quotaExceeded")
  func quota() throws {
    var fixture = try ServerFixture()
    fixture.server.setQuotaExceeded(true, for: "_alice")
    #expect(throws: CloudKitError.quotaExceeded) { try fixture.save([try fixture.note("n1")]) }
  }

  @Test("injected transient errors come back with their retry-after, for the chosen device only")
  func injectedErrors() throws {
    var fixture = try ServerFixture()
    fixture.server.injectFailure(.zoneBusy(retryAfter: 5), count: 2, device: "phone")
    #expect(throws: CloudKitError.zoneBusy(retryAfter: 5)) { try fixture.save([try fixture.note("n1")]) }
    #expect(try fixture.save([try fixture.note("n2")], as: fixture.aliceMac).failures.isEmpty)
    let again = try fixture.note("n1")
    do {
      _ = try fixture.save([again])
    } catch {
      #expect(error.retryAfter == 5)
      #expect(error.isTransient)
    }
    #expect(try fixture.save([try fixture.note("n1")]).failures.isEmpty)
  }

  @Test("throttling arrives as serviceUnavailable with retry-after, harsher after bad requests")
  func throttling() throws {
    let policy = SimulatedServer.ThrottlePolicy(burst: 3, refillPerSecond: 1)
    var fixture = try ServerFixture(configuration: .init(throttle: policy))
    var waits: [TimeInterval] = []
    for index in 0..<4 {
      let note = try fixture.note("n\(index)")
      do { _ = try fixture.save([note]) } catch { waits.append(error.retryAfter ?? -1) }
    }
    let calmWait = try #require(waits.first)
    #expect(calmWait > 0)
    fixture.server.advanceClock(by: 60)
    for _ in 0..<3 {
      _ = try? fixture.server.modifyZones(
        ModifyZonesRequest(scope: .public, saving: [RecordZone(zoneID: fixture.notes)]), as: fixture.alicePhone)
    }
    var harsher: TimeInterval = 0
    let after = try fixture.note("after")
    do { _ = try fixture.save([after]) } catch { harsher = error.retryAfter ?? 0 }
    #expect(harsher > calmWait, "after bad requests the wait grows: \(harsher) vs \(calmWait)")
    fixture.server.throttle(for: 30)
    #expect(throws: CloudKitError.serviceUnavailable(retryAfter: 30)) { try fixture.save([]) }
  }

  @Test("deleting a missing record succeeds; deleteSelf references cascade")
  func deletes() throws {
    var fixture = try ServerFixture()
    let missing = try fixture.id("ghost")
    #expect(try fixture.save([], deleting: [missing]).deleted == [missing])
    let list = try fixture.create(try fixture.note("list"))
    let item = try fixture.create(
      try fixture.note("item", ["list": .reference(Reference(recordID: list.recordID, action: .deleteSelf))]))
    let sub = try fixture.create(
      try fixture.note("sub", ["owner": .reference(Reference(recordID: item.recordID, action: .deleteSelf))]))
    let keep = try fixture.create(
      try fixture.note("keep", ["list": .reference(Reference(recordID: list.recordID, action: .none))]))
    let reply = try fixture.save([], deleting: [list.recordID])
    #expect(Set(reply.deleted) == [list.recordID, item.recordID, sub.recordID])
    #expect(fixture.server.records(in: fixture.notes, ownedBy: "_alice").map(\.recordID) == [keep.recordID])
  }

  @Test("a record saved again without its deleteSelf reference, or deleted, no longer goes with the target")
  func cascadeFollowsTheCurrentVersion() throws {
    var fixture = try ServerFixture()
    let list = try fixture.create(try fixture.note("list"))
    var item = try fixture.create(
      try fixture.note("item", ["list": .reference(Reference(recordID: list.recordID, action: .deleteSelf))]))
    let gone = try fixture.create(
      try fixture.note("gone", ["list": .reference(Reference(recordID: list.recordID, action: .deleteSelf))]))
    item["list"] = nil
    item = try #require(try fixture.save([item]).saved.first)
    _ = try fixture.save([], deleting: [gone.recordID])
    let again = try fixture.create(try fixture.note("gone"))
    let reply = try fixture.save([], deleting: [list.recordID])
    #expect(reply.deleted == [list.recordID])
    #expect(
      fixture.server.records(in: fixture.notes, ownedBy: "_alice").map(\.recordID) == [again.recordID, item.recordID])
  }

  @Test("errors carry CloudKit's codes and names")
  func codes() {
    let id = RecordID()
    let table: [(CloudKitError, Int, String)] = [
      (.internalError("x"), 1, "internalError"), (.partialFailure([:]), 2, "partialFailure"),
      (.networkUnavailable, 3, "networkUnavailable"), (.networkFailure(retryAfter: nil), 4, "networkFailure"),
      (.serviceUnavailable(retryAfter: 1), 6, "serviceUnavailable"),
      (.requestRateLimited(retryAfter: 1), 7, "requestRateLimited"),
      (.notAuthenticated, 9, "notAuthenticated"), (.permissionFailure(reason: ""), 10, "permissionFailure"),
      (.unknownItem(id), 11, "unknownItem"), (.invalidArguments(reason: ""), 12, "invalidArguments"),
      (.serverRejectedRequest(reason: ""), 15, "serverRejectedRequest"),
      (.incompatibleVersion, 18, "incompatibleVersion"),
      (.constraintViolation(reason: ""), 19, "constraintViolation"), (.changeTokenExpired, 21, "changeTokenExpired"),
      (.batchRequestFailed, 22, "batchRequestFailed"), (.zoneBusy(retryAfter: 1), 23, "zoneBusy"),
      (.badDatabase(reason: ""), 24, "badDatabase"), (.quotaExceeded, 25, "quotaExceeded"),
      (.zoneNotFound(.default), 26, "zoneNotFound"), (.limitExceeded(reason: ""), 27, "limitExceeded"),
      (.userDeletedZone(.default), 28, "userDeletedZone"), (.referenceViolation(id), 31, "referenceViolation"),
      (.serverResponseLost, 34, "serverResponseLost"),
      (.accountTemporarilyUnavailable(retryAfter: 1), 36, "accountTemporarilyUnavailable"),
    ]
    for (error, code, name) in table {
      #expect(error.code.rawValue == code)
      #expect(error.code.name == name)
      #expect(error.traceText.hasPrefix("\(name) (\(code))"))
    }
  }
}
