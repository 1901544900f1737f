import Foundation
import Reconcile

/// The oracles of one run, fed by the world's events (``WorldEvent``).
///
/// The world reports what happened and asks for a ``Verdict`` at the end; everything judged in between lives here:
/// the live checks (``HaltedSendCheck``, ``RetryAfterCheck``, ``TokenOrderCheck``), the record of what users did and
/// what each device could not know (``UserHistory``, ``AnswerLedger``), and the server observer (``Observer``). The
/// end-state judgment is in `Auditor+Verdict.swift`.
struct Auditor: Sendable {
  /// What the run promises and how its records are kept: the auditor's fixed inputs.
  struct Rules: Sendable {
    var invariants: Set<Invariant>
    var deletePolicy: DeletePolicy
    var zoneDeletion: ZoneDeletionResponse
    var editCountKey: String?
    var stampsKey: String?
    var contracts: [String: KeyContract]
    /// Whether every app knows every key (the run declares no schemas).
    var appsKnowEveryKey: Bool
    /// The zone the devices sync and its owner.
    var zoneID: ZoneID
    var owner: String
    /// True time zero of the run, for messages.
    var start: Date
  }

  let rules: Rules
  private(set) var history = UserHistory()
  private var observer = Observer()
  private var ledger = AnswerLedger()
  private var haltedSends = HaltedSendCheck()
  private var retryAfters = RetryAfterCheck()
  private var tokenOrder = TokenOrderCheck()
  /// Per device, the keys its app knows; absent when it knows every key.
  private var knownKeys: [String: Set<String>] = [:]

  init(rules: Rules) { self.rules = rules }

  /// Token moves compared and retry-afters handed so far: counts the run's statistics report.
  var tokenChecks: Int { tokenOrder.checks }
  var retryAftersHanded: Int { retryAfters.handed }

  /// Learns what happened at `now`.
  mutating func hear(_ event: WorldEvent, at now: Date) {
    switch event {
    case .appInstalled(let device, let keys):
      knownKeys[device] = keys
    case .userActed(_, let device, let id, let kind, let before, let after):
      userActed(device: device, recordID: id, kind: kind, before: before, after: after, at: now)
    case .requestSent(let index, let device, let request, let halted):
      haltedSends.requestSent(by: device, request, halted: halted)
      retryAfters.requestSent(by: index, device, request, at: now)
    case .requestLost(let device, let request):
      ledger.requestLost(request, device: device, into: &history)
    case .serverAnswered(let device, let answer):
      ledger.serverAnswered(answer, device: device, into: &history)
    case .answerLost(let device, let saving, let answer):
      ledger.answerLost(saving: saving, answer, device: device, into: &history)
    case .answerDelivered(let index, let device, let requestID, let answer, let saving, let awaited):
      ledger.answerDelivered(
        answer, requestID: requestID, saving: saving, awaited: awaited, index: index, device: device, into: &history)
      if awaited { retryAfters.answerTaken(by: index, answer, at: now) }
    case .crashed(let index, let device, let lost):
      retryAfters.crashed(index)
      if let lost { history.recordUnanswered(saved: lost.saved, deleted: lost.deleted, device: device) }
    case .tokenMoved(let device, let before, let after):
      tokenOrder.tokenMoved(on: device, from: before, to: after)
    case .halted:
      haltedSends.deviceHalted()
    case .serverChanged(let change):
      observer.observe(change, knownKeys: knownKeys)
    case .zoneDeleted(let position, let shown):
      var positions: [RecordID: Int] = [:]
      for records in shown {
        for record in records {
          positions[record.recordID] = max(positions[record.recordID] ?? 0, shownPosition(record))
        }
      }
      history.recordReset(UserHistory.ZoneReset(time: now, position: position, shown: positions))
    case .storageDamaged(let device, let id):
      history.recordDamage(device: device, recordID: id, time: now)
    }
  }

  /// The server history position of a version a device shows (0 for none, or one without a change tag): what the
  /// device had seen of the record.
  private func shownPosition(_ record: Record?) -> Int {
    record?.recordChangeTag.flatMap { observer.tagPosition[$0] } ?? 0
  }

  /// A user acted: adds the action to the ground truth, based on the version the device showed (a create is based on
  /// nothing), with the edit count and stamps the device shows after it.
  private mutating func userActed(
    device: String, recordID: RecordID, kind: UserHistory.Action.Kind, before: Record?, after: Record?, at now: Date
  ) {
    var action = UserHistory.Action(device: device, time: now, recordID: recordID, kind: kind, base: 0)
    if !action.isCreate { action.base = shownPosition(before) }
    action.knownKeys = knownKeys[device]
    if let after {
      if let key = rules.editCountKey, case .int64(let count)? = after[key] { action.editCount = count }
      if let key = rules.stampsKey {
        action.stamps = (try? HybridLogicalClockMerge(stampsKey: key).stamps(in: after)) ?? [:]
      }
    }
    history.record(action)
  }

  /// Violations found while the run went on, in the order each check found them.
  var liveViolations: [InvariantViolation] {
    haltedSends.violations + retryAfters.violations + tokenOrder.violations + observer.violations
  }

  /// Damaged copies, halts and unknown-key saves seen: what the invariants judged while running judged.
  var damageCount: Int { history.damage.count }
  var haltCount: Int { haltedSends.halts }
  var tagsIssued: Int { observer.tagPosition.count }
  var unknownKeySaves: Int { observer.unknownKeySaves }

  /// Stale overwrites of user keys the server observer saw.
  func staleOverwrites() -> [InvariantViolation] {
    observer.staleOverwrites(among: history.userKeys, unanswered: history.unansweredSaves)
  }
}
