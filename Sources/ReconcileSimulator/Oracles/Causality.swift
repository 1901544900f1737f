import Foundation
package import Reconcile

/// Happened-before between what users did, read from what any sync client exposes: the order of one device's actions,
/// and the server version each action was made on (its change tag says which).
///
/// - An action *saw* an earlier action on the same device, unless the device's copy of the record was damaged between
///   the two (it threw the copy away and forgot what it had seen).
/// - An action saw another device's action once that action had *landed* at or before the server version it was made
///   on — across a zone deletion between the two, only if that version carries the write (a copy uploaded again
///   brought it back). A create saw what landed before it when the record was then gone from the server (it was made
///   on nothing).
/// - A zone deletion saw an action that landed before it and that some device showed at that moment (a deletion: that
///   landed before it at all); an action saw a zone deletion it was made after (a create) or on a version after.
///
/// Where an action landed is the model's one reading of the server's log (``landing(_:key:)``): a create or edit at the
/// first save by its device after it (with a key: carrying the key's written value, unique in a run, or for a key a
/// merging policy settles, the write's edit); a deletion at its
/// device's own deletion of the record. Nothing here judges: ``IntentJudge`` asks it which actions are the latest.
///
/// A class: the judge's closures capture it, and a reference is all each one copies.
package final class Causality: Sendable {
  let history: UserHistory
  let timeline: ServerTimeline
  let deletePolicy: DeletePolicy
  /// The history's actions by record, in order.
  let byRecord: [RecordID: [UserHistory.Action]]
  /// What the resolver promises for particular keys: how a stored value carries a written one.
  let contracts: [String: KeyContract]
  /// Landings already worked out: the judge asks for the same ones many times, and they never change.
  private let landings = LandingMemo()
  /// Per record, the history positions of the zone deletions that took it.
  private let zoneResets: [RecordID: [Int]]

  /// A model of one run's history.
  package init(
    history: UserHistory, timeline: ServerTimeline, deletePolicy: DeletePolicy, contracts: [String: KeyContract] = [:]
  ) {
    self.history = history
    self.timeline = timeline
    self.deletePolicy = deletePolicy
    self.contracts = contracts
    byRecord = Dictionary(grouping: history.actions, by: \.recordID)
    zoneResets = timeline.versions.compactMapValues { versions in
      let resets = versions.filter(\.isZoneReset).map(\.position)
      return resets.isEmpty ? nil : resets
    }
  }

  /// What the model orders: a user's action, or a zone deletion by another client.
  package enum Event {
    case action(UserHistory.Action)
    case reset(UserHistory.ZoneReset)

    /// Whether it removes the record: a deletion or a zone deletion.
    var isRemoval: Bool {
      switch self {
      case .action(let action): action.isDelete
      case .reset: true
      }
    }
  }

  /// Whether `later` saw `earlier`. With a key, a write's landing is the first save carrying that key's value.
  package func sees(_ later: Event, _ earlier: Event, key: String?) -> Bool {
    switch (later, earlier) {
    case (.action(let b), .action(let a)):
      return sees(b, a, key: key)
    case (.reset(let z), .action(let a)):
      guard let landed = landing(a, key: key), landed < z.position else { return false }
      return a.isDelete || landed <= (z.shown[a.recordID] ?? 0)
    case (.action(let b), .reset(let z)):
      return b.isCreate ? z.position <= timeline.position(at: b.time) : z.position < b.base
    case (.reset(let b), .reset(let a)):
      return a.position < b.position
    }
  }

  /// The contract of `key`: ``KeyContract/oneOfTheWrites`` unless the resolver names another.
  func contract(for key: String) -> KeyContract { contracts[key] ?? .oneOfTheWrites }

  /// Whether `record` carries the value `written` of `key`, as the key's contract reads it.
  func holds(_ record: Record, key: String, _ written: FieldValue) -> Bool {
    Observer.value(of: key, in: record).map { contract(for: key).carries($0, written) } ?? false
  }

  /// Whether action `b` saw action `a`, as the `Event` overload says; the judge's hot path, without wrapping
  /// the actions.
  func sees(_ b: UserHistory.Action, _ a: UserHistory.Action, key: String?) -> Bool {
    if a.device == b.device, a.order < b.order, !damaged(a.device, a.recordID, between: a.order, and: b.order) {
      return true
    }
    // Nothing sees an action made after it.
    guard a.order < b.order, let landed = landing(a, key: key) else { return false }
    if b.isCreate {
      let now = timeline.position(at: b.time)
      return landed <= now && (a.isDelete || !timeline.exists(a.recordID, at: now))
    }
    guard landed <= b.base, b.base > 0 else { return false }
    // A zone deletion between the landing and the version `b` was made on took the value with it: `b` saw it only if
    // a copy uploaded again brought it back into that version.
    guard let key, !zoneResets.isEmpty, let resets = zoneResets[a.recordID],
      resets.contains(where: { $0 > landed && $0 <= b.base }),
      let base = timeline.versions[a.recordID]?.last(where: { $0.position <= b.base })?.record
    else { return true }
    guard let written = a.written(key) ?? nil else { return Observer.value(of: key, in: base) == nil }
    return holds(base, key: key, written)
  }

  /// Where an action landed on the server: a create or edit at the first save by its device after it (carrying the
  /// key's written value, with a key); a delete at the first deletion of the record after it, or at once when the
  /// record was already gone.
  package func landing(_ action: UserHistory.Action, key: String?) -> Int? {
    let memoKey = LandingMemo.Key(order: action.order, key: key)
    if let known = landings.values[memoKey] { return known }
    let landed = workOutLanding(action, key: key)
    landings.values[memoKey] = landed
    return landed
  }

  private func workOutLanding(_ action: UserHistory.Action, key: String?) -> Int? {
    let id = action.recordID
    // An edit as a whole landed when the last of its written values did: a save of the device's that carried only
    // an earlier edit's values (this one still queued) is not its landing.
    if key == nil, case .edit(let writes) = action.kind {
      let valued = writes.compactMap { $0.value == nil ? nil : $0.key }
      if !valued.isEmpty {
        var last = 0
        for written in valued {
          guard let landed = landing(action, key: written) else { return nil }
          last = max(last, landed)
        }
        return last
      }
    }
    if action.isDelete {
      let now = timeline.position(at: action.time)
      if !timeline.exists(id, at: now) {
        // Not there yet is not gone: a save of the device's own, on its way when the user deleted the record, lands
        // after, and the deletion follows it.
        if let inFlight = saveInFlight(at: action) { return deletionLanding(action, from: inFlight.time) }
        // A deletion the device sent anyway (a CKSyncEngine app queues one for a record whose save never landed)
        // lands when it reaches the server, and deletes a record another device created under the name since.
        return ownDeletion(action, from: action.time)?.position ?? now
      }
      return deletionLanding(action, from: action.time)
    }
    let save: ServerTimeline.Version?
    if let key {
      let written = action.written(key) ?? nil
      let carriesEdit = contract(for: key).carriesEdit
      let before = carriesEdit == nil ? nil : history.base(of: action, key: key)
      save = timeline.firstSave(of: id, by: action.device, from: action.time) {
        guard let written else { return Observer.value(of: key, in: $0) == nil }
        // A merged key's stored value is rarely the one written: the save carries the write's edit.
        if let carriesEdit { return carriesEdit(Observer.value(of: key, in: $0), (before, written)) }
        return holds($0, key: key, written)
      }
    } else {
      save = timeline.firstSave(of: id, by: action.device, from: action.time) { _ in true }
    }
    guard let save else { return nil }
    // A removal its device overwrote (wrote the key again) before that save was never sent: the save's missing key is
    // another story — a record created anew without it, say.
    if let key, (action.written(key) ?? nil) == nil,
      byRecord[id]?.contains(where: {
        $0.device == action.device && $0.order > action.order && $0.time < save.time && $0.written(key) != nil
      }) == true
    {
      return nil
    }
    // A removal (or any save) found after the device's own next create or delete of the record belongs to that new
    // record: only a written value is unique enough to be found later — not a merged key's edit (an increment, a
    // set's element), which a later record's value may carry as well.
    if key == nil || (action.written(key ?? "") ?? nil) == nil
      || key.map({ contract(for: $0).carriesEdit != nil }) == true,
      let next = byRecord[id]?.first(where: {
        $0.device == action.device && $0.order > action.order && ($0.isCreate || $0.isDelete)
      }), save.time > next.time, !inFlightPastUnsentDeletion(action, next: next, save: save)
    {
      return nil
    }
    // An edit of a server version deleted before any save of its device landed was lost with it: a later save by the
    // device is of a new record. (An edit of the device's own unsent create is of the record it later saves.)
    // Under `.editWins` such a save is the revival the policy promises, and belongs to the revived record.
    // A zone deletion devices answer by uploading what they hold (an encrypted-data reset) deleted nothing of theirs,
    // and one after the record's deletion has the device upload its copy, edits and all, as a record anew.
    if deletePolicy == .deleteWins, !action.isCreate, action.base > 0, !action.buildsOnReplacement,
      let deleted = timeline.versions[id]?.last(where: {
        $0.record == nil && (!$0.isZoneReset || $0.wipes) && $0.position > action.base && $0.position < save.position
      }),
      !history.resets.contains(where: { !$0.wipes && $0.position > deleted.position && $0.position < save.position })
    {
      return nil
    }
    return save.position
  }

  /// Where a deletion landed, looking from `time`: at the device's own deletion of the record — another device's
  /// deletion first does not carry it, and the device's request, still on its way, may delete a record created since
  /// — made before the device deleted the record again; else, when the device's request found the record gone and
  /// deleted nothing, at the first deletion by anyone.
  private func deletionLanding(_ action: UserHistory.Action, from time: Date) -> Int? {
    if let own = ownDeletion(action, from: time) { return own.position }
    return timeline.firstDeletion(of: action.recordID, from: time)?.position
  }

  /// The device's own deletion of the record from `time`, made before it deleted the record again.
  private func ownDeletion(_ action: UserHistory.Action, from time: Date) -> ServerTimeline.Version? {
    let nextDelete = byRecord[action.recordID]?.first {
      $0.device == action.device && $0.order > action.order && $0.isDelete
    }
    return timeline.firstDeletion(
      of: action.recordID, by: action.device, from: time, before: nextDelete?.time ?? .distantFuture)
  }

  /// The save of a record its device had made before deleting it that landed only after the deletion — a create or
  /// edit on its way — unless the device created the record anew first (a later save is then the new record's).
  private func saveInFlight(at delete: UserHistory.Action) -> ServerTimeline.Version? {
    let actions = byRecord[delete.recordID] ?? []
    guard actions.contains(where: { $0.device == delete.device && $0.order < delete.order && !$0.isDelete }),
      let save = timeline.firstSave(of: delete.recordID, by: delete.device, from: delete.time, where: { _ in true })
    else { return nil }
    let recreated = actions.contains {
      $0.device == delete.device && $0.order > delete.order && $0.isCreate && $0.time <= save.time
    }
    return recreated ? nil : save
  }

  /// Whether `save` is one of `action`'s that was on its way when the device deleted the record (`next`), a deletion
  /// that never landed before it (withdrawn with the account's data): the device created nothing since, so the save
  /// is not of a new record.
  private func inFlightPastUnsentDeletion(
    _ action: UserHistory.Action, next: UserHistory.Action, save: ServerTimeline.Version
  ) -> Bool {
    guard next.isDelete,
      history.wipe(of: action.device, after: next.order) != nil,
      !(byRecord[action.recordID] ?? []).contains(where: {
        $0.device == action.device && $0.isCreate && $0.order > action.order && $0.time < save.time
      })
    else { return false }
    return timeline.firstDeletion(of: action.recordID, by: action.device, from: next.time, before: save.time) == nil
  }

  /// Whether the device's copy of the record was damaged between two of its actions: it threw the copy away and
  /// forgot what it had seen.
  func damaged(_ device: String, _ id: RecordID, between first: Int, and second: Int) -> Bool {
    history.damage.contains { $0.device == device && $0.took(id) && $0.order > first && $0.order < second }
  }
}

/// The landings one ``Causality`` has worked out, by action and key. One judge uses it, on one thread, for the end of
/// one run; the history it describes never changes, so an answer never goes stale.
private final class LandingMemo: @unchecked Sendable {
  struct Key: Hashable {
    var order: Int
    var key: String?
  }

  /// `.some(nil)`: worked out, and the action never landed.
  var values: [Key: Int?] = [:]
}
