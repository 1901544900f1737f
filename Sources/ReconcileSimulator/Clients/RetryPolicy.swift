package import Foundation

/// How a device waits between operations and retries, after seed 004: honour the server's retry-after, otherwise back
/// off exponentially up to a cap, give up after a number of tries; keep a throttle between operations that doubles on
/// every failure and shrinks by a third on every success.
package struct RetryPolicy: Sendable, Hashable {
  /// The first backoff wait when the server gives no retry-after.
  package var baseDelay: TimeInterval
  /// The longest backoff wait.
  package var maximumDelay: TimeInterval
  /// Retries of one operation before the device gives up on the sync (it tries again at the next sync).
  package var maximumRetries: Int
  /// The least wait between two operations; the throttle never shrinks below it.
  package var minimumInterval: TimeInterval
  /// The longest the throttle grows to.
  package var maximumThrottle: TimeInterval
  /// How long a request may stay unanswered before the device counts it lost.
  package var requestTimeout: TimeInterval

  /// Creates a policy.
  /// - Parameters:
  ///   - baseDelay: 1 s unless given.
  ///   - maximumDelay: 5 min unless given.
  ///   - maximumRetries: 5 unless given.
  ///   - minimumInterval: 0.5 s unless given.
  ///   - maximumThrottle: 60 s unless given.
  ///   - requestTimeout: 60 s unless given.
  package init(
    baseDelay: TimeInterval = 1,
    maximumDelay: TimeInterval = 300,
    maximumRetries: Int = 5,
    minimumInterval: TimeInterval = 0.5,
    maximumThrottle: TimeInterval = 60,
    requestTimeout: TimeInterval = 60
  ) {
    self.baseDelay = baseDelay
    self.maximumDelay = maximumDelay
    self.maximumRetries = maximumRetries
    self.minimumInterval = minimumInterval
    self.maximumThrottle = maximumThrottle
    self.requestTimeout = requestTimeout
  }

  /// The wait before retry number `attempt` (from 1) when the server gave none: `baseDelay × 2^(attempt−1)`, capped.
  /// - Parameter attempt: The retry's number.
  /// - Returns: Seconds.
  package func backoff(attempt: Int) -> TimeInterval {
    let exponent = Double(max(0, min(attempt - 1, 30)))
    return min(maximumDelay, baseDelay * pow(2, exponent))
  }

  /// The throttle after a failure: doubled (at least `baseDelay`), capped.
  func grown(_ throttle: TimeInterval) -> TimeInterval { min(maximumThrottle, max(baseDelay, throttle * 2)) }

  /// The throttle after a success: a third smaller, never below `minimumInterval`.
  func shrunk(_ throttle: TimeInterval) -> TimeInterval { max(minimumInterval, throttle * 2 / 3) }
}
