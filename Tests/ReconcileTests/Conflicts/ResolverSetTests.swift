import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

@Suite("ResolverSet and CustomResolver")
struct ResolverSetTests {
  static func conflict(type: String) throws -> Conflict {
    let id = try RecordID(recordName: "r1")
    var base = Record(recordType: type, recordID: id)
    base["title"] = "x"
    base["count"] = 1
    base = base.savedByServer(tag: "t1", at: Scenario.t0)
    var server = base
    server["title"] = "server"
    server = server.savedByServer(tag: "t2", at: Scenario.t0.addingTimeInterval(1))
    var client = base
    client["title"] = "client"
    client["count"] = 2
    return Conflict(client: client, ancestor: base, server: server)
  }

  @Test("each record type goes to its own resolver, the rest to the default")
  func perRecordType() throws {
    let set = ResolverSet(default: .serverLastWriterWins, byRecordType: ["Counter": EditCountWins(key: "count")])
    #expect(try set.resolve(Self.conflict(type: "Counter"))["title"] == "client")
    #expect(try set.resolve(Self.conflict(type: "Note"))["title"] == "server")
    #expect(set.resolver(for: "Counter") is EditCountWins)
    #expect(set.resolver(for: "Other") is ServerLastWriterWins)
  }

  @Test("a custom resolver's choice is placed onto the server record, so the contract holds")
  func customKeepsContract() throws {
    let conflict = try Self.conflict(type: "Note")
    let longest = CustomResolver { conflict in
      var chosen = conflict.server
      chosen["title"] = .string(["client", "server"].joined(separator: "|"))
      chosen.recordChangeTag = "made-up"
      return chosen
    }
    let resolved = try longest.resolve(conflict)
    #expect(resolved["title"] == "client|server")
    #expect(resolved.recordChangeTag == "t2", "the server's tag, whatever the closure returned")
    #expect(resolved.changedKeys == ["title"])
    #expect(ResolverContractTests.violations(of: resolved, for: conflict).isEmpty)
  }

  @Test("returning the server's record accepts it; a thrown error reaches the caller")
  func customAcceptsOrThrows() throws {
    struct Refused: Error {}
    let conflict = try Self.conflict(type: "Note")
    #expect(try CustomResolver { $0.server }.resolve(conflict).changedKeys.isEmpty)
    #expect(throws: Refused.self) { try CustomResolver { _ in throw Refused() }.resolve(conflict) }
  }
}
