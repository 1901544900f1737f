import Foundation
import Reconcile

/// The oracles of one run, fed by the world's events (``WorldListener``).
///
/// The world reports what happened and asks for a ``Verdict`` at the end; everything judged in between lives here:
/// the live checks (``HaltedSendCheck``, ``RetryAfterCheck``, ``TokenOrderCheck``), the record of what users did and
/// what each device could not know (``UserHistory``, ``AnswerLedger``), and the server observer (``Observer``). The
/// end-state judgment is in `Auditor+Verdict.swift`.
struct Auditor: WorldListener, Sendable {
  /// What the run promises and how its records are kept: the auditor's fixed inputs.
  struct Rules: Sendable {
    var invariants: Set<Invariant>
    var deletePolicy: DeletePolicy
    var zoneDeletion: ZoneLossPolicy
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
  /// The keys whose contract judges edits, for which each action keeps the value it started from.
  private let editContractKeys: [String]
  private(set) var history: UserHistory
  /// Per account, the observer of its database (records of one name in two accounts are two records).
  private var observers: [String: Observer] = [:]
  private var ledger = AnswerLedger()
  private var haltedSends = HaltedSendCheck()
  private var retryAfters = RetryAfterCheck()
  private var tokenOrder = TokenOrderCheck()
  /// The privacy check of the run (``Invariant/accountsKeptApart``), which the verdict finishes.
  private(set) var privacy = AccountPrivacyCheck()
  /// Per device, the keys its app knows; absent when it knows every key.
  private var knownKeys: [String: Set<String>] = [:]
  /// Per device and record, where a replacement stands: the user deleted the record there, aiming at a version, and
  /// may create it again. While the device shows no version or one of that life, a copy created since is still the
  /// create's, which has not landed, and its edits belong to the create's life
  /// (``UserHistory/Action/buildsOnReplacement``).
  private var replacements: [String: [RecordID: Replacement]] = [:]
  /// Per device and record, the last version the server acknowledged to it (an answer to its save, or a copy it showed
  /// when a zone deletion took the record): a copy waiting to be uploaded again after a deletion devices answer so
  /// shows no change tag, yet is that version — until the user creates or deletes the record there, or the device
  /// drops what the server had acknowledged.
  private var acknowledged: [String: [RecordID: Int]] = [:]

  private enum Replacement {
    /// Deleted, aiming at the version at this history position; no create since.
    case deleted(aimedAt: Int)
    /// Created again after that deletion.
    case created(replacing: Int)
  }

  init(rules: Rules) {
    self.rules = rules
    history = UserHistory(primaryAccount: rules.owner)
    editContractKeys = rules.contracts.filter { $0.value.judgesEdits }.map(\.key).sorted()
  }

  /// Token moves compared and retry-afters handed so far: counts the run's statistics report.
  var tokenChecks: Int { tokenOrder.checks }
  var retryAftersHanded: Int { retryAfters.handed }

  // MARK: Listening

  mutating func appInstalled(on device: String, knownKeys keys: Set<String>?) { knownKeys[device] = keys }

  mutating func requestSent(by index: Int, _ device: String, _ request: ServerRequest, halted: Bool, at now: Date) {
    if case .modifyRecords(let modify) = request {
      for record in modify.saving {
        history.recordSaveSent(record.recordID, created: record.recordChangeTag == nil, device: device)
      }
    }
    haltedSends.requestSent(by: index, device, request, halted: halted, at: now)
    retryAfters.requestSent(by: index, device, request, halted: halted, at: now)
  }

  mutating func requestLost(by device: String, _ request: ServerRequest) {
    ledger.requestLost(request, device: device, into: &history)
  }

  mutating func serverAnswered(_ device: String, _ answer: Result<ServerReply, CloudKitError>) {
    ledger.serverAnswered(answer, device: device, into: &history)
  }

  mutating func answerLost(to device: String, saving: [RecordID], _ answer: Result<ServerReply, CloudKitError>) {
    ledger.answerLost(saving: saving, answer, device: device, into: &history)
  }

  mutating func answerDelivered(
    to index: Int, _ device: String, requestID: Int, _ answer: Result<ServerReply, CloudKitError>, saving: [RecordID],
    awaited: Bool, at now: Date
  ) {
    ledger.answerDelivered(
      answer, requestID: requestID, saving: saving, awaited: awaited, index: index, device: device, into: &history)
    if awaited, case .success(.databaseChanges) = answer { history.recordDatabaseRead(by: device, at: now) }
    if awaited, case .success(.modifyRecords(let reply)) = answer {
      for record in reply.saved {
        let position = shownPosition(record, on: device)
        if position > 0 { acknowledged[device, default: [:]][record.recordID] = position }
      }
    }
    retryAfters.answerDelivered(
      to: index, device, requestID: requestID, answer, saving: saving, awaited: awaited, at: now)
  }

  mutating func crashed(_ index: Int, _ device: String, lostAnswer: (saved: [RecordID], deleted: [RecordID])?) {
    retryAfters.crashed(index, device, lostAnswer: lostAnswer)
    if let lostAnswer {
      history.recordUnanswered(saved: lostAnswer.saved, deleted: lostAnswer.deleted, device: device)
    }
  }

  mutating func tokenMoved(on device: String, from before: ZoneChangeToken?, to after: ZoneChangeToken?) {
    tokenOrder.tokenMoved(on: device, from: before, to: after)
  }

  mutating func halted(_ device: String) { haltedSends.halted(device) }

  mutating func serverChanged(_ event: ServerEvent) {
    observers[event.owner ?? "", default: Observer()].observe(event, knownKeys: knownKeys)
    if case .saved(let record) = event.kind {
      privacy.check(
        record, account: event.owner, where: "saved by \(event.client?.deviceName ?? "the server") into the database")
    }
  }

  mutating func accountChanged(
    on device: String, to account: String?, response: AccountChangePolicy, at now: Date
  ) {
    privacy.accountChanged()
    history.recordAccountChange(device: device, to: account, response: response, time: now)
    // What the device replaced or had acknowledged under the old account is no concern of the new one's.
    replacements[device] = nil
    acknowledged[device] = nil
  }

  /// The user of `device` answered the question an account change asked; under a keep, the caller then records each
  /// kept record as the user's create (``keptValues(of:)``).
  mutating func accountAnswered(on device: String, keepingData: Bool, at now: Date) {
    history.recordAccountAnswer(device: device, keepingData: keepingData, time: now)
    replacements[device] = nil
    acknowledged[device] = nil
  }

  /// The values a user wrote of `record` (bookkeeping fields left out): what a kept record carries into the account
  /// signed in to, as the user's own.
  func keptValues(of record: Record) -> [String: FieldValue] {
    var values: [String: FieldValue] = [:]
    for key in record.allKeys where history.userKeys.contains(key) {
      if let value = Observer.value(of: key, in: record) { values[key] = value }
    }
    return values
  }

  /// The account whose records `device` shows (``UserHistory/holdingAccount(of:)``).
  func holdingAccount(of device: String) -> String? { history.holdingAccount(of: device) }

  /// The account a user's write on `device` is for now (``UserHistory/writingAccount(of:)``).
  func writingAccount(of device: String) -> String? { history.writingAccount(of: device) }

  mutating func userWrote(_ values: [FieldValue?], under account: String?) {
    privacy.userWrote(values, account: account)
  }

  mutating func zoneDeleted(
    position: Int, reason: SyncEngine.ZoneDeletion.Reason, shown: [(device: String, records: [Record])], at now: Date
  ) {
    var positions: [RecordID: Int] = [:]
    var holders: [RecordID: Set<String>] = [:]
    var copies: [RecordID: [String: Record]] = [:]
    let wipes = rules.zoneDeletion.dropsLocalData(after: reason)
    for (device, records) in shown {
      for record in records {
        var seen = shownPosition(record, on: device)
        // A copy waiting to be uploaded again after an earlier deletion devices answer so shows no change tag; it is
        // the version the device showed then.
        if seen == 0, let earlier = acknowledged[device]?[record.recordID] { seen = earlier }
        positions[record.recordID] = max(positions[record.recordID] ?? 0, seen)
        if !StorageDamage.isDamaged(record) {
          holders[record.recordID, default: []].insert(device)
          if !wipes { copies[record.recordID, default: [:]][device] = record }
        }
        if seen > 0 { acknowledged[device, default: [:]][record.recordID] = wipes ? nil : seen }
      }
    }
    history.recordReset(
      UserHistory.ZoneReset(
        time: now, position: position, shown: positions, wipes: wipes, holders: holders, copies: copies))
  }

  mutating func databaseFeedCompacted(for device: String?, at now: Date) {
    history.recordFeedCompaction(for: device, at: now)
  }

  mutating func storageDamaged(on device: String, recordID: RecordID, at now: Date) {
    history.recordDamage(device: device, recordID: recordID, time: now)
  }

  /// The server history position of a version `device` shows (0 for none, or one without a change tag): what the
  /// device had seen of the record, in the database of the account it is signed in to.
  private func shownPosition(_ record: Record?, on device: String) -> Int {
    guard let tag = record?.recordChangeTag, let account = history.account(of: device) else { return 0 }
    return observers[account]?.tagPosition[tag] ?? 0
  }

  /// A user acted: adds the action to the ground truth, based on the version the device showed (a create is based on
  /// nothing), with the edit count and stamps the device shows after it.
  mutating func userActed(
    on device: String, recordID: RecordID, kind: UserAction, shownBefore before: Record?,
    shownAfter after: Record?, at now: Date
  ) {
    var action = UserHistory.Action(device: device, time: now, recordID: recordID, kind: kind, base: 0)
    if case .edit = kind {} else { acknowledged[device]?[recordID] = nil }
    let shown = shownPosition(before, on: device)
    let replacement = replacements[device]?.removeValue(forKey: recordID)
    switch (kind, replacement) {
    case (.create, .deleted(let aimedAt)?):
      replacements[device, default: [:]][recordID] = .created(replacing: aimedAt)
    case (.create, _):
      break
    case (.delete, _):
      action.base = shown
      replacements[device, default: [:]][recordID] = .deleted(aimedAt: shown)
    case (.edit, .created(let replacing)?)
    where (history.account(of: device).flatMap { observers[$0] } ?? Observer()).replacementUnlanded(
      of: recordID, on: device, deleted: replacing, shown: shown):
      // An edit of the device's own create, replacing the record it deleted: it belongs to that create's life, not
      // to the one replaced (which another device may delete).
      action.base = shown
      action.buildsOnReplacement = true
      replacements[device, default: [:]][recordID] = replacement
    case (.edit, _):
      action.base = shown
    }
    action.knownKeys = knownKeys.isEmpty ? nil : knownKeys[device]
    var bases: [String: FieldValue?] = [:]
    for key in editContractKeys where action.written(key) != nil {
      bases[key] = .some(before.flatMap { Observer.value(of: key, in: $0) })
    }
    // A removal's base too, whatever the key: one of a key the copy did not hold changed nothing, so no save proves it.
    // (Only an edit removes a key: a create's values are all set.)
    if case .edit(let written) = kind {
      for (key, value) in written where value == nil && bases[key] == nil {
        bases[key] = .some(before.flatMap { Observer.value(of: key, in: $0) })
      }
    }
    if let after {
      if let key = rules.editCountKey, case .int64(let count)? = after[key] { action.editCount = count }
      if let key = rules.stampsKey {
        action.stamps = (try? HybridLogicalClockMerge(stampsKey: key).stamps(in: after)) ?? [:]
      }
    }
    history.record(action, before: bases)
  }

  /// Violations found while the run went on, in the order each check found them.
  var liveViolations: [InvariantViolation] {
    haltedSends.violations + retryAfters.violations + tokenOrder.violations
      + observers.sorted { $0.key < $1.key }.flatMap(\.value.violations) + privacy.violations
  }

  /// Damaged copies, halts and unknown-key saves seen: what the invariants judged while running judged.
  var damageCount: Int { history.damage.filter { $0.recordID != nil }.count }
  var haltCount: Int { haltedSends.halts }
  var tagsIssued: Int { observers.values.reduce(0) { $0 + $1.tagPosition.count } }
  var unknownKeySaves: Int { observers.values.reduce(0) { $0 + $1.unknownKeySaves } }

  /// Stale overwrites of user keys the server observer saw. A key whose contract judges edits is left to its
  /// contract: users' own edits bring its older values back (a tag removed and added again, a counter up and down),
  /// so a value that returns says nothing of a stale save.
  func staleOverwrites() -> [InvariantViolation] {
    observers.sorted { $0.key < $1.key }.flatMap {
      $0.value.staleOverwrites(
        among: history.userKeys.subtracting(editContractKeys), unanswered: history.unansweredSaves)
    }
  }
}
