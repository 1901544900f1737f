import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport
import Testing

/// Random multi-user workloads against the server: three users with private zones, random shares (none, read-only,
/// read-write) and public records by different creators, and a stream of reads and writes from every user and from a
/// device without an account, aimed at every database. A simple model of who may do what predicts each outcome:
///
/// - a request the model forbids gets the error CloudKit gives (`notAuthenticated`, `permissionFailure` or
///   `badDatabase`), returns no record, and leaves every database exactly as it was;
/// - a request the model allows never gets one of those errors, reads only records of zones its user may read, and
///   writes only the zone it named.
@Suite("Security: nobody reaches records they have no right to")
struct AccessControlPropertyTests {
  static let users = ["_alice", "_bob", "_carol"]
  static let zoneNames = ["Z0", "Z1"]

  enum Operation: CaseIterable { case edit, create, delete, fetch, fetchChanges, query }

  /// Where a request aims: a private zone of `owner`, or the public database.
  enum Target: Hashable, CustomStringConvertible {
    case zone(owner: String, name: String)
    case publicDatabase
    var description: String {
      switch self {
      case .zone(let owner, let name): "\(owner)/\(name)"
      case .publicDatabase: "public"
      }
    }
  }

  enum Expected: Equatable {
    case allowed
    case denied(String)
  }

  struct World {
    var server = SimulatedServer(configuration: .init(throttle: nil))
    var shares: [Target: [String: SharePermission]] = [:]
    var publicCreators: [String: String] = [:]

    /// Every database's records, by zone: what must not change when a request is refused.
    func snapshot() -> [Target: [Record]] {
      var all: [Target: [Record]] = [.publicDatabase: server.records(in: .default, ownedBy: nil)]
      for user in AccessControlPropertyTests.users {
        for zone in server.zones(ownedBy: user) {
          all[.zone(owner: user, name: zone.zoneID.zoneName)] = server.records(in: zone.zoneID, ownedBy: user)
        }
      }
      return all
    }

    /// Whether `user` may read records of `target`.
    func mayRead(_ target: Target, as user: String?, scope: DatabaseScope) -> Bool {
      switch target {
      case .publicDatabase: return scope == .public
      case .zone(let owner, _):
        guard let user else { return false }
        return scope == .private ? owner == user : owner != user && shares[target]?[user] != nil
      }
    }
  }

  static func makeWorld(_ random: inout SeededRandom) throws -> World {
    var world = World()
    for user in users {
      let client = ClientIdentity(userRecordName: user, deviceName: "setup")
      for name in zoneNames {
        let zone = try ZoneID(zoneName: name)
        _ = try world.server.modifyZones(ModifyZonesRequest(saving: [RecordZone(zoneID: zone)]), as: client)
        let records = try (0..<3).map { i in
          var r = Record(recordType: "Note", recordID: try RecordID(recordName: "r\(i)", zoneID: zone))
          r["title"] = .string("\(user) \(name) \(i)")
          r.encryptedValues["secret"] = .string("secret of \(user)")
          return r
        }
        _ = try world.server.modifyRecords(ModifyRecordsRequest(saving: records), as: client)
        for other in users where other != user {
          let permission = [nil, SharePermission.readOnly, .readWrite][Int(random.next() % 3)]
          world.server.share(zone, ownedBy: user, with: other, permission: permission)
          world.shares[.zone(owner: user, name: name), default: [:]][other] = permission
        }
      }
      var poster = Record(recordType: "Poster", recordID: try RecordID(recordName: "p-\(user)"))
      poster["title"] = .string("by \(user)")
      _ = try world.server.modifyRecords(ModifyRecordsRequest(scope: .public, saving: [poster]), as: client)
      world.publicCreators[poster.recordID.recordName] = user
    }
    return world
  }

  /// What the model says of `operation` by `user` on `target` through `scope`.
  static func expected(
    _ operation: Operation, target: Target, scope: DatabaseScope, user: String?, world: World, recordName: String
  ) -> Expected {
    let writes = [.edit, .create, .delete].contains(operation)
    switch target {
    case .publicDatabase:
      if writes, user == nil { return .denied("notAuthenticated") }
      if writes, let creator = world.publicCreators[recordName], creator != user {
        return .denied("permissionFailure")
      }
      return .allowed
    case .zone(let owner, _):
      guard let user else { return .denied("notAuthenticated") }
      switch scope {
      case .private:
        return owner == user ? .allowed : .denied("permissionFailure")
      case .shared:
        if owner == user { return .denied("badDatabase") }
        guard let permission = world.shares[target]?[user] else { return .denied("permissionFailure") }
        return writes && permission == .readOnly ? .denied("permissionFailure") : .allowed
      case .public:
        return .allowed  // not generated
      }
    }
  }

  @Test("random requests by every user: forbidden ones fail with the right error and change nothing")
  func randomWorkloads() throws {
    for seed in TestSeeds.seeds(1...40) {
      var random = SeededRandom(seed: seed)
      var world = try Self.makeWorld(&random)
      var denied = 0
      var allowed = 0
      for step in 0..<150 {
        let context = "seed \(seed), step \(step); " + TestSeeds.replay(seed, test: "AccessControlPropertyTests")
        try run(&world, &random, context: context, denied: &denied, allowed: &allowed)
      }
      // Each seed must exercise both sides of the model, or it proves nothing.
      #expect(denied > 10 && allowed > 10, "seed \(seed): \(denied) denied, \(allowed) allowed")
    }
  }

  private func pick<T>(_ items: [T], _ random: inout SeededRandom) -> T {
    items[Int(random.next() % UInt64(items.count))]
  }

  private func run(
    _ world: inout World, _ random: inout SeededRandom, context: String, denied: inout Int, allowed: inout Int
  ) throws {
    let user: String? = random.next() % 8 == 0 ? nil : pick(Self.users, &random)
    let client = ClientIdentity(userRecordName: user, deviceName: "device")
    let target: Target =
      random.next() % 4 == 0
      ? .publicDatabase : .zone(owner: pick(Self.users, &random), name: pick(Self.zoneNames, &random))
    var operation = pick(Operation.allCases, &random)
    let scope: DatabaseScope
    let zoneID: ZoneID
    let recordName: String
    switch target {
    case .publicDatabase:
      scope = .public
      zoneID = .default
      if operation == .fetchChanges { operation = .fetch }  // the public database has no change feed
      recordName =
        operation == .create
        ? "p-new-\(random.next() % 1000)" : pick(Array(world.publicCreators.keys).sorted() + ["p-none"], &random)
    case .zone(let owner, let name):
      scope = random.next() % 2 == 0 ? .private : .shared
      // A client names its own private zones with the default owner, anyone else's with the owner's name.
      zoneID = try ZoneID(
        zoneName: name,
        ownerName: owner == user && scope == .private && random.next() % 2 == 0 ? ZoneID.defaultOwnerName : owner)
      recordName = operation == .create ? "new-\(random.next() % 1000)" : "r\(random.next() % 3)"
    }
    let recordID = try RecordID(recordName: recordName, zoneID: zoneID)
    let expected = Self.expected(
      operation, target: target, scope: scope, user: user, world: world, recordName: recordName)
    let before = world.snapshot()
    let label = "\(user ?? "no account") \(operation) \(recordName) in \(target) via \(scope) [\(context)]"

    var returned: [Record] = []
    var failure: CloudKitError?
    do {
      switch operation {
      case .edit, .create:
        var record = Record(recordType: target == .publicDatabase ? "Poster" : "Note", recordID: recordID)
        record["title"] = .string("written by \(user ?? "nobody")")
        let reply = try world.server.modifyRecords(
          ModifyRecordsRequest(scope: scope, saving: [record], savePolicy: .allKeys, isAtomic: false), as: client)
        failure = reply.failures[recordID]
        returned = reply.saved
      case .delete:
        let reply = try world.server.modifyRecords(
          ModifyRecordsRequest(scope: scope, deleting: [recordID], isAtomic: false), as: client)
        failure = reply.failures[recordID]
      case .fetch:
        let reply = try world.server.fetchRecords(FetchRecordsRequest(scope: scope, recordIDs: [recordID]), as: client)
        failure = reply.failures[recordID]
        returned = reply.records
      case .fetchChanges:
        returned = try world.server.fetchZoneChanges(ZoneChangesRequest(scope: scope, zoneID: zoneID), as: client)
          .changed
      case .query:
        let type = target == .publicDatabase ? "Poster" : "Note"
        returned = try world.server.query(
          QueryRequest(scope: scope, zoneID: zoneID, query: Query(recordType: type)), as: client
        ).records
      }
    } catch {
      failure = error
    }

    let rightsErrors: Set<String> = ["notAuthenticated", "permissionFailure", "badDatabase"]
    switch expected {
    case .denied(let name):
      denied += 1
      #expect(failure?.code.name == name, "\(label): expected \(name), got \(failure.map { "\($0)" } ?? "success")")
      #expect(returned.isEmpty, "\(label): a refused request returned \(returned.count) records")
      #expect(world.snapshot() == before, "\(label): a refused request changed the server")
    case .allowed:
      allowed += 1
      if let failure { #expect(!rightsErrors.contains(failure.code.name), "\(label): allowed but got \(failure)") }
      #expect(
        returned.isEmpty || world.mayRead(target, as: user, scope: scope), "\(label): returned records it may not read")
      for record in returned where record.recordID.zoneID.zoneName != zoneID.zoneName {
        Issue.record("\(label): returned \(record.recordID) from another zone")
      }
      var after = world.snapshot()
      var unchanged = before
      after[target] = nil
      unchanged[target] = nil
      #expect(after == unchanged, "\(label): an allowed request changed a zone it did not name")
      if failure == nil, target == .publicDatabase, let user {
        // A save of a record that does not exist yet creates it, whether the app meant an edit or a create.
        if operation == .create || operation == .edit, world.publicCreators[recordName] == nil {
          world.publicCreators[recordName] = user
        }
        if operation == .delete { world.publicCreators[recordName] = nil }
      }
    }
  }
}
