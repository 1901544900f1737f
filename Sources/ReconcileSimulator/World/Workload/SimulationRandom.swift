/// The simulator's seeded random number generator (SplitMix64): the same seed gives the same numbers on every
/// platform and in every process, so a run replays exactly.
package struct SimulationRandom: RandomNumberGenerator, Sendable, Hashable {
  private var state: UInt64

  /// Creates a generator.
  /// - Parameter seed: The seed.
  package init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<upperBound`, or 0 when the bound is not positive.
  mutating func below(_ upperBound: Int) -> Int {
    upperBound > 0 ? Int(next() % UInt64(upperBound)) : 0
  }

  /// `true` with probability `p`.
  mutating func chance(_ p: Double) -> Bool {
    Double(next() >> 11) / Double(1 << 53) < p
  }

  /// One element of a non-empty array, or `nil`.
  mutating func pick<Items: RandomAccessCollection>(_ items: Items) -> Items.Element? {
    items.isEmpty ? nil : items[items.index(items.startIndex, offsetBy: below(items.count))]
  }
}
