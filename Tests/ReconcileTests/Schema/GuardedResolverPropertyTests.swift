import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

@Suite("Guarded resolvers and unknown keys")
struct GuardedResolverPropertyTests {
  /// A `.preserve` schema for the conflict's record type that knows the resolvers' bookkeeping fields and every key
  /// whose type and place agree in all three versions, with probability one half; every other key is unknown.
  static func schema(for conflict: Conflict, random: inout SeededRandom) -> Schema {
    var fields: [RecordSchema.Field] = [
      .init(RandomConflicts.editCountKey, .int64), .init(RandomConflicts.editedAtKey, .timestamp),
      .init(RandomConflicts.tagsKey, .list(.string)), .init(HybridLogicalClockMerge().stampsKey, .bytes),
    ]
    let bookkeeping = Set(fields.map(\.key))
    let versions = [conflict.client, conflict.server] + (conflict.ancestor.map { [$0] } ?? [])
    let keys = Set(versions.flatMap(\.allKeys)).subtracting(bookkeeping).sorted()
    for key in keys where Bool.random(using: &random) {
      let slots = versions.compactMap { record -> (FieldType, Bool)? in
        if let value = record[key] { return (value.type, false) }
        if let value = record.encryptedValues[key] { return (value.type, true) }
        return nil
      }
      guard let first = slots.first, slots.allSatisfy({ $0 == first }) else { continue }
      fields.append(.init(key, first.0, encrypted: first.1))
    }
    return Schema(
      [RecordSchema(recordType: conflict.recordType, version: SchemaVersion(major: 1), fields: fields)],
      unknownKeys: .preserve)
  }

  @Test("no guarded built-in ever drops or changes a key the schema does not know", arguments: NamedResolver.builtIns)
  func unknownKeysSurvive(named: NamedResolver) throws {
    var resolvedCount = 0
    let seeds = TestSeeds.seeds(1...1_000)
    for seed in seeds {
      var gen = RandomConflicts(seed: seed)
      let conflict = try gen.conflict(stamped: named.stamped)
      var random = SeededRandom(seed: seed)
      let schema = Self.schema(for: conflict, random: &random)
      let replay = TestSeeds.replay(seed, test: "unknownKeysSurvive")
      let resolved: Record
      do {
        resolved = try named.resolver.guarded(by: schema).resolve(conflict)
      } catch is SchemaHalt {
        continue
      }
      resolvedCount += 1
      let unknown = schema.unknownKeys(in: conflict.server).union(schema.unknownKeys(in: conflict.client))
      for key in unknown {
        #expect(resolved[key] == conflict.server[key], "\(named.name) changed \(key); \(replay)")
        #expect(
          resolved.encryptedValues[key] == conflict.server.encryptedValues[key],
          "\(named.name) changed \(key); \(replay)")
        #expect(!resolved.changedKeys.contains(key), "\(named.name) marked \(key); \(replay)")
      }
      #expect(ResolverContractTests.violations(of: resolved, for: conflict).isEmpty, "\(named.name); \(replay)")
    }
    #expect(resolvedCount * 2 > seeds.count, "most conflicts resolve rather than halt: \(resolvedCount)")
  }
}
