import Foundation
import Reconcile

/// The judge's named excuses: what no client can know or be held to — a request in doubt, a deletion's copy still on
/// its way, a write its own user withdrew — each a rule the *What the oracles judge* article states. A rule that sets a
/// record aside names its ``SetAside`` reason; the judgments in `IntentJudge.swift` ask these and never decide doubt
/// themselves.
extension IntentJudge {
  /// A device's deletion of the record landed unheard of (its answer lost, a stale copy after the device gave up, or a
  /// duplicate), after a create or a reviving edit made since: deletions carry no change tag, so a copy of the deletion still on its way
  /// deletes the new record, whoever created it, and no client can call it back. Or a device saved the record and never
  /// got the answer, and another device deleted or created it: the change feed
  /// reports a deletion the same whether it removed the unanswered save or an older record with the same ID, and a
  /// record under that ID the same whether it is the unanswered save or another device's, so no client can tell whose
  /// record it deletes or keeps. Existence is not judged then (see ``SetAside``).
  func unknowable(_ id: RecordID, actions: [UserHistory.Action]) -> SetAside? {
    if let deleters = history.unansweredDeletes[id],
      actions.contains(where: { create in
        // A create, or an edit whose save re-created the record (under `.editWins`, an edit revives a deletion).
        guard !create.isDelete,
          actions.contains(where: { $0.isDelete && deleters.contains($0.device) && $0.order < create.order }),
          let landed = timeline.firstSave(of: id, by: create.device, from: create.time, where: { _ in true })
        else { return false }
        return timeline.versions[id]?.contains {
          $0.record == nil && $0.position > landed.position && $0.device.map(deleters.contains) == true
        } == true
      })
    {
      return .lateDeletionCopy
    }
    guard let unanswered = history.unansweredSaves[id], !unanswered.isEmpty else { return nil }
    // Another device than one whose save went unanswered: two devices may each have an unanswered save.
    // A create or deletion the device's write had seen is ordered before it by what the device knew; any other — made
    // later, or concurrently — may have met the unanswered save on the server before or after it landed, and the
    // device, which never learned where its save landed, cannot tell (even when the other device saw the save land).
    // Under `.deleteWins` an edit never decides whether a record exists, wherever its save landed (a save with a change
    // tag cannot re-create a deleted record), so only a create in doubt — its save sent with no change tag — races a
    // deletion there.
    let createsInDoubt = history.unansweredCreates[id] ?? []
    if actions.contains(where: { other in
      (other.isDelete || other.isCreate)
        && actions.contains { write in
          !write.isDelete && write.device != other.device && unanswered.contains(write.device)
            && !causality.sees(write, other, key: nil)
            && (other.isCreate || deletePolicy == .editWins || write.isCreate && createsInDoubt.contains(write.device))
        }
    }) {
      return .unansweredSaveRaced
    }
    // Likewise a zone deletion the device's write had not seen: the save may have landed before it (and gone with the
    // zone) or after it (and re-created the record).
    let acrossZoneDeletion = history.resets.contains { reset in
      reset.wipes
        && actions.contains { write in
          !write.isDelete && unanswered.contains(write.device)
            && !causality.sees(.action(write), .reset(reset), key: nil)
        }
    }
    return acrossZoneDeletion ? .unansweredSaveAcrossZoneDeletion : nil
  }

  /// A device's own save, unanswered — still on its way when the user deleted the record there, or landed by a copy
  /// the device never heard of after a refusal — revived the record or kept it alive; once another device has saved
  /// it, the device cannot tell it from a record created anew elsewhere (until then it can, and must delete it again).
  func revivedByStaleSave(_ id: RecordID, latest: [Causality.Event]) -> Bool {
    guard let unanswered = history.unansweredSaves[id] else { return false }
    return latest.contains { op in
      guard case .action(let delete) = op, delete.isDelete, unanswered.contains(delete.device) else { return false }
      // The device's writes since its previous deletion of the record: a save of any of them may be the one unheard of.
      let actions = byRecord[id] ?? []
      let previousDelete = actions.last { $0.isDelete && $0.device == delete.device && $0.order < delete.order }
      guard
        let written = actions.first(where: {
          !$0.isDelete && $0.device == delete.device && $0.order < delete.order
            && $0.order > previousDelete?.order ?? 0
        }),
        let stale = timeline.firstSave(of: id, by: delete.device, from: written.time, where: { _ in true })
      else { return false }
      return timeline.versions[id]?.contains {
        $0.position > stale.position && $0.record != nil && $0.device != delete.device
      } == true
    }
  }

  /// After a zone deletion that devices answer by uploading what they hold (an encrypted-data reset; a client's
  /// deletion under `ZoneLossPolicy.reuploadLocalData`), each device that held a copy the server had
  /// acknowledged may upload it again; CloudKit keeps no deletion across a zone's deletion, so a user's deletion of
  /// the record made on a version from before it (whether it landed before, or was sent after) can lose to another
  /// device's upload of its older copy, which that device cannot know to hold back. So can one made on a version from
  /// after it, when another device that held a copy uploads it only after the deletion: it learns of the zone's
  /// deletion late and lists the new zone from its beginning, which names no deletion.
  func excusedByReupload(_ id: RecordID, latest: [Causality.Event]) -> Bool {
    let deletions = latest.compactMap { op -> UserHistory.Action? in
      if case .action(let action) = op, action.isDelete { return action }
      return nil
    }
    return history.resets.contains { reset in
      guard !reset.wipes else { return false }
      // A device that uploaded the record after the deletion held a copy, even one no holder showed at that moment
      // (a fetch's answer still on its way to it).
      let uploaders = (timeline.versions[id] ?? []).compactMap { version in
        version.record != nil && version.time > reset.time ? version.device : nil
      }
      return deletions.contains { deletion in
        let others = (reset.holders[id] ?? []).union(uploaders).subtracting([deletion.device])
        return (deletion.base < reset.position && !others.isEmpty)
          // Made on a version from after it, the deletion is no more than history in the new zone: another holder
          // that uploads its copy only after the deletion lists that zone from its beginning, which names no deletion.
          || others.contains { holder in
            timeline.firstSave(of: id, by: holder, from: reset.time, where: { _ in true }).map {
              $0.time > deletion.time
            } ?? false
          }
      }
    }
  }

  /// Under `.editWins`, whether an edit among `latest` landed before a deletion it raced: CloudKit deletions carry no
  /// change tag, so the deletion removes the edited version, and the editing device, holding nothing unsent, accepts
  /// it. No client can stop that (the deleting device had not fetched the edit), so the record's existence is not
  /// judged then.
  func editLandedBeforeConcurrentDeletion(_ latest: [Causality.Event]) -> Bool {
    let deletions = latest.compactMap { op -> Int? in
      guard case .action(let action) = op, action.isDelete else { return nil }
      return causality.landing(action, key: nil)
    }
    guard let lastDeletion = deletions.max() else { return false }
    return latest.contains { op in
      guard case .action(let action) = op, !action.isDelete, let landed = causality.landing(action, key: nil) else {
        return false
      }
      return landed < lastDeletion
    }
  }

  /// Whether another device wrote the record concurrently with `edit`: a whole-record resolver may have decided the
  /// conflict for the other write, so the edit may have been resolved away before it met the deletion, leaving
  /// nothing to revive.
  func contested(_ edit: UserHistory.Action) -> Bool {
    (byRecord[edit.recordID] ?? []).contains { other in
      !other.isDelete && other.device != edit.device && !causality.sees(other, edit, key: nil)
        && !causality.sees(edit, other, key: nil)
    }
  }

  /// Under `.editWins`, the deletions an edit revived: each raced a create or edit of another device (neither saw
  /// the other) that its user did not withdraw.
  func revivedDeletions(of id: RecordID) -> Set<Int> {
    guard deletePolicy == .editWins else { return [] }
    let actions = byRecord[id] ?? []
    var revived = Set<Int>()
    for delete in actions where delete.isDelete {
      let raced = actions.contains { write in
        !write.isDelete && write.device != delete.device && !withdrawn(write, forExistence: true)
          && !causality.sees(write, delete, key: nil)
          && !causality.sees(delete, write, key: nil)
      }
      if raced { revived.insert(delete.order) }
    }
    return revived
  }

  /// A create or edit withdrawn by its own device's later deletion, which an edit revived: the revived record may
  /// keep its values (the deletion was cancelled before it was sent) or not (it was revived from the editing device's
  /// copy), so its values are allowed but not required — those that landed, as the caller checks.
  func optionallyWithdrawn(_ action: UserHistory.Action, revived: Set<Int>) -> Bool {
    guard !action.isDelete, !revived.isEmpty, let deletion = laterDeletion(of: action) else { return false }
    return revived.contains(deletion.order)
  }

  /// A create or edit its own user withdrew by deleting the record later on the same device, or whose copy the
  /// device's storage damaged afterwards with none of its values ever reaching the server.
  ///
  /// For existence (`forExistence`), an edit whose save landed — any save of its device after it and before the
  /// device acted on the record again, so built before the damage — reached the server and revives as any edit does,
  /// whatever its values prove.
  func withdrawn(_ action: UserHistory.Action, forExistence: Bool = false) -> Bool {
    if laterDeletion(of: action) != nil { return true }
    // A write already on its way when the copy was damaged may still land: then it was not lost.
    guard let damage = damage(after: action) else { return false }
    // A create landed when its record reached the server, even with values a later edit had already changed; for
    // existence, an edit landed when any save of it did. Either save must have landed before the device acted on the
    // record again after the damage: a later one may carry only what it did then, on the copy fetched again.
    let next = byRecord[action.recordID]?.first { $0.device == action.device && $0.order > damage.order }
    func beforeNext(_ save: Int) -> Bool { next.map { save <= timeline.position(at: $0.time) } ?? true }
    if action.isCreate || forExistence, let save = causality.landing(action, key: nil), beforeNext(save) {
      return false
    }
    if action.isCreate { return true }
    // A written value proves its landing. A removal is proven by a save of the device's, made before the device acted
    // on the record again after the damage (so it carries only what the device held before it), that lacks the key
    // and either took it away (the version before held it) or holds a value the device wrote at or after its first
    // write of the key since it last removed it: that save was built after the key had a value, so it carried the
    // removal — even when it landed after the damage, having been on its way, and even when the edit's own values
    // did not land because a later edit overwrote them before they were sent. A save merely without the key proves
    // nothing: one sent before the removal may land after it.
    // (A merged key's edit — an increment, a set's element — is not unique: only a save before the device acted
    // again proves it, as for a create.)
    let valued = action.writes.compactMap { $0.value == nil ? nil : $0.key }
    if valued.contains(where: { key in
      guard let save = causality.landing(action, key: key), landingProves(action, key: key) else { return false }
      return causality.contract(for: key).carriesEdit == nil || beforeNext(save)
    }) {
      return false
    }
    let removed = action.writes.compactMap { $0.value == nil ? $0.key : nil }
    return !removed.contains { removalProven(action, key: $0, damage: damage) }
  }

  /// Whether a save carrying `action`'s write of `key` proves the write landed: a merged key's edit that added nothing
  /// (a list emptied that held nothing, say) is carried by any save, even one sent before it.
  func landingProves(_ action: UserHistory.Action, key: String) -> Bool {
    guard let carries = causality.contract(for: key).carriesEdit else { return true }
    return !carries(nil, (history.base(of: action, key: key), action.written(key) ?? nil))
  }

  /// Under `.editWins`: whether `action` is an edit no deletion of `latest` saw, withdrawn by damage to its device's
  /// copy, whose device saved the record after it: that save may carry the edit — its values resolved away by a merge,
  /// the version still newer than what the deletion saw, so a client reads it as a concurrent edit and revives the
  /// record — or may be one sent before it. No client can tell which, so the record's existence is not judged.
  func editMayHaveRevived(_ action: UserHistory.Action, latest: [Causality.Event]) -> Bool {
    guard case .edit = action.kind, laterDeletion(of: action) == nil, damage(after: action) != nil,
      withdrawn(action, forExistence: true),
      timeline.firstSave(of: action.recordID, by: action.device, from: action.time, where: { _ in true }) != nil
    else { return false }
    return !latest.contains { causality.sees($0, .action(action), key: nil) }
  }

  /// Whether the removal of `key` by `action` is proven to have landed before the damage (see ``withdrawn(_:forExistence:)``).
  func removalProven(_ action: UserHistory.Action, key: String, damage: UserHistory.Damage) -> Bool {
    // A removal of a key the device's copy did not hold (a merge had taken it) changed nothing: no save carries it.
    guard history.base(of: action, key: key) != nil else { return false }
    let own = (byRecord[action.recordID] ?? []).filter { $0.device == action.device }
    let bound = own.first { $0.order > damage.order }?.time ?? .distantFuture
    let versions = timeline.versions[action.recordID] ?? []
    // The first value of the key since the device last removed it: a save built after it that lacks the key carries a
    // removal made since, this one or a later one.
    let previousRemoval = own.last {
      $0.order < action.order && $0.written(key) != nil && ($0.written(key) ?? nil) == nil
    }
    let firstSet = own.first {
      $0.order < action.order && $0.order > previousRemoval?.order ?? 0 && ($0.written(key) ?? nil) != nil
    }
    let since = own.filter { $0.order >= firstSet?.order ?? action.order && $0.order < damage.order }
    return versions.indices.contains { index in
      let version = versions[index]
      guard version.device == action.device, version.time >= action.time, version.time < bound,
        let record = version.record, Observer.value(of: key, in: record) == nil
      else { return false }
      if index > 0, let before = versions[index - 1].record, Observer.value(of: key, in: before) != nil {
        return true
      }
      guard firstSet != nil else { return false }
      return since.contains { write in
        write.writes.contains { written, value in value.map { causality.holds(record, key: written, $0) } ?? false }
      }
    }
  }

  /// Withdrawal decided per key: a write of `key` its own user withdrew by deleting the record later on the same
  /// device, or lost with a damaged copy — its value never landed (for a removal: never proven landed) before the
  /// damage. A write of another key of the same action may have landed while this one did not.
  func keyWithdrawn(_ action: UserHistory.Action, key: String) -> Bool {
    if action.isCreate { return withdrawn(action) }
    if laterDeletion(of: action) != nil { return true }
    guard let damage = damage(after: action) else { return false }
    if (action.written(key) ?? nil) != nil { return causality.landing(action, key: key) == nil }
    return !removalProven(action, key: key, damage: damage)
  }

  /// A deletion withdrawn with the account's local data: its device signed out or switched accounts after it, and the
  /// server shows no deletion of the record by that device before the device acted on it again after that, so the
  /// deletion never landed (one on its way may still land: then it stands).
  func deletionWithdrawn(_ action: UserHistory.Action) -> Bool {
    guard action.isDelete,
      let wipe = history.wipe(of: action.device, after: action.order)
    else { return false }
    // Until the device acts on the record again after the wipe, a save or deletion of its was sent before the wipe.
    let next = byRecord[action.recordID]?.first { $0.device == action.device && $0.order > wipe.order }
    // Created again before the wipe, the record was replaced: the deletion stands with a replacement that landed.
    if let replacement = byRecord[action.recordID]?.first(where: {
      $0.device == action.device && $0.isCreate && $0.order > action.order && $0.order < wipe.order
    }), let landed = causality.landing(replacement, key: nil),
      next.map({ landed <= timeline.position(at: $0.time) }) ?? true
    {
      return false
    }
    return timeline.firstDeletion(
      of: action.recordID, by: action.device, from: action.time, before: next?.time ?? .distantFuture) == nil
  }

  /// The first deletion of the record by the action's own device after it, unless withdrawn with the account's local
  /// data (``deletionWithdrawn(_:)``) after the action had landed: then the action stands as if the user had not
  /// deleted. (One that had not landed by the deletion went with it from the device, withdrawn deletion or not.)
  /// A deletion after the device's account changed is of another copy, and withdraws nothing before the change.
  func laterDeletion(of action: UserHistory.Action) -> UserHistory.Action? {
    let deletion = byRecord[action.recordID]?.first {
      $0.isDelete && $0.device == action.device && $0.order > action.order
    }
    guard let deletion else { return nil }
    if deletionWithdrawn(deletion), let landed = causality.landing(action, key: nil),
      landed <= timeline.position(at: deletion.time)
    {
      return nil
    }
    return history.wipe(of: action.device, after: action.order, before: deletion.order) == nil ? deletion : nil
  }

  /// The first damage to the action's device's copy of the record after it.
  func damage(after action: UserHistory.Action) -> UserHistory.Damage? {
    history.damage.first { $0.device == action.device && $0.took(action.recordID) && $0.order > action.order }
  }

  /// Whether the record went with a zone deletion that devices answer by uploading what they hold, after every user
  /// action of `latest`, while every device that held an undamaged copy lost it to damage before uploading it again:
  /// nothing was left to give back.
  func noCopyLeftAfterZoneDeletion(_ id: RecordID, latest: [Causality.Event]) -> Bool {
    let acted = latest.compactMap { op -> Date? in
      if case .action(let action) = op { return action.time }
      return nil
    }
    return history.resets.contains { reset in
      guard !reset.wipes, timeline.exists(id, at: reset.position - 1), acted.allSatisfy({ $0 < reset.time }) else {
        return false
      }
      return (reset.holders[id] ?? []).allSatisfy { lostCopy(of: id, on: $0, after: reset) }
    }
  }

  /// Whether `device` lost its copy of `id` (damage, or its app deleting its local data) after `reset` and before it
  /// uploaded the copy again.
  func lostCopy(of id: RecordID, on device: String, after reset: UserHistory.ZoneReset) -> Bool {
    let upload = timeline.firstSave(of: id, by: device, from: reset.time, where: { _ in true })?.time
    return history.damage.contains { damage in
      damage.device == device && damage.took(id) && damage.time >= reset.time
        && upload.map { damage.time < $0 } ?? true
    }
  }

  /// Whether `action` is a write made on a version from before a zone deletion that devices answer by uploading what
  /// they hold, while another device held a copy: each device then uploads its own copy, some older than others, and
  /// none can tell which is newest (CloudKit keeps no version across a zone's deletion), so another device's older
  /// copy may win a key over the write. A write made on a version from after the deletion is judged as ever.
  func basedBeforeReupload(_ action: UserHistory.Action) -> Bool { reuploadMayLose(action) != nil }

  /// Why `action`, a write made on a version from before a zone deletion that devices answer by uploading what they
  /// hold, may be lost to that deletion: the database feed was compacted in the run, so its device may never have
  /// learnt why the zone went (``SetAside/zoneDeletionReasonLost``); its device lost its copy (damage, or its app
  /// deleting its local data) before uploading it again, and so did every other holder
  /// (``SetAside/noCopyLeftAfterZoneDeletion``); or another device held a copy of unknown age
  /// (``SetAside/copiesOfUnknownAge``). `nil` for any other write.
  func reuploadMayLose(_ action: UserHistory.Action) -> SetAside? {
    guard !action.isDelete else { return nil }
    var reason: SetAside?
    for reset in history.resets where !reset.wipes && action.base < reset.position {
      if history.reasonLost(by: action.device, for: reset) { return .zoneDeletionReasonLost }
      let others = (reset.holders[action.recordID] ?? []).subtracting([action.device])
      if lostCopy(of: action.recordID, on: action.device, after: reset) {
        // The writer lost its copy before uploading it again: only another holder's copy, of unknown age, or none,
        // can give the write back.
        if others.allSatisfy({ lostCopy(of: action.recordID, on: $0, after: reset) }) {
          return .noCopyLeftAfterZoneDeletion
        }
        reason = .copiesOfUnknownAge
      }
      if !others.isEmpty { reason = .copiesOfUnknownAge }
    }
    return reason
  }

  /// Whether `value` of `key` is what a device's copy of the record held when a zone deletion that devices answer by
  /// uploading what they hold took it, and every write among `latest` is one that copy cannot know it is older than:
  /// made before the deletion, or landed in the new zone before the holder first read the database feed after it
  /// (and so learnt of it, and merged its copy into whatever the new zone held then). The devices upload their copies,
  /// and a write no copy held then — on the server only, its device signed out or never fetched it since — went with
  /// the zone; CloudKit keeps no version across a zone's deletion, so which copy's value wins a key is the resolver's
  /// pick between two creates, and a copy that meets the new zone only after a write there cannot tell that write
  /// from an older copy another device uploaded first. The key may end with any such copy's value.
  func heldByACopyAtReupload(_ id: RecordID, key: String, value: FieldValue?, after latest: [UserHistory.Action])
    -> Bool
  {
    heldByACopy(id, key: key, value: value) { reset, holder in
      let learnt = history.databaseReads[holder]?.first { $0 > reset.time } ?? .distantFuture
      return latest.allSatisfy { write in
        write.time < reset.time
          || (write.device != holder && landingTime(write, key: key).map { $0 < learnt } == true)
      }
    }
  }

  /// Whether some device's copy of the record held `value` of `key` when a zone deletion that devices answer by
  /// uploading what they hold took it (and, for that deletion and holder, `also` holds).
  func heldByACopy(
    _ id: RecordID, key: String, value: FieldValue?,
    also: (UserHistory.ZoneReset, String) -> Bool = { _, _ in true }
  ) -> Bool {
    history.resets.contains { reset in
      !reset.wipes
        && (reset.copies[id] ?? [:]).contains { holder, copy in
          Observer.value(of: key, in: copy) == value && also(reset, holder)
        }
    }
  }

  /// When `write`'s value of `key` landed on the server, if it did.
  func landingTime(_ write: UserHistory.Action, key: String) -> Date? {
    guard let position = causality.landing(write, key: key) else { return nil }
    return timeline.versions[write.recordID]?.first { $0.position == position }?.time
  }

  /// Whether a zone deletion among `latest` that wipes was followed by one for a reason that does not: the database
  /// feed reports a zone's last deletion only, so a device that read it after both answered the second reason, and
  /// uploaded what the first had taken.
  func wipeReasonMasked(_ latest: [Causality.Event]) -> Bool {
    latest.contains { op in
      guard case .reset(let wipe) = op, wipe.wipes else { return false }
      return history.resets.contains { !$0.wipes && $0.position > wipe.position }
    }
  }

  /// Whether a zone deletion among `latest` that stands for the user's went unheard by a device holding a copy of the
  /// record to upload again after an earlier deletion that does not: its database token, from before the deletion,
  /// expired before its next read of the feed, which named no deletion, so it uploaded the copy into the zone as it
  /// found it.
  func wipeUnheardByReuploader(_ id: RecordID, latest: [Causality.Event]) -> Bool {
    latest.contains { op in
      guard case .reset(let wipe) = op, wipe.wipes else { return false }
      return history.resets.contains { earlier in
        !earlier.wipes && earlier.position < wipe.position
          && (earlier.holders[id] ?? []).contains { device in
            history.reasonLost(by: device, for: wipe)
              && (timeline.firstSave(of: id, by: device, from: earlier.time, where: { _ in true })
                .map { $0.time > wipe.time } ?? true)
          }
      }
    }
  }

  /// Whether a zone deletion that devices answer by uploading what they hold took the record after every user action
  /// of `latest` (or each was made on a copy from before it), in a run whose database feed was compacted: a device
  /// whose database token predates the compaction lists the zones from the beginning on its next read, whenever that
  /// is, and learns nothing of zones deleted since, so the reason may never have reached the devices that held the
  /// record.
  func zoneDeletionReasonLost(_ id: RecordID, latest: [Causality.Event]) -> Bool {
    let acted = latest.compactMap { op -> UserHistory.Action? in
      if case .action(let action) = op { return action }
      return nil
    }
    // Each action was made before the deletion, or on a copy from before it, which such a device drops.
    return history.resets.contains { reset in
      // The record was on the server, or a device held an acknowledged copy still to upload after an earlier reset.
      !reset.wipes && (timeline.exists(id, at: reset.position - 1) || (reset.shown[id] ?? 0) > 0)
        && acted.allSatisfy { action in
          action.time < reset.time || (action.base > 0 && action.base < reset.position)
            // An edit of a copy with no change tag that its device held at the deletion: still the copy from before
            // it, waiting to be uploaded again.
            || (action.base == 0 && !action.isCreate && (reset.holders[id] ?? []).contains(action.device))
        }
        // No holder uploaded its copy again: each could not learn why the zone went, or lost the copy first — and
        // at least one could not learn it.
        && { holders in
          holders.contains { history.reasonLost(by: $0, for: reset) }
            && holders.allSatisfy { history.reasonLost(by: $0, for: reset) || lostCopy(of: id, on: $0, after: reset) }
        }(reset.holders[id] ?? [])
    }
  }
}
