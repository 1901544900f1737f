import Foundation

/// One device's request budget under a ``SimulatedServer/ThrottlePolicy``.
struct RequestBudget: Sendable, Hashable {
  var available: Double
  var updatedAt: Date
  var strikes = 0

  init(policy: SimulatedServer.ThrottlePolicy, now: Date) {
    available = policy.burst
    updatedAt = now
  }

  /// Takes one request from the budget, or says how long to wait.
  /// - Returns: `nil` when the request may go ahead, else the retry-after in seconds.
  mutating func spend(policy: SimulatedServer.ThrottlePolicy, now: Date) -> TimeInterval? {
    let elapsed = max(0, now.timeIntervalSince(updatedAt))
    available = min(policy.burst, available + elapsed * policy.refillPerSecond)
    updatedAt = now
    let cost = 1 + Double(strikes)
    guard available >= cost else {
      let wait = (cost - available) / max(policy.refillPerSecond, 0.001)
      return (wait * Double(1 + strikes)).rounded(.up)
    }
    available -= cost
    return nil
  }

  /// Notes how the request went: bad requests earn a strike, good ones remove one.
  mutating func settle(wasBad: Bool, policy: SimulatedServer.ThrottlePolicy) {
    strikes = wasBad ? min(policy.maximumStrikes, strikes + 1) : max(0, strikes - 1)
  }
}
