import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

@Suite("HybridLogicalClock")
struct HybridLogicalClockTests {
  static let t = Date(timeIntervalSince1970: 1_790_000_000)
  static let tMilliseconds: Int64 = 1_790_000_000_000

  static func ms(_ offset: Int64) -> Date { Date(timeIntervalSince1970: Double(tMilliseconds + offset) / 1000) }

  @Test("local events follow physical time while it moves forward")
  func followsPhysicalTime() throws {
    var clock = try HybridLogicalClock(nodeID: "a")
    #expect(try clock.now(at: Self.ms(0)) == HybridTimestamp(wallTime: Self.tMilliseconds, counter: 0, nodeID: "a"))
    #expect(try clock.now(at: Self.ms(5)) == HybridTimestamp(wallTime: Self.tMilliseconds + 5, counter: 0, nodeID: "a"))
    #expect(
      try clock.now(at: Self.ms(5)) == HybridTimestamp(wallTime: Self.tMilliseconds + 5, counter: 1, nodeID: "a"))
  }

  @Test("the clock never goes backwards when physical time does")
  func neverGoesBackwards() throws {
    var clock = try HybridLogicalClock(nodeID: "a")
    let first = try clock.now(at: Self.ms(0))
    let second = try clock.now(at: Self.ms(-1_000))
    let third = try clock.now(at: Self.ms(-500))
    #expect(first < second && second < third)
    #expect(third == HybridTimestamp(wallTime: Self.tMilliseconds, counter: 2, nodeID: "a"))
  }

  @Test(
    "receive follows the paper's four cases",
    arguments: [
      // local (l, c), remote (l, c), physical, expected (l, c)
      ((100, 3), (100, 7), 50, (100, 8)),  // l == l' == lm: max(c, cm) + 1
      ((100, 3), (90, 7), 50, (100, 4)),  // only l: c + 1
      ((90, 3), (100, 7), 50, (100, 8)),  // only lm: cm + 1
      ((90, 3), (95, 7), 120, (120, 0)),  // physical time is largest: 0
    ])
  func receiveCases(local: (Int64, UInt32), remote: (Int64, UInt32), physical: Int64, expected: (Int64, UInt32)) throws
  {
    var clock = try HybridLogicalClock(
      nodeID: "a", latest: HybridTimestamp(wallTime: Self.tMilliseconds + local.0, counter: local.1, nodeID: "a"))
    let received = try clock.receive(
      HybridTimestamp(wallTime: Self.tMilliseconds + remote.0, counter: remote.1, nodeID: "b"), at: Self.ms(physical))
    #expect(received == HybridTimestamp(wallTime: Self.tMilliseconds + expected.0, counter: expected.1, nodeID: "a"))
    #expect(clock.latest == received)
  }

  @Test("a remote stamp further ahead than the maximum drift is refused and leaves the clock unchanged")
  func driftCap() throws {
    var clock = try HybridLogicalClock(nodeID: "a", maximumDrift: .seconds(600))
    let before = try clock.now(at: Self.t)
    let wild = HybridTimestamp(wallTime: Self.tMilliseconds + 601_000, counter: 0, nodeID: "b")
    let error = #expect(throws: HybridLogicalClockError.self) { try clock.receive(wild, at: Self.t) }
    #expect(error == .remoteTooFarAhead(remote: wild, physicalTime: Self.t, maximumDrift: .seconds(600)))
    #expect(error?.description.contains("601.0 seconds ahead") == true)
    #expect(clock.latest == before)
    let edge = HybridTimestamp(wallTime: Self.tMilliseconds + 600_000, counter: 0, nodeID: "b")
    #expect(try clock.receive(edge, at: Self.t).wallTime == edge.wallTime)
  }

  @Test("timestamps order by wall time, then counter, then node ID")
  func ordering() {
    let a = HybridTimestamp(wallTime: 5, counter: 1, nodeID: "b")
    #expect(a < HybridTimestamp(wallTime: 6, counter: 0, nodeID: "a"))
    #expect(a < HybridTimestamp(wallTime: 5, counter: 2, nodeID: "a"))
    #expect(a < HybridTimestamp(wallTime: 5, counter: 1, nodeID: "c"))
    #expect(HybridTimestamp(wallTime: 5, counter: 1, nodeID: "a") < a)
  }

  @Test("bad node IDs, drifts and physical times are typed errors")
  func badInput() throws {
    #expect(throws: HybridLogicalClockError.invalidNodeID("")) { try HybridLogicalClock(nodeID: "") }
    let long = String(repeating: "é", count: 128)
    #expect(throws: HybridLogicalClockError.invalidNodeID(long)) { try HybridLogicalClock(nodeID: long) }
    #expect(throws: HybridLogicalClockError.invalidMaximumDrift(.seconds(-1))) {
      try HybridLogicalClock(nodeID: "a", maximumDrift: .seconds(-1))
    }
    var clock = try HybridLogicalClock(nodeID: "a")
    let infinite = Date(timeIntervalSince1970: .infinity)
    #expect(throws: HybridLogicalClockError.invalidPhysicalTime(infinite)) { try clock.now(at: infinite) }
    let far = Date(timeIntervalSince1970: 1e16)
    #expect(throws: HybridLogicalClockError.invalidPhysicalTime(far)) {
      try clock.receive(HybridTimestamp(wallTime: 0, counter: 0, nodeID: "b"), at: far)
    }
  }

  @Test("a clock resumed from its last timestamp never issues an earlier one; an exhausted counter is an error")
  func resumeAndOverflow() throws {
    let saved = HybridTimestamp(wallTime: Self.tMilliseconds + 60_000, counter: 4, nodeID: "a")
    var clock = try HybridLogicalClock(nodeID: "a", latest: saved)
    #expect(try clock.now(at: Self.t) > saved)
    var full = try HybridLogicalClock(
      nodeID: "a", latest: HybridTimestamp(wallTime: Self.tMilliseconds, counter: .max, nodeID: "a"))
    #expect(throws: HybridLogicalClockError.self) { try full.now(at: Self.ms(-1)) }
  }

  @Test("the timestamp reads as its ISO 8601 time, counter and node")
  func description() {
    #expect(
      HybridTimestamp(wallTime: 1_790_000_000_123, counter: 2, nodeID: "phone").description
        == "2026-09-21T14:13:20.123Z/2@phone")
    #expect(HybridTimestamp(wallTime: -1, counter: 0, nodeID: "x").description == "1969-12-31T23:59:59.999Z/0@x")
  }

  /// Nodes with skewed clocks exchange messages over random delays. After every event: each node's stamps strictly
  /// increase, a received message's stamp is below the receive event's, l ≥ pt, and l − pt stays within the skew spread.
  @Test("random message exchanges keep the HLC guarantees")
  func guarantees() throws {
    for seed in TestSeeds.seeds(1...200) {
      var random = SeededRandom(seed: seed)
      let replay = TestSeeds.replay(seed, test: "guarantees")
      let skews = (0..<3).map { _ in Int64.random(in: -120_000...120_000, using: &random) }
      var clocks = try (0..<3).map { try HybridLogicalClock(nodeID: "n\($0)", maximumDrift: .seconds(300)) }
      var inFlight: [(to: Int, stamp: HybridTimestamp, arrives: Int64)] = []
      var now: Int64 = 0
      var last: [HybridTimestamp?] = [nil, nil, nil]
      for _ in 0..<300 {
        now += Int64.random(in: 0...50, using: &random)
        let node = Int.random(in: 0..<3, using: &random)
        let pt = Self.tMilliseconds + now + skews[node]
        let stamp: HybridTimestamp
        if let index = inFlight.firstIndex(where: { $0.to == node && $0.arrives <= now }) {
          let message = inFlight.remove(at: index)
          stamp = try clocks[node].receive(message.stamp, at: Self.ms(now + skews[node]))
          #expect(message.stamp < stamp, "\(replay)")
        } else {
          stamp = try clocks[node].now(at: Self.ms(now + skews[node]))
          let to = (node + Int.random(in: 1...2, using: &random)) % 3
          inFlight.append((to, stamp, now + Int64.random(in: 0...500, using: &random)))
        }
        #expect(last[node].map { $0 < stamp } ?? true, "\(replay)")
        #expect(stamp.wallTime >= pt, "\(replay)")
        #expect(stamp.wallTime - pt <= 240_000, "\(replay)")
        last[node] = stamp
      }
    }
  }
}
