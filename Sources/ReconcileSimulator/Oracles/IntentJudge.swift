package import Foundation
package import Reconcile

/// Judges the end state of a run — the server's records and what each device shows — against what users did
/// (``UserHistory``), reading only what any sync client exposes.
///
/// It applies the model the *What the oracles judge* article states: which action saw which comes from ``Causality``;
/// the latest actions on a record, held to the delete policy's and the resolver's contracts, decide its existence and
/// each user key's value. Every record is judged first under the placement of its requests in doubt that the server's
/// log shows; an end state that breaks a contract there is held to the other placements no device can tell from it
/// — a request in doubt landing elsewhere, a deletion's copy still on its way — and when one of them allows it, the
/// record (or the one key) is set aside under that placement's ``SetAside`` reason, which the tally counts.
///
/// ## Rules
/// - **noResurrection**: when every latest action on a record is a deletion (a user's, or under
///   `ZoneLossPolicy.dropLocalData` a zone deletion), the record is absent from the server and every device.
///   A create made after the deletion landed revives it under either policy; under `.editWins` an edit concurrent
///   with the deletion also counts as latest.
/// - **noLostRecords**: when every latest action is a create (or, under `.editWins`, a create or an edit), the
///   record exists on the server; under `.editWins`, also when the latest are a deletion and an edit concurrent with it;
///   under either policy, when the latest are a deletion and a create that had landed as a new record (the version the
///   deletion was made on deleted before it) before the user deleted.
/// - **oneSidedChangesKept**: on a record the server holds, for each user key (every key a user wrote that the final
///   record has, and every key this life's writes name), the latest writes of the key since the record's last
///   deletion decide (a create writes every key its app knows: one it does not set, it removes): one write → the key
///   ends with its value (or absent, for a removal); concurrent writes → with one of their values. A device's own
///   queued or in-flight writes are never excused.
/// - **highestEditCountKept** / **latestStampKept**: per record (per key) since its last deletion, the final edit
///   count (stamp) is at least the highest any device showed after a user's action.
///
/// Writes to a copy the device's storage later damaged, before they landed, are withdrawn: the device throws the
/// copy away.
///
/// A class: the judge's checks hand it to many closures, and a reference is all each one copies.
package final class IntentJudge {
  let history: UserHistory
  let timeline: ServerTimeline
  let deletePolicy: DeletePolicy
  let editCountKey: String?
  let stampsKey: String?
  /// True time zero of the run, for messages.
  let start: Date
  /// The history's actions by record, in order (grouped once, by ``Causality``).
  var byRecord: [RecordID: [UserHistory.Action]] { causality.byRecord }
  /// Which action saw which.
  let causality: Causality
  /// Which placements other than the server log's a check that fails there is held to.
  enum Excuses {
    /// None: the placement the log shows only.
    case none
    /// The narrow ones: one request's, one key's, one race's.
    case narrow
    /// The narrow ones and the widest: a record whose existence turns on a save in doubt that another device's
    /// create or deletion raced (or a deletion's copy landing after a re-create) is set aside whole.
    case all
  }
  /// The placements a failing check is held to; a record one of them explains is set aside under its ``SetAside``
  /// reason. The judge tries none, then the narrow ones, then all, so a record is set aside under the reason nearest
  /// to what happened.
  let excuses: Excuses
  /// Whether a failing check is held to any other placement.
  var excusing: Bool { excuses != .none }

  package init(
    history: UserHistory, timeline: ServerTimeline, deletePolicy: DeletePolicy, editCountKey: String? = nil,
    stampsKey: String? = nil, start: Date = Date(timeIntervalSince1970: 0), contracts: [String: KeyContract] = [:]
  ) {
    self.history = history
    self.timeline = timeline
    self.deletePolicy = deletePolicy
    self.editCountKey = editCountKey
    self.stampsKey = stampsKey
    self.start = start
    causality = Causality(history: history, timeline: timeline, deletePolicy: deletePolicy, contracts: contracts)
    excuses = .all
  }

  /// `other`, held to the placements `excuses` names.
  private init(_ other: IntentJudge, excuses: Excuses) {
    history = other.history
    timeline = other.timeline
    deletePolicy = other.deletePolicy
    editCountKey = other.editCountKey
    stampsKey = other.stampsKey
    start = other.start
    causality = other.causality
    self.excuses = excuses
  }

  /// Judges the final state.
  /// - Parameters:
  ///   - server: The server's records of the zone at quiescence.
  ///   - devices: What each device shows, by device name.
  ///   - invariants: The invariants to judge.
  ///   - tally: Where verdicts go.
  func judge(
    server: [RecordID: Record], devices: [(name: String, records: [RecordID: Record])], invariants: Set<Invariant>,
    into tally: inout InvariantTally
  ) {
    let ids = Set(byRecord.keys).union(server.keys).sorted()
    tally.recordsConsidered += ids.count
    let judges = [Excuses.none, .narrow, .all].map { IntentJudge(self, excuses: $0) }
    for id in ids {
      // The placement the server's log shows is one no device can tell from the others its requests in doubt allow:
      // an end state that keeps every contract there is judged and held. Only one that does not is held to the other
      // placements, which the excuses name: the narrow ones first, then the whole record's doubt.
      let before = tally
      for judge in judges {
        tally = before
        judge.judgeRecord(id, server: server, devices: devices, invariants: invariants, into: &tally)
        if tally.violations.count == before.violations.count { break }
      }
    }
    if !history.hasDeletes && !history.resets.contains(where: \.wipes) {
      tally.inapplicable(.noResurrection, "no user deleted a record and no zone was deleted")
    }
    tally.inapplicable(.noResurrection, "no deleted record stayed deleted (each was re-created or edited concurrently)")
    tally.inapplicable(.noLostRecords, "no record was created without a concurrent deletion")
    tally.inapplicable(.oneSidedChangesKept, "no user write of a key of a record the server holds at the end")
    tally.inapplicable(
      .highestEditCountKept, "no user edit of a record the server holds at the end carried an edit count")
    tally.inapplicable(.latestStampKept, "no user edit of a record the server holds at the end carried field stamps")
  }

  /// What judging an end state found, for tests on synthetic histories: the violations, what each invariant judged,
  /// and the records each reason set aside.
  package func verdict(
    server: [RecordID: Record], devices: [(name: String, records: [RecordID: Record])] = [],
    invariants: Set<Invariant> = Set(Invariant.allCases)
  ) -> (violations: [InvariantViolation], judged: [Invariant: Int], setAside: [SetAside: Int]) {
    var tally = InvariantTally()
    judge(server: server, devices: devices, invariants: invariants, into: &tally)
    return (tally.violations, tally.checks, tally.setAsideCounts)
  }

  /// Judges one record into `tally`, holding a check that fails under the log's placement to ``excuses``.
  private func judgeRecord(
    _ id: RecordID, server: [RecordID: Record], devices: [(name: String, records: [RecordID: Record])],
    invariants: Set<Invariant>, into tally: inout InvariantTally
  ) {
    let actions = byRecord[id] ?? []
    // Whose record survives is unknowable where a save went unanswered and another device created or deleted it.
    if excuses == .all, let reason = unknowable(id, actions: actions) {
      tally.setAside(id, reason)
      return
    }
    var existence = InvariantTally()
    judgeExistence(id, actions: actions, server: server, devices: devices, into: &existence)
    if invariants.contains(.noResurrection) || invariants.contains(.noLostRecords) {
      tally.merge(existence, label: nil)
    }
    guard let final = server[id], !actions.isEmpty else { return }
    // A record a device uploaded again after a zone deletion, though deleted before it, came back with whatever its
    // copy held, values of the deleted life included: they are not judged.
    if existence.setAside[.reuploadedAfterZoneDeletion]?.contains(id) == true {
      tally.setAside(id, .reuploadedAfterZoneDeletion)
      return
    }
    let life = lifeStart(of: id, actions: actions)
    if excusing, deletePolicy == .editWins, life != nil {
      tally.setAside(id, .revivedValues)
      return
    }
    let epoch = actions.filter { !$0.isDelete && !withdrawn($0) && inEpoch($0, since: life, among: actions) }
    let writes = actions.filter { !$0.isDelete && inEpoch($0, since: life, among: actions) }
    let revived = revivedDeletions(of: id)
    let optional = actions.filter {
      optionallyWithdrawn($0, revived: revived) && inEpoch($0, since: life, among: actions)
    }
    if invariants.contains(.oneSidedChangesKept) {
      judgeKeys(
        id, writes: writes, optional: optional, inherited: inheritedWrites(life: life, actions: actions, writes),
        final: final, into: &tally)
    }
    if invariants.contains(.highestEditCountKept) { judgeEditCount(id, epoch: epoch, final: final, into: &tally) }
    if invariants.contains(.latestStampKept) { judgeStamps(id, epoch: epoch, final: final, into: &tally) }
  }

  // MARK: Existence

  private func judgeExistence(
    _ id: RecordID, actions: [UserHistory.Action], server: [RecordID: Record],
    devices: [(name: String, records: [RecordID: Record])], into tally: inout InvariantTally
  ) {
    var ops: [Causality.Event] = actions.filter { action in
      switch action.kind {
      case .delete: !deletionWithdrawn(action)
      case .create: !withdrawn(action)
      case .edit: deletePolicy == .editWins && !withdrawn(action, forExistence: true)
      }
    }.map(Causality.Event.action)
    // A zone deletion that stands for the user deleting (a purge; a client's deletion read as one) removes the record
    // from the server, and from every device that showed a version the server had acknowledged: each drops what it
    // holds of the zone when it learns of the deletion, and keeps (and uploads again) only what the server never
    // acknowledged.
    let wiped = Set((timeline.versions[id] ?? []).filter { $0.isZoneReset && $0.wipes }.map(\.position))
    ops += history.resets.filter { $0.wipes && (wiped.contains($0.position) || ($0.shown[id] ?? 0) > 0) }.map(
      Causality.Event.reset)
    guard !ops.isEmpty else { return }
    var latest = ops.indices.filter { a in
      !ops.indices.contains { b in b != a && causality.sees(ops[b], ops[a], key: nil) }
    }
    .map { ops[$0] }
    // Under editWins, an edit that lost every value it wrote to another device's concurrent write, so that no server
    // version ever carried any of it, revives nothing: no device could see it, and the deletion it raced stands.
    if deletePolicy == .editWins, latest.contains(where: \.isRemoval) {
      latest.removeAll { op in
        guard case .action(let edit) = op else { return false }
        return resolvedAway(edit)
      }
    }
    guard !latest.isEmpty else { return }
    let name = id.recordName
    if latest.allSatisfy(\.isRemoval) {
      if excusing, excusedByReupload(id, latest: latest) {
        tally.setAside(id, .reuploadedAfterZoneDeletion)
        return
      }
      if excusing, revivedByStaleSave(id, latest: latest) {
        tally.setAside(id, .staleSaveRevived)
        return
      }
      if excusing, wipeReasonMasked(latest) || wipeUnheardByReuploader(id, latest: latest) {
        tally.setAside(id, .zoneDeletionReasonLost)
        return
      }
      if excusing, deletePolicy == .editWins, actions.contains(where: { editMayHaveRevived($0, latest: latest) }) {
        tally.setAside(id, .editRemovedByDeletion)
        return
      }
      tally.judged(.noResurrection)
      let what = latest.map(describe).joined(separator: " and ")
      if let kept = server[id] {
        tally.fail(
          .noResurrection,
          "\(name) was deleted (\(what)) and nothing later revived it, yet the server holds it "
            + "(last saved by \(kept.modifiedByDevice ?? "?"))")
      }
      for device in devices where device.records[id] != nil {
        tally.fail(
          .noResurrection, "\(name) was deleted (\(what)) and nothing later revived it, yet \(device.name) shows it")
      }
    } else if latest.allSatisfy({ !$0.isRemoval }) {
      if goneWithZone(id, latest: latest, server: server, into: &tally) { return }
      tally.judged(.noLostRecords)
      if server[id] == nil {
        let what = latest.map(describe).joined(separator: " and ")
        tally.fail(.noLostRecords, "\(what); no deletion came after, yet the server does not hold \(name)")
      }
    } else if let create = createdAnewBeforeDeletion(id, latest: latest) {
      // Whatever the policy, the deletion is of a record that was gone before the user deleted it: the record created
      // since is another, which a client that fetches before it sends a deletion never deletes.
      if goneWithZone(id, latest: latest, server: server, into: &tally) { return }
      tally.judged(.noLostRecords)
      if server[id] == nil {
        let deletions = latest.filter(\.isRemoval).map(describe).joined(separator: " and ")
        tally.fail(
          .noLostRecords,
          "\(describe(.action(create))), and it landed as a new record before \(deletions), on a version deleted "
            + "before that; a deletion must not take a record created anew, yet the server does not hold \(name)")
      }
    } else if deletePolicy == .editWins, !latest.contains(where: { if case .reset = $0 { true } else { false } }) {
      guard
        !excusing
          || !editLandedBeforeConcurrentDeletion(latest)
            && latest.contains(where: { op in
              guard case .action(let edit) = op, !edit.isDelete else { return false }
              return !contested(edit)
            })
      else {
        tally.setAside(id, .editRemovedByDeletion)
        return
      }
      // An edit and a deletion that did not see each other: the edit revives the record — unless a zone deletion took
      // it later and no device held a copy to upload again.
      if goneWithZone(id, latest: latest, server: server, into: &tally) { return }
      tally.judged(.noLostRecords)
      if server[id] == nil {
        let what = latest.map(describe).joined(separator: " and ")
        tally.fail(
          .noLostRecords,
          "\(what), concurrently; under editWins the edit revives it, yet the server does not hold \(name)")
      }
    }
  }

  /// Whether `edit`, a write raced by another device's write, lost every value it wrote to it, and its device saved
  /// the record no more: nothing of it ever reached the server (the conflict's merge kept the other side's values).
  private func resolvedAway(_ edit: UserHistory.Action) -> Bool {
    !edit.isDelete && !edit.writes.isEmpty && contested(edit)
      && edit.writes.keys.allSatisfy { causality.landing(edit, key: $0) == nil }
      && timeline.firstSave(of: edit.recordID, by: edit.device, from: edit.time, where: { _ in true }) == nil
  }

  /// A create among `latest` that every deletion among them missed, though it had landed as a new record before the
  /// user deleted: the version each deletion was made on had been deleted on the server first, with no zone deletion
  /// between. A deletion carries no change tag, so a client must fetch after the user deletes and before it sends
  /// (the fetch shows the record created anew, under another creation date, which the deletion must not touch);
  /// one that sends at once deletes another device's new record. `nil` when no such create is among `latest`.
  private func createdAnewBeforeDeletion(_ id: RecordID, latest: [Causality.Event]) -> UserHistory.Action? {
    var deletions: [UserHistory.Action] = []
    for case .action(let action) in latest {
      guard action.isDelete else { continue }
      deletions.append(action)
    }
    guard !deletions.isEmpty, deletions.count < latest.count, let versions = timeline.versions[id] else { return nil }
    for case .action(let create) in latest where create.isCreate {
      guard let landed = timeline.firstSave(of: id, by: create.device, from: create.time, where: { _ in true })
      else { continue }
      let missedByEvery = deletions.allSatisfy { deletion in
        deletion.base > 0 && landed.time < deletion.time
          && versions.contains {
            $0.record == nil && !$0.isZoneReset && $0.position > deletion.base && $0.position < landed.position
          }
          && !versions.contains { $0.isZoneReset && $0.position > deletion.base && $0.time < deletion.time }
      }
      if missedByEvery { return create }
    }
    return nil
  }

  /// Whether a record that should exist is gone with a zone deletion devices answer by uploading again, as the model
  /// says it must be or as an excuse allows; judged or set aside into `tally` when it is. CloudKit keeps nothing of a
  /// deleted zone, so when every device that held an acknowledged copy lost it to damage before uploading it again,
  /// no client has the record to give back: its absence is judged and holds. When no holder could learn why the zone
  /// went, it may have answered as to a client's deletion, and dropped the copy (an excuse).
  private func goneWithZone(
    _ id: RecordID, latest: [Causality.Event], server: [RecordID: Record], into tally: inout InvariantTally
  ) -> Bool {
    guard server[id] == nil else { return false }
    if noCopyLeftAfterZoneDeletion(id, latest: latest) {
      tally.judged(.noLostRecords)
      return true
    }
    guard excusing, zoneDeletionReasonLost(id, latest: latest) else { return false }
    tally.setAside(id, .zoneDeletionReasonLost)
    return true
  }

  private func describe(_ op: Causality.Event) -> String {
    switch op {
    case .action(let action):
      let verb =
        switch action.kind {
        case .create: "created"
        case .edit: "edited"
        case .delete: "deleted"
        }
      return "\(action.device) \(verb) it at \(seconds(action.time))"
    case .reset(let reset): return "its zone was deleted at \(seconds(reset.time)) (#\(reset.position))"
    }
  }

  private func seconds(_ time: Date) -> String { "t=\(Int(time.timeIntervalSince(start).rounded()))s" }

  // MARK: Keys

  /// Per key, the writes of the life a create replaced that still count: the replacing create, made by an app that did
  /// not know the key (a newer app wrote it), could not remove it, so the key kept the value they left there.
  private func inheritedWrites(life: Life?, actions: [UserHistory.Action], _ writes: [UserHistory.Action])
    -> [String: [UserHistory.Action]]
  {
    guard let life, let creator = life.replacement, creator.knownKeys != nil else { return [:] }
    let current = Set(writes.map(\.order))
    var inherited: [String: [UserHistory.Action]] = [:]
    for action in actions where !action.isDelete && !current.contains(action.order) && !withdrawn(action) {
      for key in action.writes.keys where !creator.decides(key) {
        guard let landed = causality.landing(action, key: key), landed <= life.position else { continue }
        inherited[key, default: []].append(action)
      }
    }
    return inherited
  }

  private func judgeKeys(
    _ id: RecordID, writes: [UserHistory.Action], optional: [UserHistory.Action],
    inherited: [String: [UserHistory.Action]] = [:], final: Record, into tally: inout InvariantTally
  ) {
    // Every user key of the final record is judged, with the keys this life's writes name: a key only an earlier life
    // wrote was removed by the create that began this one.
    var keys = Set(final.allKeys).intersection(history.userKeys)
    for action in writes { keys.formUnion(action.writes.keys) }
    // A device that could not learn why its zone went (a deletion devices answer by uploading again), acting on its
    // old copy after the deletion, may merge the whole copy, every key's old values with it, into the record the
    // other devices uploaded. So may one whose zone's deletion for the user deleting everything was masked, before it
    // read the feed, by a deletion for another reason: it answered that one, and uploaded its old copy whole.
    // (Whatever the key: worked out once for the record.)
    let oldCopyMayReturn =
      !history.resets.isEmpty
      && writes.contains { write in
        reuploadMayLose(write) == .zoneDeletionReasonLost
          && history.resets.contains { !$0.wipes && write.base < $0.position && $0.time < write.time }
          || history.resets.contains { write.base < $0.position && history.reasonMasked(by: write.device, for: $0) }
      }
    // Whether a write was withdrawn by its device's later deletion, or by damage to its copy, does not depend on the
    // key: worked out once for the record.
    let deletedLater = writes.filter { laterDeletion(of: $0) != nil }
    let withdrawnOrders = Set(deletedLater.map(\.order)).union(
      writes.filter { self.damage(after: $0) != nil }.map(\.order))
    let unanswered = history.unansweredSaves[id] ?? []
    for key in keys.sorted() {
      let contract = causality.contract(for: key)
      let writers = (writes + (inherited[key] ?? [])).filter { $0.decides(key) && !keyWithdrawn($0, key: key) }
      let latest = latestWrites(writers, key: key)
      guard !latest.isEmpty else { continue }
      let ended = Observer.value(of: key, in: final)
      // Values of writes an editWins revival may or may not have kept: those that reached the server before the
      // deletion was cancelled or revived (unsent ones went with the deleted copy).
      // And values of writes their device withdrew by deleting the record, that landed first: another device may have
      // built on them, and the deletion may never take (a zone deletion devices answer by uploading again took it).
      let maybe = (optional + deletedLater).filter {
        $0.decides(key) && causality.landing($0, key: key) != nil
      }
      var kept: Bool
      if contract.judgesEdits {
        // A write its device withdrew, by deleting the record or losing its copy to damage, may be in the value or not.
        let all = writes.filter { $0.decides(key) }
        let withdrawn = all.filter { withdrawnOrders.contains($0.order) }
        let required = all.filter { !withdrawnOrders.contains($0.order) }
        switch judgeEdits(key, contract, writers: required, withdrawn: withdrawn + maybe, unanswered: unanswered, ended)
        {
        case .kept: kept = true
        // What comes back with a zone deletion devices answer by uploading again is a copy's, merged key included.
        case .lost where heldByACopyAtReupload(id, key: key, value: ended, after: latest): kept = true
        case .lost where excusing && oldCopyMayReturn:
          tally.setAside(id, .zoneDeletionReasonLost)
          continue
        // A merged key counts every write, so one made before a zone deletion devices answer by uploading again may
        // be lost to another device's older copy, whichever write is latest.
        case .lost where excusing && all.contains(where: basedBeforeReupload):
          tally.setAside(id, all.lazy.compactMap(reuploadMayLose).first ?? .copiesOfUnknownAge)
          continue
        case .lost: kept = false
        case .unknowable where !excusing: kept = false
        case .unknowable:
          tally.setAside(id, .unansweredEditMerged)
          continue
        }
      } else {
        kept = contract.accepts(latest.map { $0.written(key) ?? nil }, ended)
        if !kept, !maybe.isEmpty {
          kept = contract.accepts(latestWrites(writers + maybe, key: key).map { $0.written(key) ?? nil }, ended)
        }
        if !kept, heldByACopyAtReupload(id, key: key, value: ended, after: latest) {
          // What came back with the zone is a copy's: the latest writes, all before the deletion, are in no copy.
          kept = true
        }
        if !kept, excusing, oldCopyMayReturn {
          tally.setAside(id, .zoneDeletionReasonLost)
          continue
        }
        if !kept, excusing, latest.allSatisfy(basedBeforeReupload) {
          let reason = latest.lazy.compactMap(reuploadMayLose).first ?? .copiesOfUnknownAge
          // Copies of unknown age give back what a copy held, whichever wins; never a value none of them held.
          if reason != .copiesOfUnknownAge || heldByACopy(id, key: key, value: ended) {
            tally.setAside(id, reason)
            continue
          }
        }
      }
      // A device whose save went unanswered cannot tell whether its value landed and was overwritten since: when the
      // key ends with that device's latest value of it, it re-sent what it could not know was superseded. Not judged.
      // (A value its own later write replaced is no resend: that write saw it, and its value is what goes again.)
      if !kept, excusing, let ended,
        writers.contains(where: { write in
          unanswered.contains(write.device) && (write.written(key) ?? nil).map { contract.carries(ended, $0) } == true
            && !writers.contains { $0.device == write.device && $0.order > write.order }
        })
      {
        tally.setAside(id, .unansweredValueResent)
        continue
      }
      tally.judged(.oneSidedChangesKept)
      guard !kept else { continue }
      let endedText =
        (ended.map { "\($0)" } ?? "no value")
        + (contract.name == KeyContract.oneOfTheWrites.name ? "" : " (\(contract))")
      if let only = latest.first, latest.count == 1 {
        let wrote =
          (only.written(key) ?? nil).map { "set \(key) of \(id.recordName) to \($0)" }
          ?? "removed \(key) of \(id.recordName)"
        tally.fail(
          .oneSidedChangesKept,
          "\(only.device) \(wrote) at \(seconds(only.time)) (on #\(only.base)); no other write of \(key) raced it, yet the server ended with \(endedText)"
        )
      } else {
        let values = latest.map { "\($0.device): \(($0.written(key) ?? nil).map { "\($0)" } ?? "removed")" }
        tally.fail(
          .oneSidedChangesKept,
          "concurrent writes of \(key) of \(id.recordName) (\(values.joined(separator: ", "))), yet the server ended with \(endedText), none of them"
        )
      }
    }
  }

  /// The writes of `key` no other write among `writers` saw.
  /// What a merging policy's contract says of a key's writes: kept, lost, or unknowable because a device whose save
  /// of the record went unanswered may have merged an edit again.
  private enum EditVerdict { case kept, lost, unknowable }

  /// Judges a key whose contract judges edits, over the writes that count and any of those their devices withdrew (by
  /// deleting the record, or losing their copy to damage) or that an editWins revival may have kept: a merged value is
  /// built from edits, and a withdrawn write's edit may be in it or not, as another device built on it or the copy
  /// carrying it was lost. A device's saves carry its edits in order, so of the writes one deletion or one damage
  /// withdrew, those that landed are the first few: each such run is tried cut after every write (up to 16,384 ways in
  /// all; beyond, all or none). When the edits do not explain the value and a device's save of the record went
  /// unanswered, the device could not tell whether that save landed, so merging its edit again (counting an increment
  /// twice) or not sending it (losing one) is what no client can avoid: unknowable.
  private func judgeEdits(
    _ key: String, _ contract: KeyContract, writers: [UserHistory.Action], withdrawn: [UserHistory.Action],
    unanswered: Set<String>, _ ended: FieldValue?
  ) -> EditVerdict {
    guard let acceptsEdits = contract.acceptsEdits else { return .kept }
    // A create defines the whole record: one that leaves a list key out removes every element there may be when it
    // lands, whatever its device showed (after deleting the record, nothing) — every element a write made before it
    // held, or one that landed first. An element a later write added after the create landed, it never removed.
    let every = writers + withdrawn
    func removedByCreate(_ create: UserHistory.Action) -> [FieldValue] {
      let landed = causality.landing(create, key: nil)
      var elements: [FieldValue] = []
      func landedFirst(_ write: UserHistory.Action) -> Bool {
        guard let written = causality.landing(write, key: key) else { return false }
        return landed.map { written < $0 } ?? true
      }
      for write in every where write.order < create.order || landedFirst(write) {
        for list in [history.base(of: write, key: key), write.written(key) ?? nil].compactMap({ $0?.listValue }) {
          for element in list where !elements.contains(element) { elements.append(element) }
        }
      }
      return elements
    }
    func edit(_ action: UserHistory.Action) -> KeyContract.Edit {
      let value = action.written(key) ?? nil
      if action.isCreate, value == nil {
        let removed = removedByCreate(action)
        if !removed.isEmpty { return (.list(removed), nil) }
      }
      return (history.base(of: action, key: key), value)
    }
    func accepts(_ writes: [UserHistory.Action]) -> Bool {
      let ordered = writes.sorted { $0.order < $1.order }
      let writes = KeyContract.Writes(
        all: ordered.map(edit), latest: latestWrites(ordered, key: key).map(edit),
        sees: { self.causality.sees(ordered[$0], ordered[$1], key: key) })
      return acceptsEdits(writes, ended)
    }
    // Runs of writes one event withdrew, each in order.
    var runs: [[UserHistory.Action]] = []
    var runOf: [String: Int] = [:]
    var seen = Set<Int>()
    for write in withdrawn.sorted(by: { $0.order < $1.order }) where seen.insert(write.order).inserted {
      let event = laterDeletion(of: write)?.order ?? damage(after: write)?.order ?? -write.order
      let id = "\(write.device)#\(event)"
      if let run = runOf[id] {
        runs[run].append(write)
      } else {
        runOf[id] = runs.count
        runs.append([write])
      }
    }
    // Every withdrawn write landed, or none did, most often; then every cut of every run.
    if accepts(writers + runs.joined()) || accepts(writers) { return .kept }
    let ways = runs.reduce(1) { $0 > 16_384 ? $0 : $0 * ($1.count + 1) }
    if ways <= 16_384 {
      for way in 0..<ways {
        var chosen = writers
        var rest = way
        for run in runs {
          chosen += run.prefix(rest % (run.count + 1))
          rest /= run.count + 1
        }
        if accepts(chosen) { return .kept }
      }
    }
    return (writers + withdrawn).contains { unanswered.contains($0.device) } ? .unknowable : .lost
  }

  private func latestWrites(_ writers: [UserHistory.Action], key: String) -> [UserHistory.Action] {
    // Only a later action can see an earlier one.
    writers.filter { a in
      !writers.contains { b in b.order > a.order && causality.sees(b, a, key: key) }
    }
  }

  private func judgeEditCount(
    _ id: RecordID, epoch: [UserHistory.Action], final: Record, into tally: inout InvariantTally
  ) {
    guard let key = editCountKey, let top = epoch.compactMap(\.editCount).max() else { return }
    if case .int64(let count)? = final[key], count >= top {
      tally.judged(.highestEditCountKept)
      return
    }
    // The highest count shown may have been lost to a zone deletion answered by uploading again.
    if excusing, let reason = epoch.filter({ $0.editCount == top }).lazy.compactMap(reuploadMayLose).first {
      tally.setAside(id, reason)
      return
    }
    tally.judged(.highestEditCountKept)
    tally.fail(
      .highestEditCountKept,
      "\(id.recordName) ended with edit count \(final[key]?.description ?? "none"), but a device showed \(top) after a user's edit"
    )
  }

  private func judgeStamps(
    _ id: RecordID, epoch: [UserHistory.Action], final: Record, into tally: inout InvariantTally
  ) {
    guard let key = stampsKey else { return }
    var latest: [String: HybridTimestamp] = [:]
    var stamper: [String: UserHistory.Action] = [:]
    for action in epoch {
      for written in action.writes.keys {
        guard let stamp = action.stamps[written] else { continue }
        if latest[written].map({ $0 < stamp }) ?? true {
          latest[written] = stamp
          stamper[written] = action
        }
      }
    }
    guard !latest.isEmpty else { return }
    let stamps = (try? HybridLogicalClockMerge(stampsKey: key).stamps(in: final)) ?? [:]
    for (field, stamp) in latest.sorted(by: { $0.key < $1.key }) {
      if let kept = stamps[field], kept >= stamp {
        tally.judged(.latestStampKept)
        continue
      }
      // The latest stamp may have been lost to a zone deletion answered by uploading again.
      if excusing, let reason = stamper[field].flatMap(reuploadMayLose) {
        tally.setAside(id, reason)
        continue
      }
      tally.judged(.latestStampKept)
      tally.fail(
        .latestStampKept,
        "\(field) of \(id.recordName) ended stamped \(stamps[field]?.description ?? "none"), but a device stamped \(stamp)"
      )
    }
  }

  /// Where a record's current life began, and the create that began it when one replaced the record.
  struct Life {
    var position: Int
    var time: Date
    var replacement: UserHistory.Action?
  }

  /// Where the record's current life began: its last deletion on the server, or the landing of a create that replaced
  /// it (a user deleted the record on a device and created it again there before the deletion was sent).
  private func lifeStart(of id: RecordID, actions: [UserHistory.Action]) -> Life? {
    var start = timeline.lastDeletion(of: id).map { Life(position: $0.position, time: $0.time) }
    for create in actions where create.isCreate {
      guard let landed = timeline.firstSave(of: id, by: create.device, from: create.time, where: { _ in true }),
        timeline.exists(id, at: landed.position - 1)
      else { continue }
      // It replaced the record when its device's deletion of it never reached the server first.
      let replaces = actions.contains { delete in
        // A deletion withdrawn with the account's data was forgotten: the create after it replaces nothing.
        guard delete.isDelete, delete.device == create.device, delete.order < create.order, !deletionWithdrawn(delete)
        else { return false }
        // The deletion aimed at a server version — the one the device showed, or one it had saved — and that version
        // was still there, undeleted, when the create landed.
        // (One saved before the device acted on the record again: a save of what it did since is no aim of it.)
        let saved = timeline.firstSave(of: id, by: delete.device, from: .distantPast, where: { _ in true }).flatMap {
          save in
          actions.contains { $0.device == delete.device && $0.order > delete.order && $0.time < save.time }
            ? nil : save
        }
        // A save on its way when the user deleted the record (its own create, say) lands after the deletion was made,
        // and is still the version the deletion aims at.
        let aimedAt =
          delete.base > 0 ? delete.base : saved.flatMap { $0.position < landed.position ? $0.position : nil }
        guard let aimedAt else { return false }
        let deletedBetween = timeline.versions[id]?.contains {
          $0.record == nil && $0.position > aimedAt && $0.position < landed.position
        }
        return deletedBetween == false
      }
      guard replaces else { continue }
      if start.map({ landed.position > $0.position }) ?? true {
        start = Life(position: landed.position, time: landed.time, replacement: create)
      }
    }
    return start
  }

  /// Whether an action belongs to the record's current life: it landed in it, or was made after it began on a version
  /// of it (or on a copy its device created anew).
  private func inEpoch(
    _ action: UserHistory.Action, since life: Life?, among actions: [UserHistory.Action]
  ) -> Bool {
    guard let life else { return true }
    // Landed in it: one of its values reached the server in the current life — or, for a create, its record did (the
    // values it set may have been overwritten by its device's later edits before it was sent).
    func landedInLife(_ action: UserHistory.Action) -> Bool {
      !action.isDelete
        && (action.writes.keys.contains(where: { key in
          causality.landing(action, key: key).map { $0 >= life.position } ?? false
        }) || action.isCreate && (causality.landing(action, key: nil).map { $0 >= life.position } ?? false))
    }
    if landedInLife(action) { return true }
    let madeInLife = action.time > life.time
    if madeInLife, action.isCreate || (action.base >= life.position && !action.buildsOnReplacement) { return true }
    guard !action.isCreate, action.base == 0 || action.buildsOnReplacement else { return false }
    // An edit of a copy the server never acknowledged, or of a replacement, builds on its device's create: in this
    // life when that create was made after its start, or landed in it (made before, still on its way when the record
    // was deleted) — and then so does an edit made before the life began on that same copy, even one a later edit
    // overwrote before it was sent.
    return actions.contains { create in
      guard create.isCreate, create.device == action.device, create.order < action.order else { return false }
      if madeInLife { return create.time > life.time || landedInLife(create) }
      let deletedBetween = actions.contains {
        $0.isDelete && $0.device == action.device && $0.order > create.order && $0.order < action.order
      }
      return !deletedBetween && landedInLife(create)
    }
  }
}
