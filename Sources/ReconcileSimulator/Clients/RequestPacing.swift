package import Foundation

/// When a sync client may send next: the skeleton Reconcile's two clients (``SimulatedDevice`` and
/// ``SimulatedSyncEngine``) share — one request in flight that times out, a wait after an error that the longest
/// retry-after sets, a count of retries, and a batch limit halved on `limitExceeded`. Each client keeps its own policy
/// for how long to wait and when to give up; the bookkeeping is here once.
package struct RequestPacing: Sendable, Hashable {
  /// No request leaves before this moment.
  package var waitUntil: Date?
  /// Failed attempts in a row.
  package var retryCount = 0
  /// The most items a batch carries now.
  package var batchLimit: Int

  /// A client that may send at once, with batches of up to `batchLimit` items.
  package init(batchLimit: Int) { self.batchLimit = max(1, batchLimit) }

  /// Whether a wait still holds the client back at `now`; a wait that has ended is cleared.
  @inline(__always)
  package mutating func isWaiting(at now: Date) -> Bool {
    guard let until = waitUntil else { return false }
    guard now >= until else { return true }
    waitUntil = nil
    return false
  }

  /// Waits at least until `until`: a wait already set that ends later stands, as the longest retry-after of several
  /// failed items does.
  package mutating func wait(until: Date) { waitUntil = max(waitUntil ?? until, until) }

  /// `limitExceeded`: the next batches carry half as many items, at least one.
  package mutating func halveBatch() { batchLimit = max(1, batchLimit / 2) }

  /// When a request sent at `sentAt` counts as lost under `retry`.
  @inline(__always)
  package static func deadline(sentAt: Date, _ retry: RetryPolicy) -> Date {
    sentAt.addingTimeInterval(retry.requestTimeout)
  }

  /// Whether a request sent at `sentAt` has timed out at `now` under `retry`.
  @inline(__always)
  package static func hasTimedOut(sentAt: Date, at now: Date, _ retry: RetryPolicy) -> Bool {
    now.timeIntervalSince(sentAt) >= retry.requestTimeout
  }
}
