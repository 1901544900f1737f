import Reconcile
import ReconcileTestSupport
import Testing

/// The short-list diff keeps LCS lengths as bit vectors; it must match exactly the pairs the table it replaces matched,
/// so list and text merges give the same results either way.
@Suite struct SequenceDiffTests {
  @Test func bitVectorsMatchThePairsTheTableMatches() {
    for seed in TestSeeds.seeds(1...3_000) {
      var random = SeededRandom(seed: seed)
      let old = (0..<Int.random(in: 0...64, using: &random)).map { _ in Int32.random(in: 0..<6, using: &random) }
      let new = (0..<Int.random(in: 0...16, using: &random)).map { _ in Int32.random(in: 0..<6, using: &random) }
      let (bits, table) = old.withUnsafeBufferPointer { old in
        new.withUnsafeBufferPointer { new in
          var bits = [Int](repeating: -1, count: old.count)
          var table = bits
          bits.withUnsafeMutableBufferPointer { SequenceDiff.bitParallelMatches(old: old, new: new, into: $0) }
          table.withUnsafeMutableBufferPointer { SequenceDiff.tableMatches(old: old, new: new, into: $0) }
          return (bits, table)
        }
      }
      #expect(
        bits == table, "\(old) → \(new); \(TestSeeds.replay(seed, test: "bitVectorsMatchThePairsTheTableMatches"))")
      if bits != table { return }
    }
  }
}
