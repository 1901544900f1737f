public import Foundation

/// Simulated time that moves only when told to, so every run of the simulator is repeatable. No real sleeps.
///
/// The simulated server and devices arrive in a later release; the clock is the first piece they share.
public struct VirtualClock: Sendable, Hashable {
  /// The current simulated instant.
  public private(set) var now: Date

  /// Creates a clock standing at `start`.
  /// - Parameter start: The first instant; 2024-01-01T00:00:00Z unless given, so runs do not depend on the real date.
  public init(start: Date = Date(timeIntervalSince1970: 1_704_067_200)) {
    now = start
  }

  /// Moves the clock forward.
  /// - Parameter seconds: How far; negative or non-finite values are ignored, because simulated time never runs backwards.
  public mutating func advance(by seconds: TimeInterval) {
    guard seconds.isFinite, seconds > 0 else { return }
    now = now.addingTimeInterval(seconds)
  }
}
