import Foundation
import ReconcileSimulator
import Testing

@Suite("Request pacing shared by Reconcile's clients")
struct RequestPacingTests {
  static let now = Date(timeIntervalSince1970: 1_000)

  @Test("the longest wait stands, holds sending back until it ends, and is cleared once it has")
  func waits() {
    var pacing = RequestPacing(batchLimit: 400)
    let idle = pacing.isWaiting(at: Self.now)
    #expect(!idle)
    pacing.wait(until: Self.now.addingTimeInterval(30))
    pacing.wait(until: Self.now.addingTimeInterval(10))
    #expect(pacing.waitUntil == Self.now.addingTimeInterval(30), "a shorter retry-after does not cut a longer one")
    let before = pacing.isWaiting(at: Self.now.addingTimeInterval(29))
    let after = pacing.isWaiting(at: Self.now.addingTimeInterval(30))
    #expect(before)
    #expect(!after)
    #expect(pacing.waitUntil == nil)
  }

  @Test("limitExceeded halves the batch, never below one item")
  func halving() {
    var pacing = RequestPacing(batchLimit: 3)
    pacing.halveBatch()
    #expect(pacing.batchLimit == 1)
    pacing.halveBatch()
    #expect(pacing.batchLimit == 1)
    #expect(RequestPacing(batchLimit: 0).batchLimit == 1)
  }

  @Test("a request times out exactly at the policy's timeout")
  func timeout() {
    let policy = RetryPolicy(requestTimeout: 60)
    #expect(!RequestPacing.hasTimedOut(sentAt: Self.now, at: Self.now.addingTimeInterval(59.9), policy))
    #expect(RequestPacing.hasTimedOut(sentAt: Self.now, at: Self.now.addingTimeInterval(60), policy))
    #expect(RequestPacing.deadline(sentAt: Self.now, policy) == Self.now.addingTimeInterval(60))
  }
}
