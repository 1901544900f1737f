/// A small, fast, seeded generator (SplitMix64), so every randomized test replays exactly from its seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator; the same seed always gives the same sequence.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The seeds a randomized test runs: `RECONCILE_SEED=N` in the environment replays one seed, otherwise `range`.
public enum TestSeeds {
  /// `RECONCILE_SEED` when set, otherwise every seed in `range`.
  public static func seeds(_ range: ClosedRange<UInt64>) -> [UInt64] {
    if let text = ProcessEnvironment.value("RECONCILE_SEED"), let seed = UInt64(text) { return [seed] }
    return Array(range)
  }

  /// `RECONCILE_SEED` as a one-seed range when set, otherwise `range`: for the simulator's property runner.
  public static func range(_ range: Range<UInt64>) -> Range<UInt64> {
    if let text = ProcessEnvironment.value("RECONCILE_SEED"), let seed = UInt64(text), seed < UInt64.max {
      return seed..<(seed + 1)
    }
    return range
  }

  /// The line a failing randomized test prints so it can be replayed.
  public static func replay(_ seed: UInt64, test: String) -> String {
    "seed \(seed); replay with: RECONCILE_SEED=\(seed) swift test --filter \(test)"
  }
}
