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
    var refused: Bool
    var serverBy: String
    var own: Bool
    var testDescription: String {
      "sent on \(sentOn ?? "no tag"), known \(known), \(refused ? "refused" : "unanswered"), server by \(serverBy)"
    }
  }

  /// `own`: whether the server's "a" is taken as this device's landed save (the ancestor's title is "a"), or as
  /// another device's change (the ancestor keeps the known "x").
  @Test(
    "a sent version explains a fetched equal value only if it could still have landed",
    arguments: [
      Case(sentOn: "t1", known: "t1", refused: false, serverBy: "mac", own: true),
      // Sent on an older tag than the version known since: the server moved past it; it cannot land any more.
      Case(sentOn: "t1", known: "t2", refused: false, serverBy: "mac", own: false),
      // A create carries no tag: it may land whenever the server holds no record of its ID.
      Case(sentOn: nil, known: "t2", refused: false, serverBy: "mac", own: true),
      // Refused: it did not land, unless the server's version is this device's (a duplicate landed first).
      Case(sentOn: "t1", known: "t1", refused: true, serverBy: "mac", own: false),
      Case(sentOn: "t1", known: "t1", refused: true, serverBy: "phone", own: true),
    ])
  func sentVersionExplainsAnEqualValue(_ testCase: Case) throws {
    var saves = UnacknowledgedSaves()
    let sent = try Self.version("a", tag: testCase.sentOn)
    saves.noteSent(sent)
    if testCase.refused { saves.noteRefused(sent) }
    let ancestor = saves.ancestor(
      known: try Self.version("x", tag: testCase.known),
      server: try Self.version("a", tag: "t9", device: testCase.serverBy),
      device: "phone")
    #expect(ancestor?["title"] == .string(testCase.own ? "a" : "x"))
  }
}
