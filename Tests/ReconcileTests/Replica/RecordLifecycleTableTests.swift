import Foundation
import Reconcile
import Testing

/// One record's sync state, driven without a server: the state a few steps leave it in, one event, the state after
/// and what the engine is left to send. Each row names the rule it pins; a row whose rule can be switched off (the
/// zoo's flaws) is also run without it, and must then fail.
@Suite("RecordSyncState: one record's lifecycle, state by event")
struct RecordLifecycleTableTests {
  /// One thing that happens to the note `n1`.
  enum Step: CustomStringConvertible {
    /// The user creates it, titled.
    case create(String)
    /// The user edits its title.
    case edit(String)
    /// The user deletes it.
    case delete
    /// The engine asks for a batch.
    case batch
    /// The last batch's save of it landed, as `tag`.
    case saved(String)
    /// The last batch's save of it went unanswered.
    case answerLost
    /// The last batch's save was refused by `serverRecordChanged`, without the server's record.
    case refusedWithoutRecord
    /// The last batch's save was refused by `serverRecordChanged`, the server holding `body` at `tag`.
    case conflict(tag: String, body: String)
    /// A fetch that starts now and finds the zone unchanged.
    case fetchUnchanged
    /// A fetch brings a version another device saved: `body` at `tag`.
    case fetched(tag: String, body: String)
    /// A fetch brings its deletion.
    case fetchedDeletion
    /// The database feed reports the zone deleted, for `reason`.
    case zoneDeleted(SyncEngine.ZoneDeletion.Reason)
    /// The app is killed and launched again.
    case relaunch
    /// The user switches accounts.
    case accountSwitch
    /// A fetch lists the zone from its beginning (the first fetch does), bringing the server version known.
    case listed

    var description: String {
      switch self {
      case .create(let title): "create \(title)"
      case .edit(let title): "edit \(title)"
      case .delete: "delete"
      case .batch: "batch"
      case .saved(let tag): "saved \(tag)"
      case .answerLost: "answer lost"
      case .refusedWithoutRecord: "refused without record"
      case .conflict(let tag, _): "conflict with \(tag)"
      case .fetchUnchanged: "fetch, zone unchanged"
      case .fetched(let tag, _): "fetched \(tag)"
      case .fetchedDeletion: "fetched deletion"
      case .zoneDeleted(let reason): "zone deleted (\(reason))"
      case .relaunch: "relaunch"
      case .accountSwitch: "account switch"
      case .listed: "listed"
      }
    }
  }

  struct Row: CustomTestStringConvertible, Sendable {
    var rule: String
    var given: [Step]
    var before: String
    var event: Step
    var after: String
    var pending: [String]
    /// The flaw that switches the row's rule off, if the zoo has one (by its defect's name).
    var without: String? = nil
    var testDescription: String { rule }
  }

  static let created: [Step] = [.create("milk"), .batch, .saved("t1"), .listed]

  static let rows: [Row] = [
    Row(
      rule: "a create handed to the engine may land: it is noted, with the version sent",
      given: [.create("milk")], before: "no server version", event: .batch,
      after: "no server version, create handed out, 1 save unanswered", pending: ["save n1"]),
    Row(
      rule: "a create whose answer is lost is in doubt, and a late copy of it may land",
      given: [.create("milk"), .batch], before: "no server version, create handed out, 1 save unanswered",
      event: .answerLost,
      after: "no server version, create handed out, create in doubt, late create may land, 1 save unanswered",
      pending: ["save n1"]),
    Row(
      rule: "a save answered is the server version known, and nothing waits",
      given: [.create("milk"), .batch], before: "no server version, create handed out, 1 save unanswered",
      event: .saved("t1"), after: "server t1", pending: []),
    Row(
      rule: "a deletion waits for a fetch that starts after it",
      given: created, before: "server t1", event: .delete, after: "server t1, deletion owed (awaits fetch)",
      pending: ["delete n1"]),
    Row(
      rule: "a fetch that starts after a deletion and finds the zone unchanged lets it go",
      given: created + [.delete], before: "server t1, deletion owed (awaits fetch)", event: .fetchUnchanged,
      after: "server t1, deletion owed", pending: ["delete n1"]),
    Row(
      rule: "a deletion owed of a record the server deleted is moot",
      given: created + [.delete], before: "server t1, deletion owed (awaits fetch)", event: .fetchedDeletion,
      after: "server t1", pending: [], without: "ignore-fetched-deletions"),
    Row(
      rule: "a new record deleted before it was handed out is deleted here only, remembered",
      given: [.create("milk")], before: "no server version", event: .delete,
      after: "no server version, deleted here only",
      pending: []),
    Row(
      rule: "a new record deleted while its create may land owes the server its deletion",
      given: [.create("milk"), .batch, .answerLost],
      before: "no server version, create handed out, create in doubt, late create may land, 1 save unanswered",
      event: .delete,
      after:
        "untagged copy as server version, deletion owed (awaits fetch), create handed out, create in doubt, late create may land, 1 save unanswered",
      pending: ["delete n1"], without: "drop-unacknowledged-deletes"),
    Row(
      rule: "a conflict without the server's record holds the save until a fetch brings that version",
      given: created + [.edit("oat milk"), .batch], before: "server t1, 1 save unanswered",
      event: .refusedWithoutRecord, after: "server t1, save awaits fetch, 1 save unanswered", pending: ["save n1"]),
    Row(
      rule: "a conflict with the server's record merges, and the merge is the next save's base",
      given: created + [.edit("oat milk"), .batch], before: "server t1, 1 save unanswered",
      event: .conflict(tag: "t2", body: "2 litres"), after: "server t2, 1 save unanswered", pending: ["save n1"],
      without: "resolve-without-resend"),
    Row(
      rule: "a fetched version merges over the server version known, and becomes it",
      given: created + [.edit("oat milk")], before: "server t1", event: .fetched(tag: "t2", body: "2 litres"),
      after: "server t2", pending: ["save n1"], without: "overwrite-unsent-edits"),
    Row(
      rule: "a relaunch takes a create handed out for one that may land late",
      given: [.create("milk"), .batch], before: "no server version, create handed out, 1 save unanswered",
      event: .relaunch, after: "no server version, create handed out, late create may land, 1 save unanswered",
      pending: ["save n1"]),
    Row(
      rule: "a user's zone deletion drops what the server had, and its sync state",
      given: created, before: "server t1", event: .zoneDeleted(.deleted), after: "server t1", pending: []),
    Row(
      rule: "an encrypted-data reset uploads the copy again, over the version known",
      given: created, before: "server t1", event: .zoneDeleted(.encryptedDataReset),
      after: "server t1, uploaded again, uploaded after zone loss", pending: ["save n1"],
      without: "reset-treated-as-purge"),
    Row(
      rule: "a record created again while its deletion is owed replaces it",
      given: created + [.delete], before: "server t1, deletion owed (awaits fetch)", event: .create("eggs"),
      after: "server t1, replaces a deletion", pending: ["save n1"]),
    Row(
      rule: "an account switch forgets the previous account's records and their state",
      given: created + [.edit("oat milk")], before: "server t1", event: .accountSwitch, after: "no server version",
      pending: [], without: "keep-data-across-accounts"),
  ]

  /// A replica, and what the engine holds, for the row's device.
  struct Device {
    var replica: ZoneReplica<DictionaryReplicaStore>
    var state = SyncEngine.State()
    var sent: [Record] = []
    let zone: ZoneID
    let id: RecordID
    var time = 10.0

    init(flaws: Set<String>, persistence: ReplicaPersistence = .oneTransaction) throws {
      zone = try ZoneID(zoneName: "Notes")
      id = try RecordID(recordName: "n1", zoneID: zone)
      var configuration = ReplicaConfiguration(
        zoneID: zone, deviceName: "phone", resolver: FieldMerge(), deletePolicy: .deleteWins)
      configuration.persistence = persistence
      configuration.flaws = Set(ReplicaFlaw.allCases.filter { flaws.contains(Self.name(of: $0)) })
      replica = ZoneReplica(configuration: configuration, store: DictionaryReplicaStore())
    }

    /// `dropEditsDuringSave` as `drop-edits-during-save`.
    static func name(of flaw: ReplicaFlaw) -> String {
      "\(flaw)".reduce(into: "") { name, character in
        if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
      }
    }

    /// The server's version `tag`: the last one known, with `body` set by another device.
    func version(tag: String, body: String?) -> Record {
      var record = replica.metadata.syncState(of: id).serverVersion ?? Record(recordType: "Note", recordID: id)
      record.recordChangeTag = tag
      record.creationDate = Date(timeIntervalSince1970: 1)
      if let body { record["body"] = .string(body) }
      record.clearChangedKeys()
      return record
    }

    mutating func run(_ step: Step) throws {
      time += 1
      let now = Date(timeIntervalSince1970: time)
      switch step {
      case .create(let title):
        var note = Record(recordType: "Note", recordID: id)
        note["title"] = .string(title)
        try replica.create(note, at: now, syncEngine: &state)
      case .edit(let title):
        try replica.edit(id, setting: ["title": .string(title)], at: now, syncEngine: &state)
      case .delete:
        try replica.delete(id, at: now, syncEngine: &state)
      case .batch:
        sent = replica.nextRecordZoneChangeBatch(.init(reason: .scheduled), syncEngine: &state)?.recordsToSave ?? []
      case .saved(let tag):
        var landed = sent.first ?? version(tag: tag, body: nil)
        landed.recordChangeTag = tag
        landed.creationDate = Date(timeIntervalSince1970: 1)
        landed.clearChangedKeys()
        state.remove(pendingRecordZoneChanges: [.saveRecord(id)])
        replica.handleEvent(.sentRecordZoneChanges(.init(savedRecords: [landed])), syncEngine: &state)
      case .answerLost, .refusedWithoutRecord, .conflict:
        guard let record = sent.first else { return }
        var error = CloudKitError(code: .networkFailure)
        if case .refusedWithoutRecord = step { error = CloudKitError(code: .serverRecordChanged) }
        if case .conflict(let tag, let body) = step {
          let server = version(tag: tag, body: body)
          error = CloudKitError(
            code: .serverRecordChanged, conflict: Conflict(client: record, ancestor: nil, server: server))
        }
        if error.code == .serverRecordChanged { state.remove(pendingRecordZoneChanges: [.saveRecord(id)]) }
        replica.handleEvent(
          .sentRecordZoneChanges(.init(savedRecords: [], failedRecordSaves: [.init(record: record, error: error)])),
          syncEngine: &state)
      case .fetchUnchanged:
        fetch([.fetchedDatabaseChanges(.init(modifications: [], deletions: []))])
      case .fetched(let tag, let body):
        let server = version(tag: tag, body: body)
        fetch(zonePage(.init(modifications: [server], deletions: [])))
      case .fetchedDeletion:
        fetch(zonePage(.init(modifications: [], deletions: [DeletedRecord(recordID: id, recordType: "Note")])))
      case .zoneDeleted(let reason):
        fetch([.fetchedDatabaseChanges(.init(modifications: [], deletions: [.init(zoneID: zone, reason: reason)]))])
      case .relaunch:
        replica.relaunch()
      case .listed:
        let known = replica.metadata.syncState(of: id).serverVersion
        fetch(zonePage(.init(modifications: known.map { [$0] } ?? [], deletions: [])))
      case .accountSwitch:
        // The engine resets its state, clearing what was pending, before it tells the app.
        state = SyncEngine.State()
        replica.handleEvent(
          .accountChange(.switchAccounts(previousUser: "alice", currentUser: "bob")), syncEngine: &state)
      }
    }

    func zonePage(_ page: SyncEngine.FetchedRecordZoneChanges) -> [SyncEngine.Event] {
      [
        .fetchedDatabaseChanges(.init(modifications: [zone], deletions: [])), .willFetchRecordZoneChanges(zone),
        .fetchedRecordZoneChanges(page), .didFetchRecordZoneChanges(zone, error: nil),
      ]
    }

    mutating func fetch(_ events: [SyncEngine.Event]) {
      for event in [.willFetchChanges] + events + [.didFetchChanges] { replica.handleEvent(event, syncEngine: &state) }
    }

    var stateLine: String {
      let state = replica.metadata.syncState(of: id)
      // A version noted before any server version, from the copy the user deleted, has no tag.
      return state.description.replacingOccurrences(of: "server untagged", with: "untagged copy as server version")
    }

    var pending: [String] {
      state.pendingRecordZoneChanges.map {
        switch $0 {
        case .saveRecord(let id): "save \(id.recordName)"
        case .deleteRecord(let id): "delete \(id.recordName)"
        }
      }
    }
  }

  static func outcome(of row: Row, flaws: Set<String> = []) throws -> (before: String, after: String, pending: [String])
  {
    var device = try Device(flaws: flaws)
    for step in row.given { try device.run(step) }
    let before = device.stateLine
    try device.run(row.event)
    return (before, device.stateLine, device.pending)
  }

  @Test("state × event → the next state and what is left to send", arguments: rows)
  func row(_ row: Row) throws {
    let outcome = try Self.outcome(of: row)
    #expect(outcome.before == row.before, "given \(row.given)")
    #expect(outcome.after == row.after, "after \(row.event)")
    #expect(outcome.pending == row.pending, "after \(row.event)")
  }

  @Test("a row whose rule is switched off fails", arguments: rows.filter { $0.without != nil })
  func rowFailsWithoutItsRule(_ row: Row) throws {
    let flaw = try #require(row.without)
    #expect(ReplicaFlaw.allCases.contains { Device.name(of: $0) == flaw }, "no flaw named \(flaw)")
    let outcome = try Self.outcome(of: row, flaws: [flaw])
    #expect(
      outcome.before != row.before || outcome.after != row.after || outcome.pending != row.pending,
      "without \(flaw) the row still holds: it does not pin its rule")
  }
}
