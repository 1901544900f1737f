import Foundation
import Reconcile
import ReconcileSimulator
import Testing

/// A history written by hand: what users did on which device, on which server version, and the server's log.
struct SyntheticRun {
  static let owner = "_user"
  let id: RecordID
  var history = UserHistory()
  var events: [ServerEvent] = []
  private var seconds = 0.0

  init() throws { id = try RecordID(recordName: "r1", zoneID: try ZoneID(zoneName: "Notes")) }

  private mutating func tick() -> Date {
    seconds += 1
    return Date(timeIntervalSince1970: seconds)
  }

  /// A user creates the record on `device` with these values; returns the action's order.
  @discardableResult mutating func create(_ device: String, _ values: [String: String], on base: Int = 0) -> Int {
    act(device, .create(values.mapValues { .string($0) }), on: base)
  }

  /// A user creates the record on `device` and its save lands; returns the action's order and the save's position.
  mutating func createLanded(_ device: String, _ values: [String: String]) -> (action: Int, landed: Int) {
    (create(device, values), saved(by: device, values))
  }

  /// A user edits the record on `device`, made on server version `base`.
  @discardableResult mutating func edit(_ device: String, _ values: [String: String], on base: Int) -> Int {
    act(device, .edit(values.mapValues { .string($0) }), on: base)
  }

  /// A user removes `key` on `device`, made on server version `base`.
  @discardableResult mutating func remove(_ device: String, _ key: String, on base: Int) -> Int {
    act(device, .edit([key: nil]), on: base)
  }

  /// A user deletes the record on `device`, made on server version `base`.
  @discardableResult mutating func delete(_ device: String, on base: Int) -> Int { act(device, .delete, on: base) }

  private mutating func act(_ device: String, _ kind: UserHistory.Action.Kind, on base: Int) -> Int {
    history.record(UserHistory.Action(device: device, time: tick(), recordID: id, kind: kind, base: base))
    return history.actions.count + history.damage.count
  }

  /// The device's copy of the record is damaged.
  mutating func damage(_ device: String) { history.recordDamage(device: device, recordID: id, time: tick()) }

  /// The server saves the record from `device` with these values; returns the history position.
  @discardableResult mutating func saved(by device: String, _ values: [String: String]) -> Int {
    log(device, .saved(record(values)))
  }

  /// The server deletes the record at `device`'s request.
  @discardableResult mutating func deleted(by device: String) -> Int {
    log(device, .deleted(id, recordType: "Note"))
  }

  /// The zone goes with an encrypted-data reset (devices upload what they hold again); returns the history position.
  /// `copies` are the copies devices held at that moment (what they may upload again), by device.
  @discardableResult mutating func zoneReset(copies: [String: [String: String]] = [:]) -> Int {
    let position = events.count + 1
    let time = tick()
    events.append(
      ServerEvent(
        sequence: position, time: time, client: nil, owner: Self.owner,
        kind: .zoneDeleted(id.zoneID, reason: .encryptedDataReset)))
    if !copies.isEmpty {
      history.recordReset(
        UserHistory.ZoneReset(
          time: time, position: position, shown: [id: position - 1], wipes: false,
          holders: [id: Set(copies.keys)], copies: [id: copies.mapValues(record)]))
    }
    return position
  }

  /// Another client deletes the zone, which devices answer by dropping what the server had acknowledged (the user
  /// deleting every record); `shown` is the newest version any device showed at that moment. Returns the position.
  @discardableResult mutating func zoneWiped(shown: Int) -> Int {
    let position = events.count + 1
    let time = tick()
    events.append(
      ServerEvent(
        sequence: position, time: time, client: nil, owner: Self.owner, kind: .zoneDeleted(id.zoneID, reason: .deleted))
    )
    history.recordReset(UserHistory.ZoneReset(time: time, position: position, shown: [id: shown], wipes: true))
    return position
  }

  /// `device` never heard back about its latest save of the record: it cannot know whether it landed. `created` says
  /// whether that save carried no change tag (a create on the wire), which may make the record anew after a deletion.
  mutating func answerLost(_ device: String, created: Bool = false) {
    history.recordSaveSent(id, created: created, device: device)
    history.recordUnanswered(saved: [id], device: device)
  }

  /// `device` never heard back about its deletion of the record: it cannot know when (or whether) it landed.
  mutating func deletionAnswerLost(_ device: String) {
    history.recordUnanswered(saved: [], deleted: [id], device: device)
  }

  /// The record with these values.
  func record(_ values: [String: String]) -> Record {
    var record = Record(recordType: "Note", recordID: id)
    for (key, value) in values { record[key] = .string(value) }
    return record
  }

  /// The judge's verdict on this history when the server ends holding `final` (or nothing), and each device shows
  /// what the server holds.
  func verdict(_ policy: DeletePolicy = .deleteWins, final: [String: String]?) -> (
    violations: [InvariantViolation], judged: [Invariant: Int], setAside: [SetAside: Int]
  ) {
    let judge = IntentJudge(
      history: history, timeline: ServerTimeline(events: events, zoneID: id.zoneID, owner: Self.owner),
      deletePolicy: policy)
    let server = final.map { [id: record($0)] } ?? [:]
    return judge.verdict(server: server, invariants: [.noResurrection, .noLostRecords, .oneSidedChangesKept])
  }

  private mutating func log(_ device: String, _ kind: ServerEvent.Kind) -> Int {
    let position = events.count + 1
    events.append(
      ServerEvent(
        sequence: position, time: tick(), client: ClientIdentity(userRecordName: Self.owner, deviceName: device),
        owner: Self.owner, kind: kind))
    return position
  }

  var causality: Causality {
    Causality(
      history: history, timeline: ServerTimeline(events: events, zoneID: id.zoneID, owner: Self.owner),
      deletePolicy: .deleteWins)
  }

  func action(_ order: Int) throws -> UserHistory.Action {
    try #require(history.actions.first { $0.order == order }, "no action \(order)")
  }

  /// Whether the action numbered `later` saw the one numbered `earlier`.
  func sees(_ later: Int, _ earlier: Int, key: String? = nil) throws -> Bool {
    causality.sees(.action(try action(later)), .action(try action(earlier)), key: key)
  }
}
