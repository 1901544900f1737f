import Foundation
import Reconcile
import ReconcileTestSupport
import Testing

/// The seed scenarios, built the way a device and the server produce them.
enum Scenario {
  static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

  static func note(_ values: [String: FieldValue]) throws -> Record {
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "note-1"))
    for (key, value) in values { record[key] = value }
    return record
  }

  /// Seed 004's pitfall: two quick local edits queued with one change tag; the first lands, the second conflicts.
  /// Each edit bumps `editCount`.
  static func queuedEdits() throws -> (conflict: Conflict, firstEdit: Record) {
    let v1 = try note(["title": "draft", "editCount": 1]).savedByServer(tag: "t1", at: t0)
    var first = v1
    first["title"] = "first"
    first["editCount"] = 2
    var second = first
    second["title"] = "second"
    second["editCount"] = 3
    let v2 = v1.applying(first, tag: "t2", at: t0.addingTimeInterval(1))
    return (Conflict(client: second, ancestor: v1, server: v2), first)
  }
}

@Suite("ServerLastWriterWins")
struct ServerLastWriterWinsTests {
  @Test("seed 004's pitfall: the second of two queued edits is lost")
  func queuedEditIsLost() throws {
    let (conflict, _) = try Scenario.queuedEdits()
    let resolved = try ServerLastWriterWins().resolve(conflict)
    #expect(conflict.client["title"] == "second")
    #expect(resolved["title"] == "first", "the server copy is newer, so it wins")
    #expect(resolved.changedKeys.isEmpty, "nothing left to upload: the user's last edit is gone")
    #expect(resolved.recordChangeTag == "t2")
  }

  @Test("a client copy saved later than the server's wins the whole record")
  func laterClientCopyWins() throws {
    let server = try Scenario.note(["title": "old", "body": "kept"]).savedByServer(tag: "t1", at: Scenario.t0)
    var client = try Scenario.note(["title": "new"]).savedByServer(tag: "t0", at: Scenario.t0.addingTimeInterval(5))
    client["title"] = "newer"
    let resolved = try ServerLastWriterWins().resolve(Conflict(client: client, ancestor: nil, server: server))
    #expect(resolved["title"] == "newer")
    #expect(resolved["body"] == "kept", "a key the client does not carry is never dropped")
    #expect(resolved.changedKeys == ["title"])
    #expect(resolved.recordChangeTag == "t1")
  }

  @Test("a missing modification date loses, and equal dates keep the server's version")
  func missingAndEqualDates() throws {
    let server = try Scenario.note(["title": "server"]).savedByServer(tag: "t1", at: Scenario.t0)
    let unsaved = try Scenario.note(["title": "client"])
    #expect(
      try ServerLastWriterWins().resolve(Conflict(client: unsaved, ancestor: nil, server: server))["title"] == "server")
    var sameDate = server
    sameDate["title"] = "client"
    #expect(
      try ServerLastWriterWins().resolve(Conflict(client: sameDate, ancestor: nil, server: server))["title"] == "server"
    )
  }
}

@Suite("LocalClockLastWriterWins")
struct LocalClockLastWriterWinsTests {
  /// Device A's clock is right; device B's runs `skew` slow. A edits at 10:00:00, B edits the same base at 10:01:00.
  static func skewedEdits(skew: TimeInterval) throws -> Conflict {
    let base = try Scenario.note(["title": "draft", "editedAt": .timestamp(Scenario.t0)])
      .savedByServer(tag: "t1", at: Scenario.t0)
    var a = base
    a["title"] = "from A"
    a["editedAt"] = .timestamp(Scenario.t0.addingTimeInterval(60))
    let server = base.applying(a, tag: "t2", at: Scenario.t0.addingTimeInterval(60))
    var b = base
    b["title"] = "from B"
    b["editedAt"] = .timestamp(Scenario.t0.addingTimeInterval(120 - skew))
    return Conflict(client: b, ancestor: base, server: server)
  }

  @Test("a device whose clock runs five minutes slow loses an edit it made later in real time")
  func slowClockLosesLaterEdit() throws {
    let resolved = try LocalClockLastWriterWins(key: "editedAt").resolve(Self.skewedEdits(skew: 300))
    #expect(resolved["title"] == "from A", "B edited a minute after A, but its stamp says four minutes before")
    #expect(resolved.changedKeys.isEmpty)
  }

  @Test("with both clocks right, the later edit wins")
  func rightClocksKeepLaterEdit() throws {
    let resolved = try LocalClockLastWriterWins(key: "editedAt").resolve(Self.skewedEdits(skew: 0))
    #expect(resolved["title"] == "from B")
    #expect(resolved.changedKeys == ["title", "editedAt"])
  }

  @Test("a record without a stamp loses to one with a stamp; without both, the server's version stays")
  func missingStamps() throws {
    let stamped = try Scenario.note(["title": "stamped", "editedAt": .timestamp(Scenario.t0)])
    let bare = try Scenario.note(["title": "bare"])
    let resolver = LocalClockLastWriterWins(key: "editedAt")
    let server = bare.savedByServer(tag: "t1", at: Scenario.t0)
    #expect(try resolver.resolve(Conflict(client: stamped, ancestor: nil, server: server))["title"] == "stamped")
    let stampedServer = stamped.savedByServer(tag: "t1", at: Scenario.t0)
    #expect(try resolver.resolve(Conflict(client: bare, ancestor: nil, server: stampedServer))["title"] == "stamped")
    #expect(try resolver.resolve(Conflict(client: bare, ancestor: nil, server: server)).changedKeys.isEmpty)
  }

  @Test("a stamp field of another type is an error naming the key and the side")
  func wrongStampType() throws {
    let client = try Scenario.note(["editedAt": "yesterday"])
    let server = try Scenario.note([:]).savedByServer(tag: "t1", at: Scenario.t0)
    #expect(
      throws: ConflictResolutionError.unexpectedFieldType(
        key: "editedAt", role: .client, expected: .timestamp, found: .string)
    ) {
      try LocalClockLastWriterWins(key: "editedAt").resolve(Conflict(client: client, ancestor: nil, server: server))
    }
  }

  @Test("an encrypted stamp is read too")
  func encryptedStamp() throws {
    var client = try Scenario.note(["title": "client"])
    client.encryptedValues["editedAt"] = .timestamp(Scenario.t0.addingTimeInterval(10))
    let server = try Scenario.note(["title": "server", "editedAt": .timestamp(Scenario.t0)])
      .savedByServer(tag: "t1", at: Scenario.t0)
    let resolved = try LocalClockLastWriterWins(key: "editedAt").resolve(
      Conflict(client: client, ancestor: nil, server: server))
    #expect(resolved["title"] == "client")
    #expect(resolved.encryptedValues["editedAt"] == .timestamp(Scenario.t0.addingTimeInterval(10)))
  }
}

@Suite("EditCountWins")
struct EditCountWinsTests {
  @Test("seed 004's queued edits: the second edit survives, and saving the result lands it")
  func queuedEditSurvives() throws {
    let (conflict, _) = try Scenario.queuedEdits()
    let resolved = try EditCountWins(key: "editCount").resolve(conflict)
    #expect(resolved["title"] == "second")
    #expect(resolved["editCount"] == 3, "the winner's count is kept")
    #expect(resolved.changedKeys == ["title", "editCount"])
    #expect(resolved.recordChangeTag == conflict.server.recordChangeTag, "so the re-save is accepted")
    let saved = conflict.server.applying(resolved, tag: "t3", at: Scenario.t0.addingTimeInterval(2))
    #expect(saved["title"] == "second")
  }

  @Test("a tie keeps the server's version")
  func tieKeepsServer() throws {
    let server = try Scenario.note(["title": "server", "editCount": 4]).savedByServer(tag: "t1", at: Scenario.t0)
    let client = try Scenario.note(["title": "client", "editCount": 4])
    let resolved = try EditCountWins(key: "editCount").resolve(Conflict(client: client, ancestor: nil, server: server))
    #expect(resolved["title"] == "server")
    #expect(resolved.changedKeys.isEmpty)
  }

  @Test(
    "counters never go down: the result's count is the larger of the two", arguments: [(0, 5), (5, 0), (3, 3), (7, 2)])
  func countersNeverGoDown(client: Int64, server: Int64) throws {
    let serverRecord = try Scenario.note(["editCount": .int64(server), "title": "s"]).savedByServer(
      tag: "t1", at: Scenario.t0)
    let clientRecord = try Scenario.note(["editCount": .int64(client), "title": "c"])
    let resolved = try EditCountWins(key: "editCount").resolve(
      Conflict(client: clientRecord, ancestor: nil, server: serverRecord))
    #expect(resolved["editCount"] == .int64(max(client, server)))
  }

  @Test("a missing counter counts as zero")
  func missingCounter() throws {
    let server = try Scenario.note(["title": "server"]).savedByServer(tag: "t1", at: Scenario.t0)
    let client = try Scenario.note(["title": "client", "editCount": 1])
    #expect(
      try EditCountWins(key: "editCount").resolve(Conflict(client: client, ancestor: nil, server: server))["title"]
        == "client")
  }

  @Test("a counter of another type is an error naming it")
  func wrongCounterType() throws {
    let server = try Scenario.note(["editCount": 2.5]).savedByServer(tag: "t1", at: Scenario.t0)
    let client = try Scenario.note(["editCount": 1])
    #expect(
      throws: ConflictResolutionError.unexpectedFieldType(
        key: "editCount", role: .server, expected: .int64, found: .double)
    ) {
      try EditCountWins(key: "editCount").resolve(Conflict(client: client, ancestor: nil, server: server))
    }
  }
}
