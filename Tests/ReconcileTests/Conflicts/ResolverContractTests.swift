import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// A built-in resolver with a readable name for test output.
struct NamedResolver: Sendable, CustomTestStringConvertible {
  let name: String
  let resolver: any ConflictResolver
  /// Whether its conflicts need hybrid-logical-clock stamps.
  var stamped = false

  var testDescription: String { name }

  static let builtIns: [NamedResolver] = [
    NamedResolver(name: "serverLastWriterWins", resolver: .serverLastWriterWins),
    NamedResolver(name: "localClock", resolver: .localClock(key: RandomConflicts.editedAtKey)),
    NamedResolver(name: "editCount", resolver: .editCount(key: RandomConflicts.editCountKey)),
    NamedResolver(name: "fieldMerge(.server)", resolver: .fieldMerge()),
    NamedResolver(name: "fieldMerge(.client)", resolver: .fieldMerge(.client)),
    NamedResolver(
      name: "fieldMerge(.localClock)", resolver: .fieldMerge(.localClock(key: RandomConflicts.editedAtKey))),
    NamedResolver(
      name: "fieldMerge(.editCount, tags: .listUnion)",
      resolver: .fieldMerge(
        .editCount(key: RandomConflicts.editCountKey), overrides: [RandomConflicts.tagsKey: .listUnion])),
    NamedResolver(
      name: "fieldMerge(.custom)",
      resolver: .fieldMerge(
        .custom { field in field.client.description < field.server.description ? field.client : field.server })),
    NamedResolver(name: "hybridLogicalClock", resolver: .hybridLogicalClock(), stamped: true),
    NamedResolver(
      name: "resolverSet",
      resolver: ResolverSet(default: .serverLastWriterWins, byRecordType: ["Note": .fieldMerge(.client)])),
    NamedResolver(name: "custom", resolver: .custom { $0.client }),
  ]
}

@Suite("The resolver contract")
struct ResolverContractTests {
  /// Every way `result` breaks the contract for `conflict`, as sentences.
  static func violations(of result: Record, for conflict: Conflict) -> [String] {
    let server = conflict.server
    var found: [String] = []
    func check(_ holds: Bool, _ message: @autoclosure () -> String) { if !holds { found.append(message()) } }
    check(result.recordID == server.recordID, "record ID \(result.recordID)")
    check(result.recordType == server.recordType, "record type \(result.recordType)")
    check(result.recordChangeTag == server.recordChangeTag, "change tag \(String(describing: result.recordChangeTag))")
    check(result.creationDate == server.creationDate, "creation date")
    check(result.modificationDate == server.modificationDate, "modification date")
    check(result.creatorUserRecordName == server.creatorUserRecordName, "creator")
    check(result.lastModifiedUserRecordName == server.lastModifiedUserRecordName, "last modifier")
    check(result.modifiedByDevice == server.modifiedByDevice, "device")
    check(result.share == server.share && result.isDeleted == server.isDeleted, "share or deleted flag")

    let keys = Set(result.allKeys + server.allKeys)
    let differing = keys.filter {
      result[$0] != server[$0] || result.encryptedValuesByKey[$0] != server.encryptedValuesByKey[$0]
    }
    check(
      result.changedKeys == differing, "changedKeys \(result.changedKeys.sorted()) ≠ differing \(differing.sorted())")

    let client = conflict.client
    for key in server.allKeys where result[key] == nil && result.encryptedValuesByKey[key] == nil {
      let deliberate = client.changedKeys.contains(key) && client[key] == nil && client.encryptedValuesByKey[key] == nil
      check(deliberate, "dropped server key \(key) the client did not remove")
    }
    return found
  }

  /// Random conflicts per resolver: 2,000 at every depth before the sweep moved to release builds.
  static let conflicts = SweepBudget(unit: (500, 0), quick: (2_000, 0), full: (20_000, 0))

  @Test(
    "every built-in keeps the contract over random conflicts (500 in swift test, thousands in the deep sweep)",
    arguments: NamedResolver.builtIns)
  func contract(resolver: NamedResolver) throws {
    let budget = Self.conflicts
    var failedSeed: UInt64?
    for seed in budget.seeds {
      var gen = RandomConflicts(seed: seed)
      let conflict = try gen.conflict(stamped: resolver.stamped)
      let replay = TestSeeds.replay(seed, test: "contract")
      let result: Record
      do {
        result = try resolver.resolver.resolve(conflict)
      } catch {
        Issue.record(error, "\(resolver.name) threw; \(replay)")
        failedSeed = seed
        break
      }
      let violations = Self.violations(of: result, for: conflict)
      #expect(violations.isEmpty, "\(resolver.name): \(violations); \(replay)")

      let again = try resolver.resolver.resolve(conflict)
      let deterministic = again == result && again.changedKeys == result.changedKeys
      #expect(deterministic, "\(resolver.name) is not deterministic; \(replay)")
      var valid = true
      do { try result.validate() } catch {
        Issue.record(error, "\(resolver.name) made an invalid record; \(replay)")
        valid = false
      }
      if !violations.isEmpty || !deterministic || !valid {
        failedSeed = seed
        break
      }
    }
    budget.report(
      "resolver contract \(resolver.name)", failures: failedSeed == nil ? 0 : 1,
      detail: failedSeed.map { "first failing seed \($0)" } ?? "")
  }

  @Test("an empty changedKeys means the result is the server's record")
  func emptyChangesMeanAcceptServer() throws {
    for seed in TestSeeds.seeds(1...500) {
      var gen = RandomConflicts(seed: seed)
      let conflict = try gen.conflict()
      for named in NamedResolver.builtIns where !named.stamped {
        let result = try named.resolver.resolve(conflict)
        if result.changedKeys.isEmpty {
          #expect(
            result.values == conflict.server.values, Comment(rawValue: TestSeeds.replay(seed, test: "emptyChanges")))
          #expect(result.encryptedValuesByKey == conflict.server.encryptedValuesByKey)
        }
      }
    }
  }

  @Test("versions of different records are refused with an error naming both IDs")
  func mismatchedRecords() throws {
    let server = Record(recordType: "Note", recordID: try RecordID(recordName: "a")).savedByServer(tag: "t", at: .now)
    let other = Record(recordType: "Note", recordID: try RecordID(recordName: "b"))
    for named in NamedResolver.builtIns {
      #expect(
        throws: ConflictResolutionError.mismatchedRecordID(
          role: .client, found: other.recordID, server: server.recordID)
      ) {
        try named.resolver.resolve(Conflict(client: other, ancestor: nil, server: server))
      }
    }
    let task = Record(recordType: "Task", recordID: server.recordID)
    let error = #expect(throws: ConflictResolutionError.self) {
      try FieldMerge().resolve(Conflict(client: server, ancestor: task, server: server))
    }
    #expect(error == .mismatchedRecordType(role: .ancestor, found: "Task", server: "Note"))
    #expect(error?.description.contains("ancestor record has type Task") == true)
  }
}
