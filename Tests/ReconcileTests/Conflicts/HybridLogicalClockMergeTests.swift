import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// Replicas of one record, each edited by its own device with its own skewed clock, for the merge's algebra.
struct StampedReplicas {
  static let merge = HybridLogicalClockMerge()

  /// `count` replicas of one random base record, each with one to three rounds of random edits, mostly stamped.
  static func make(seed: UInt64, count: Int) throws -> [Record] {
    var gen = RandomConflicts(seed: seed)
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    var base = gen.records.record(maxFields: 5)
    var creator = try HybridLogicalClock(nodeID: "creator")
    if Bool.random(using: &gen.records.random) { try merge.stamp(&base, with: &creator, at: start) }
    base = base.savedByServer(tag: "t1", at: start)
    let keys = base.allKeys.filter { $0 != merge.stampsKey } + ["x", "y", "z"]
    return try (0..<count).map { index in
      var replica = base
      var clock = try HybridLogicalClock(nodeID: "device-\(index)")
      let skew = Double.random(in: -0.005...0.005, using: &gen.records.random)
      try merge.observe(base, with: &clock, at: start)
      for round in 0..<Int.random(in: 1...3, using: &gen.records.random) {
        // Milliseconds apart, so wall times collide and counters and node IDs decide.
        let time = start.addingTimeInterval(Double(round) * 0.002 + skew + 0.01)
        gen.edit(&replica, keys: keys, at: time)
        // Now and then a round goes unstamped, as from an app version before stamps: ties must still agree.
        if Int.random(in: 0..<4, using: &gen.records.random) > 0 { try merge.stamp(&replica, with: &clock, at: time) }
        replica.clearChangedKeys()
      }
      return replica
    }
  }

  /// `a` merged into `b`, as a device holding `a` resolves against a server holding `b`.
  static func merged(_ a: Record, _ b: Record) throws -> Record {
    try merge.resolve(Conflict(client: a, ancestor: nil, server: b))
  }

  /// What replicas must agree on: every value, where it lives, and every stamp.
  struct Content: Equatable, CustomStringConvertible {
    let values: [String: FieldValue]
    let encrypted: [String: FieldValue]
    let stamps: [String: HybridTimestamp]
    var description: String {
      "values \(values.keys.sorted()) encrypted \(encrypted.keys.sorted()) stamps \(stamps.count)"
    }
  }

  static func content(_ record: Record) throws -> Content {
    var values = record.values
    values[merge.stampsKey] = nil
    return Content(values: values, encrypted: record.encryptedValuesByKey, stamps: try merge.stamps(in: record))
  }
}

@Suite("HybridLogicalClockMerge")
struct HybridLogicalClockMergeTests {
  let merge = HybridLogicalClockMerge()
  static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

  @Test("merging is commutative, associative and idempotent over random replicas")
  func algebra() throws {
    for seed in TestSeeds.seeds(1...500) {
      let replay = TestSeeds.replay(seed, test: "algebra")
      let r = try StampedReplicas.make(seed: seed, count: 3)
      let (a, b, c) = (r[0], r[1], r[2])
      let m = StampedReplicas.merged
      let content = StampedReplicas.content
      #expect(try content(m(a, b)) == content(m(b, a)), "commutative; \(replay)")
      #expect(try content(m(m(a, b), c)) == content(m(a, m(b, c))), "associative; \(replay)")
      #expect(try content(m(a, a)) == content(a), "idempotent; \(replay)")
      #expect(try m(a, a).changedKeys.isEmpty, "merging a replica with itself changes nothing; \(replay)")
      #expect(try content(m(m(a, b), b)) == content(m(a, b)), "re-merging is idempotent; \(replay)")
    }
  }

  @Test("replicas converge whatever the delivery order")
  func convergence() throws {
    for seed in TestSeeds.seeds(1...200) {
      var random = SeededRandom(seed: seed ^ 0xC0FFEE)
      let replay = TestSeeds.replay(seed, test: "convergence")
      let replicas = try StampedReplicas.make(seed: seed, count: 4)
      var outcomes: [StampedReplicas.Content] = []
      for _ in 0..<4 {
        // Each device receives the others in its own random order, one at a time, merging as it goes.
        let order = replicas.shuffled(using: &random)
        var state = order[0]
        for next in order.dropFirst() {
          state =
            Bool.random(using: &random)
            ? try StampedReplicas.merged(next, state) : try StampedReplicas.merged(state, next)
        }
        outcomes.append(try StampedReplicas.content(state))
      }
      #expect(Set(outcomes.map(\.description)).count == 1 && outcomes.allSatisfy { $0 == outcomes[0] }, "\(replay)")
    }
  }

  /// Device A's clock is right; B's runs `skew` seconds slow. A edits the title; B fetches A's record, then edits the
  /// title again `delay` seconds later in real time.
  func skewed(skew: TimeInterval, delay: TimeInterval, bObservesA: Bool) throws -> (a: Record, b: Record) {
    var base = try Scenario.note(["title": "draft"])
    var creator = try HybridLogicalClock(nodeID: "creator")
    try merge.stamp(&base, with: &creator, at: Self.t0)
    base = base.savedByServer(tag: "t1", at: Self.t0)
    var clockA = try HybridLogicalClock(nodeID: "A")
    var clockB = try HybridLogicalClock(nodeID: "B")
    var a = base
    a["title"] = "from A"
    try merge.stamp(&a, with: &clockA, at: Self.t0.addingTimeInterval(60))
    a = a.savedByServer(tag: "t2", at: Self.t0.addingTimeInterval(60))
    var b = base
    if bObservesA {
      try merge.observe(a, with: &clockB, at: Self.t0.addingTimeInterval(60 - skew))
    }
    b["title"] = "from B"
    try merge.stamp(&b, with: &clockB, at: Self.t0.addingTimeInterval(60 + delay - skew))
    return (a, b)
  }

  @Test("a device five minutes slow keeps an edit made after it saw the other's, in either merge order")
  func slowDeviceKeepsLaterEdit() throws {
    let (a, b) = try skewed(skew: 300, delay: 1, bObservesA: true)
    #expect(try StampedReplicas.merged(b, a)["title"] == "from B")
    #expect(try StampedReplicas.merged(a, b)["title"] == "from B")
    let local = try LocalClockLastWriterWins(key: "unused").resolve(Conflict(client: b, ancestor: nil, server: a))
    #expect(local["title"] == "from A", "without stamps in the record, plain device clocks would have lost it")
  }

  @Test("a skewed device within the drift cap never loses a later edit", arguments: [0.0, 30, 299, 599])
  func skewWithinCap(skew: TimeInterval) throws {
    for delay in [0.001, 1, 30, 1_000] {
      let (a, b) = try skewed(skew: skew, delay: delay, bObservesA: true)
      #expect(try StampedReplicas.merged(b, a)["title"] == "from B", "skew \(skew) s, delay \(delay) s")
      // Without seeing A's edit first, B's edit is concurrent; it still wins once it is later by more than the skew.
      let (a2, b2) = try skewed(skew: skew, delay: skew + delay, bObservesA: false)
      #expect(try StampedReplicas.merged(a2, b2)["title"] == "from B", "unseen, skew \(skew) s, delay \(delay) s")
    }
  }

  @Test("concurrent edits within the skew are ordered by the clocks: the slow device loses (documented)")
  func concurrentEditWithinSkewLoses() throws {
    let (a, b) = try skewed(skew: 300, delay: 10, bObservesA: false)
    #expect(try StampedReplicas.merged(b, a)["title"] == "from A")
  }

  @Test("stamp() stamps written and removed keys with one timestamp; observe() moves the clock past a record")
  func stampAndObserve() throws {
    var record = try Scenario.note(["title": "x", "body": "y"])
    record["body"] = nil
    var clock = try HybridLogicalClock(nodeID: "phone")
    try merge.stamp(&record, with: &clock, at: Self.t0)
    let stamps = try merge.stamps(in: record)
    #expect(Set(stamps.keys) == ["title", "body"])
    #expect(Set(stamps.values).count == 1)
    #expect(record.changedKeys.contains(merge.stampsKey))

    var other = try HybridLogicalClock(nodeID: "tablet")
    try merge.observe(record, with: &other, at: Self.t0.addingTimeInterval(-100))
    #expect(try other.now(at: Self.t0.addingTimeInterval(-100)) > #require(stamps["title"]))
  }

  @Test("a stamped removal beats an older value")
  func stampedRemoval() throws {
    var base = try Scenario.note(["title": "x", "body": "y"])
    var clockA = try HybridLogicalClock(nodeID: "A")
    try merge.stamp(&base, with: &clockA, at: Self.t0)
    var removed = base
    removed["body"] = nil
    removed.clearChangedKeys()
    removed["body"] = nil
    try merge.stamp(&removed, with: &clockA, at: Self.t0.addingTimeInterval(1))
    let server = base.savedByServer(tag: "t1", at: Self.t0)
    let resolved = try merge.resolve(Conflict(client: removed, ancestor: nil, server: server))
    #expect(resolved["body"] == nil)
    #expect(resolved.changedKeys == ["body", merge.stampsKey])
  }

  @Test("the stamps encoding is the documented one, byte for byte")
  func encodingLayout() throws {
    var record = try Scenario.note([:])
    record["a"] = "v"
    var clock = try HybridLogicalClock(nodeID: "n")
    try merge.stamp(&record, with: &clock, at: Date(timeIntervalSince1970: 0.001))
    let bytes = [UInt8](record[merge.stampsKey]?.bytesValue ?? Data())
    // "RCFS", version 1, one node "n", one entry "a": wall time 1 (zigzag 2), counter 0, node 0.
    #expect(bytes == [0x52, 0x43, 0x46, 0x53, 0x01, 0x01, 0x01, 0x6E, 0x01, 0x01, 0x61, 0x02, 0x00, 0x00])
  }

  @Test("malformed stamps are typed errors naming the key: wrong type, every truncation, every bit flip")
  func malformedStamps() throws {
    let (a, _) = try skewed(skew: 0, delay: 1, bObservesA: true)
    var wrongType = a
    wrongType[merge.stampsKey] = "not bytes"
    #expect(
      throws: ConflictResolutionError.unexpectedFieldType(
        key: "fieldStamps", role: .client, expected: .bytes, found: .string)
    ) {
      try merge.resolve(Conflict(client: wrongType, ancestor: nil, server: a))
    }
    let valid = a[merge.stampsKey]?.bytesValue ?? Data()
    var broken = a
    for length in 0..<valid.count {
      broken[merge.stampsKey] = .bytes(valid.prefix(length))
      let error = #expect(throws: ConflictResolutionError.self) {
        try merge.resolve(Conflict(client: a, ancestor: nil, server: broken))
      }
      guard case .malformedFieldStamps(key: "fieldStamps", role: .server, _) = error else {
        Issue.record("length \(length): \(String(describing: error))")
        continue
      }
    }
    for bit in 0..<(valid.count * 8) {
      var flipped = valid
      flipped[bit / 8] ^= UInt8(1 << (bit % 8))
      broken[merge.stampsKey] = .bytes(flipped)
      do {
        _ = try merge.resolve(Conflict(client: a, ancestor: nil, server: broken))
      } catch is ConflictResolutionError {
      } catch {
        Issue.record("bit \(bit): \(error)")
      }
    }
  }
}
