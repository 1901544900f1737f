import Foundation
import Reconcile
import ReconcileSimulator
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Simulated server over Web Services bodies", .serialized)
struct WebServicesServerTests {
  static let notes = try! ZoneID(zoneName: "Notes")

  static func client(_ user: String, _ device: String) -> TinyCloudKitClient {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [SimulatorURLProtocol.self]
    return TinyCloudKitClient(
      session: URLSession(configuration: configuration), container: "iCloud.com.example.notes", user: user,
      device: device)
  }

  static func note(_ name: String, _ fields: [String: FieldValue], tag: String? = nil) throws -> Record {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: name, zoneID: notes))
    for (key, value) in fields { record[key] = value }
    record.recordChangeTag = tag
    return record
  }

  @Test(
    "a tiny URLSession client, its HTTP stubbed, creates, conflicts, looks up, merges and saves against the simulator")
  func tinyClientRoundTrip() async throws {
    SimulatorURLProtocol.world.reset()
    let phone = Self.client("_alice", "phone")
    let laptop = Self.client("_alice", "laptop")

    let zone = try await phone.send(.modifyZones(.init(operations: [.create(Self.notes)])))
    #expect(zone.zones?.zones.first?.zoneID == Self.notes)

    let original = try Self.note("n1", ["title": "Hi", "body": "one"])
    let created = try await phone.send(.modifyRecords(.init(zoneID: Self.notes, operations: [.create(original)])))
    let ancestor = try #require(created.records?.records.first)
    let tag = try #require(ancestor.recordChangeTag)
    #expect(ancestor.modifiedByDevice == "phone")

    // The laptop changes the body; the phone, still at the first tag, changes the title.
    var laptopEdit = ancestor
    laptopEdit["body"] = "two"
    let laptopSaved = try await laptop.send(
      .modifyRecords(.init(zoneID: Self.notes, operations: [.update(laptopEdit)])))
    #expect(laptopSaved.records?.errors.isEmpty == true)

    var mine = ancestor
    mine["title"] = "Hello"
    let rejected = try await phone.send(.modifyRecords(.init(zoneID: Self.notes, operations: [.update(mine)])))
    let conflict = try #require(rejected.records?.errors.first)
    #expect(conflict.code == .conflict)
    #expect(conflict.recordName == "n1")

    let lookup = try await phone.send(.lookupRecords(conflict.lookupRequest(for: mine)))
    let merged = try FieldMerge().resolve(
      try conflict.conflict(client: mine, ancestor: ancestor, lookup: try #require(lookup.records)))
    #expect(merged["title"] == "Hello")
    #expect(merged["body"] == "two")
    #expect(merged.recordChangeTag != tag)
    let saved = try await phone.send(.modifyRecords(.init(zoneID: Self.notes, operations: [.update(merged)])))
    #expect(saved.records?.errors.isEmpty == true, "\(saved)")

    let changes = try await laptop.send(.recordChanges(.init(zoneID: Self.notes)))
    let page = try #require(changes.records)
    #expect(page.records.map(\.recordID.recordName) == ["n1"])
    #expect(page.records.first?["title"] == "Hello")
    #expect(page.records.first?["body"] == "two")
    #expect(page.moreComing == false)
    let token = try #require(page.syncToken)
    let nothingNew = try await laptop.send(.recordChanges(.init(zoneID: Self.notes, syncToken: token)))
    #expect(nothingNew.records?.results.isEmpty == true)
  }

  @Test(
    "create, forceUpdate, replace, delete and the failures CloudKit names: EXISTS, reserved names, atomic default zone")
  func operationsAndFailures() throws {
    var server = SimulatedServer()
    let caller = ClientIdentity(userRecordName: "_bob", deviceName: "mac")
    _ = server.respond(to: .modifyZones(.init(operations: [.create(Self.notes)])), database: .private, from: caller)
    func modify(_ operations: [WebServices.RecordOperation], atomic: Bool? = nil) -> WebServices.Response {
      server.respond(
        to: .modifyRecords(.init(zoneID: Self.notes, operations: operations, atomic: atomic)), database: .private,
        from: caller)
    }
    let first = try Self.note("n1", ["title": "a", "tags": .list(["x"])])
    #expect(modify([.create(first)]).records?.errors.isEmpty == true)
    #expect(modify([.create(first)]).records?.errors.first?.code == .exists)
    let reserved = try Self.note("_x", ["title": "a"])
    let refused = try #require(modify([.create(reserved)]).records?.errors.first)
    #expect(refused.code == .badRequest)
    #expect(refused.reason?.contains("names starting with '_' are reserved") == true)

    // forceUpdate ignores a stale tag and changes only the fields given.
    let stale = try Self.note("n1", ["title": "b"], tag: "stale")
    let forced = try #require(modify([.forceUpdate(stale)]).records?.records.first)
    #expect(forced["title"] == "b")
    #expect(forced["tags"] == .list(["x"]))
    // forceReplace removes the fields not given.
    let replaced = try #require(modify([.forceReplace(try Self.note("n1", ["title": "c"]))]).records?.records.first)
    #expect(replaced["title"] == "c")
    #expect(replaced["tags"] == nil)
    // replace compares tags.
    #expect(modify([.replace(stale)]).records?.errors.first?.code == .conflict)

    let deleted = modify([.forceDelete(first.recordID)])
    #expect(deleted.records?.deletedIDs == [first.recordID])

    let inDefault = server.respond(
      to: .modifyRecords(.init(operations: [.create(Record(recordType: "Note"))], atomic: true)), database: .private,
      from: caller)
    guard case .error(let atomic) = inDefault else {
      Issue.record("expected a request-level error: \(inDefault)")
      return
    }
    #expect(atomic.code == .badRequest)
    #expect(atomic.httpStatus == 400)
    #expect(atomic.reason == "atomic operations not supported in default zone")
  }

  @Test("faults reach Web Services callers: a throttle is 503 TRY_AGAIN_LATER with retryAfter, no account is 421")
  func faults() throws {
    var server = SimulatedServer()
    let caller = ClientIdentity(userRecordName: "_bob", deviceName: "mac")
    server.injectFailure(.serviceUnavailable(retryAfter: 30), device: "mac")
    let body = try WebServices.Request.databaseChanges(.init()).jsonData()
    let (status, data) = server.respond(toBody: body, endpoint: .changesDatabase, database: .private, from: caller)
    #expect(status == 503)
    let response = try WebServices.Response(json: data, endpoint: .changesDatabase, httpStatus: status)
    guard case .error(let error) = response else {
      Issue.record("expected an error: \(response)")
      return
    }
    #expect(error.code == .tryAgainLater)
    #expect(error.retryAfter == 30)
    #expect(error.isTransient)

    let anonymous = ClientIdentity(userRecordName: nil, deviceName: "web")
    let note = try Self.note("n1", ["title": "a"])
    let create = try WebServices.Request.modifyRecords(.init(zoneID: Self.notes, operations: [.create(note)]))
      .jsonData()
    let (refused, _) = server.respond(toBody: create, endpoint: .recordsModify, database: .private, from: anonymous)
    #expect(refused == 421)

    let (bad, badBody) = server.respond(
      toBody: Data(#"{"operations":[{"operationType":"explode"}]}"#.utf8), endpoint: .recordsModify, database: .private,
      from: caller)
    #expect(bad == 400)
    #expect(String(decoding: badBody, as: UTF8.self).contains("records/modify request is invalid"))
  }

  @Test("zones list and lookup, queries with filters and markers, and a token the server never issued")
  func zonesAndQueries() throws {
    var server = SimulatedServer()
    let caller = ClientIdentity(userRecordName: "_bob", deviceName: "mac")
    _ = server.respond(to: .modifyZones(.init(operations: [.create(Self.notes)])), database: .private, from: caller)
    let records = try (1...5).map { try Self.note("n\($0)", ["rank": .int64(Int64($0)), "title": .string("t\($0)")]) }
    _ = server.respond(
      to: .modifyRecords(.init(zoneID: Self.notes, operations: records.map { .create($0) })), database: .private,
      from: caller)

    let listed = server.respond(to: .listZones, database: .private, from: caller)
    #expect(listed.zones?.zones.compactMap(\.zoneID) == [.default, Self.notes])
    let looked = server.respond(
      to: .lookupZones(.init(zoneIDs: [Self.notes, try ZoneID(zoneName: "Missing")])), database: .private, from: caller)
    guard case .failed(let missing)? = looked.zones?.zones.last else {
      Issue.record("expected a missing zone")
      return
    }
    #expect(missing.code == .zoneNotFound)

    let query = WebServices.QueryRecordsRequest(
      zoneID: Self.notes,
      query: .init(
        recordType: "Note", filters: [.init(fieldName: "rank", comparator: .greaterThan, fieldValue: .int64(1))],
        sorts: [.init(fieldName: "rank", ascending: false)]), resultsLimit: 2)
    let page1 = try #require(server.respond(to: .queryRecords(query), database: .private, from: caller).records)
    #expect(page1.records.map(\.recordID.recordName) == ["n5", "n4"])
    var next = query
    let marker = try #require(page1.continuationMarker)
    next.continuationMarker = marker
    let page2 = try #require(server.respond(to: .queryRecords(next), database: .private, from: caller).records)
    #expect(page2.records.map(\.recordID.recordName) == ["n3", "n2"])

    let forged = server.respond(
      to: .recordChanges(.init(zoneID: Self.notes, syncToken: "bm9wZQ==")), database: .private, from: caller)
    guard case .error(let error) = forged else {
      Issue.record("expected an error")
      return
    }
    #expect(error.code == .badRequest)
    #expect(error.reason?.contains("syncToken") == true)
  }

  @Test("a shared zone's share record comes back as a share with its participants, to the owner and the participant")
  func shareRecordsOverWebServices() throws {
    var server = SimulatedServer()
    let alice = ClientIdentity(userRecordName: "_alice", deviceName: "mac")
    let bob = ClientIdentity(userRecordName: "_bob", deviceName: "phone")
    _ = server.respond(to: .modifyZones(.init(operations: [.create(Self.notes)])), database: .private, from: alice)
    server.share(Self.notes, ownedBy: "_alice", with: "_bob", permission: .readOnly)
    let mine = try #require(
      server.respond(to: .recordChanges(.init(zoneID: Self.notes)), database: .private, from: alice).records)
    guard case .share(let share)? = mine.results.first else {
      Issue.record("expected the share: \(mine.results)")
      return
    }
    #expect(share.participants.map(\.userIdentity.userRecordName) == ["_alice", "_bob"])
    #expect(share.participants[1].permission == .readOnly)
    let shared = try ZoneID(zoneName: "Notes", ownerName: "_alice")
    let theirs = try #require(
      server.respond(to: .recordChanges(.init(zoneID: shared)), database: .shared, from: bob).records)
    guard case .share(let seen)? = theirs.results.first else {
      Issue.record("expected the share: \(theirs.results)")
      return
    }
    #expect(seen.participants.count == 2)
    #expect(seen.recordID.zoneID == shared)
  }

  @Test("a share saved over the Web Services with participants shares the zone; saving it without one revokes them")
  func sharingOverWebServices() throws {
    var server = SimulatedServer()
    let alice = ClientIdentity(userRecordName: "_alice", deviceName: "mac")
    let bob = ClientIdentity(userRecordName: "_bob", deviceName: "phone")
    _ = server.respond(to: .modifyZones(.init(operations: [.create(Self.notes)])), database: .private, from: alice)
    var share = Share(recordID: try RecordID(recordName: "cloudkit.zoneshare", zoneID: Self.notes), title: "Notes")
    share.participants = [
      .init(
        userIdentity: .init(userRecordName: "_bob"), role: .privateUser, permission: .readWrite,
        acceptanceStatus: .accepted)
    ]
    let request = WebServices.ModifyRecordsRequest(
      zoneID: Self.notes, operations: [.create(share.record)], shares: [share])
    let saved = try #require(server.respond(to: .modifyRecords(request), database: .private, from: alice).records)
    #expect(saved.errors.isEmpty, "\(saved.errors)")
    #expect(server.zoneShare(of: Self.notes, ownedBy: "_alice")?.participants.count == 1)
    let shared = try ZoneID(zoneName: "Notes", ownerName: "_alice")
    let before = try #require(server.respond(to: .databaseChanges(.init()), database: .shared, from: bob).zones)
    #expect(before.zones.compactMap(\.zoneID) == [shared])

    // Alice saves the share again with nobody in it: Bob's feed reports the zone deleted.
    var emptied = try #require(saved.records.first)
    emptied["cloudkit.title"] = "Mine again"
    var empty = share
    empty.participants = []
    let update = WebServices.ModifyRecordsRequest(zoneID: Self.notes, operations: [.update(emptied)], shares: [empty])
    #expect(server.respond(to: .modifyRecords(update), database: .private, from: alice).records?.errors.isEmpty == true)
    let after = try #require(
      server.respond(to: .databaseChanges(.init(syncToken: before.syncToken)), database: .shared, from: bob).zones)
    #expect(after.zones == [.zone(.init(zoneID: shared, deleted: true))])
  }
}
