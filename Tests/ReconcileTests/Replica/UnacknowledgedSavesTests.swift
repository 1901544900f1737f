import Foundation
import Reconcile
import Testing

@Suite("UnacknowledgedSaves: which of a device's unanswered saves may explain a fetched value")
struct UnacknowledgedSavesTests {
  static func version(_ title: String, tag: String?, device: String? = nil) throws -> Record {
    var record = try ZoneReplicaTests.note("n1", title: title)
    record.recordChangeTag = tag
    record.modifiedByDevice = device
    record.clearChangedKeys()
    return record
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var sentOn: String?
    var known: String
    /// What came of each attempt to send it: `true` refused, `false` unanswered.
    var attempts: [Bool]
    var serverBy: String
    /// Whether two sides holding the key's one value both count (a counter).
    var counts = true
    var own: Bool
    var testDescription: String {
      let outcomes = attempts.map { $0 ? "refused" : "unanswered" }.joined(separator: ", ")
      return "sent on \(sentOn ?? "no tag"), known \(known), \(outcomes), server by \(serverBy)"
        + (counts ? ", a counter" : "")
    }
  }

  /// `own`: whether the server's "a" is taken as this device's landed save (the ancestor's title is "a"), or as
  /// another device's change (the ancestor keeps the known "x").
  @Test("sent again after refusals, a version stays one entry: eight retries do not push out an older version")
  func retriesDoNotPushOutOlderVersions() throws {
    var saves = UnacknowledgedSaves()
    saves.noteSent(try Self.version("a", tag: nil))
    let retried = try Self.version("b", tag: nil)
    for _ in 0..<10 {
      saves.noteSent(retried)
      saves.noteRefused(retried)
    }
    #expect(saves.versions.map { $0.record["title"] } == [.string("a"), .string("b")])
    #expect(saves.versions.last?.attempts == 10 && saves.versions.last?.refused == true)
  }

  @Test(
    "a sent version explains a fetched equal value only if it could still have landed",
    arguments: [
      Case(sentOn: "t1", known: "t1", attempts: [false], serverBy: "mac", own: true),
      // Sent on an older tag than the version known since: the server moved past it; it cannot land any more.
      Case(sentOn: "t1", known: "t2", attempts: [false], serverBy: "mac", own: false),
      // A create carries no tag: it may land whenever the server holds no record of its ID.
      Case(sentOn: nil, known: "t2", attempts: [false], serverBy: "mac", own: true),
      // Refused: it did not land, unless the server's version is this device's (a duplicate landed first).
      Case(sentOn: "t1", known: "t1", attempts: [true], serverBy: "mac", own: false),
      Case(sentOn: "t1", known: "t1", attempts: [true], serverBy: "phone", own: true),
      // One attempt unanswered may have landed, whatever the server said of a later one.
      Case(sentOn: "t1", known: "t1", attempts: [false, true], serverBy: "mac", own: true),
      Case(sentOn: "t1", known: "t1", attempts: [true, true], serverBy: "mac", own: false),
      // Where equal values agree, taking a refused value for this device's own changes nothing another device wrote.
      Case(sentOn: "t1", known: "t1", attempts: [true], serverBy: "mac", counts: false, own: true),
    ])
  func sentVersionExplainsAnEqualValue(_ testCase: Case) throws {
    var saves = UnacknowledgedSaves()
    let sent = try Self.version("a", tag: testCase.sentOn)
    for refused in testCase.attempts {
      saves.noteSent(sent)
      if refused { saves.noteRefused(sent) }
    }
    let counts = testCase.counts
    let ancestor = saves.ancestor(
      known: try Self.version("x", tag: testCase.known),
      server: try Self.version("a", tag: "t9", device: testCase.serverBy),
      device: "phone", equalValuesBothCount: { _ in counts })
    #expect(ancestor?["title"] == .string(testCase.own ? "a" : "x"))
  }
}
