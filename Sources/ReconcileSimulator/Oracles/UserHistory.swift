package import Foundation
package import Reconcile

/// The ground truth of a run: what users did — each create, edit, removal and delete, on which device, at which true
/// time, on top of which server version that device showed — and the faults that withdraw or wipe what they did.
///
/// It is written from what any sync client exposes — the records the app sees, their change tags and fields — never
/// from a client's queues or flags, so the oracles that read it (``IntentJudge``) judge clients Reconcile did not write.
package struct UserHistory: Sendable {
  /// One thing a user did to one record.
  package struct Action: Sendable {
    /// What the user did (the world reports it as a ``UserAction``).
    package typealias Kind = UserAction

    /// The action's fields. The judge copies actions into many lists; sharing them makes each copy one reference.
    private struct Fields: Sendable {
      var order: Int
      var device: String
      var time: Date
      var recordID: RecordID
      var kind: Kind
      var base: Int
      var buildsOnReplacement = false
      var editCount: Int64?
      var stamps: [String: HybridTimestamp]
      var knownKeys: Set<String>?
      var account: String?
    }

    private final class Box: @unchecked Sendable {
      // Safety: changed only through `update`, which copies the box first unless uniquely referenced.
      var fields: Fields
      init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    /// Changes one field, copying the shared fields first (copy on write).
    private mutating func update(_ change: (inout Fields) -> Void) {
      if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
      change(&box.fields)
    }

    // Who acted, when, on what and how are fixed when the action is made; the rest is filled in as it is recorded.

    /// Position in the history, from 1: the order in which users acted.
    package var order: Int {
      get { box.fields.order }
      set { update { $0.order = newValue } }
    }
    package var device: String { box.fields.device }
    package var time: Date { box.fields.time }
    package var recordID: RecordID { box.fields.recordID }
    package var kind: Kind { box.fields.kind }
    /// The server history position of the version the device showed when the user acted (0 for a record it showed
    /// with no change tag, or did not show).
    package var base: Int {
      get { box.fields.base }
      set { update { $0.base = newValue } }
    }
    /// Whether the action is an edit of its device's own create that replaced the record the device had deleted, not
    /// yet landed: it belongs to that create's life, even while the copy shows (and may have merged) a version of the
    /// life it replaces.
    package var buildsOnReplacement: Bool {
      get { box.fields.buildsOnReplacement }
      set { update { $0.buildsOnReplacement = newValue } }
    }
    /// The edit count the device showed after the action, if the record has one.
    package var editCount: Int64? {
      get { box.fields.editCount }
      set { update { $0.editCount = newValue } }
    }
    /// The per-field stamps the device showed after the action.
    package var stamps: [String: HybridTimestamp] {
      get { box.fields.stamps }
      set { update { $0.stamps = newValue } }
    }
    /// The keys the device's app knows (`nil`: every key). A create removes the keys it knows and does not set; a key
    /// only a newer app knows, it cannot remove (``Invariant/unknownKeysKept``).
    package var knownKeys: Set<String>? {
      get { box.fields.knownKeys }
      set { update { $0.knownKeys = newValue } }
    }
    /// The iCloud account the device was signed in to (`nil`: signed out); what it wrote is meant for that account's
    /// database. Set by ``UserHistory/record(_:before:)`` from the device's account changes.
    package var account: String? {
      get { box.fields.account }
      set { update { $0.account = newValue } }
    }

    /// An action; ``UserHistory/record(_:)`` numbers it.
    package init(
      device: String, time: Date, recordID: RecordID, kind: Kind, base: Int, editCount: Int64? = nil,
      stamps: [String: HybridTimestamp] = [:]
    ) {
      box = Box(
        Fields(
          order: 0, device: device, time: time, recordID: recordID, kind: kind, base: base, editCount: editCount,
          stamps: stamps))
    }

    /// The keys written and their values (`nil` for a removal); empty for a delete.
    package var writes: [String: FieldValue?] {
      switch kind {
      case .create(let values): values.mapValues { Optional($0) }
      case .edit(let values): values
      case .delete: [:]
      }
    }

    /// Whether the action decides `key`: it writes it, or it is a create whose app knows the key (a create defines
    /// the whole record, so a key it knows and does not set, it removes).
    package func decides(_ key: String) -> Bool {
      switch kind {
      case .create(let values): values[key] != nil || (knownKeys?.contains(key) ?? true)
      case .edit(let values): values[key] != nil
      case .delete: false
      }
    }

    /// What the action wrote to `key`: `nil` when it did not write it, `.some(nil)` for a removal. Reads the action in
    /// place, where ``writes`` builds a dictionary.
    package func written(_ key: String) -> FieldValue?? {
      switch kind {
      case .create(let values): values[key].map { .some($0) }
      case .edit(let values): values[key]
      case .delete: nil
      }
    }

    package var isDelete: Bool {
      if case .delete = kind { return true }
      return false
    }

    package var isCreate: Bool {
      if case .create = kind { return true }
      return false
    }
  }

  /// A zone deletion by another client, with what the devices showed at that moment.
  package struct ZoneReset: Sendable {
    package var time: Date
    /// The server history position of the deletion.
    package var position: Int
    /// Per record, the newest server version (as a history position) any device showed just before the deletion.
    package var shown: [RecordID: Int]
    /// Whether the deletion stands for the user deleting every record in the zone
    /// (`ZoneLossPolicy.dropsLocalData(after:)`);
    /// otherwise devices upload what they hold again, and nothing of it is a deletion.
    package var wipes: Bool
    /// Per record, the devices that showed an undamaged copy just before the deletion: when the deletion does not
    /// wipe, each may upload its copy again.
    package var holders: [RecordID: Set<String>]
    /// Per record, the undamaged copy each holder showed just before the deletion: when it does not wipe, what comes
    /// back is what these held.
    package var copies: [RecordID: [String: Record]]

    /// A zone deletion at `position`, with what the devices showed.
    package init(
      time: Date, position: Int, shown: [RecordID: Int], wipes: Bool, holders: [RecordID: Set<String>] = [:],
      copies: [RecordID: [String: Record]] = [:]
    ) {
      self.time = time
      self.position = position
      self.shown = shown
      self.wipes = wipes
      self.holders = holders
      self.copies = copies
    }
  }

  /// Damage to one device's stored copy of one record, or the app deleting every local copy when its account
  /// changed: unsent changes to it may be lost with the copy.
  package struct Damage: Sendable {
    package var order: Int
    package var device: String
    /// `nil`: every copy the device held (the app deleted the account's local data).
    package var recordID: RecordID?
    package var time: Date
    /// The account whose copies went (`nil`: signed out).
    package var account: String?

    /// Whether the damage took the device's copy of `id`.
    package func took(_ id: RecordID) -> Bool { recordID.map { $0 == id } ?? true }
  }

  /// A device signing in, out, or switching iCloud accounts.
  package struct AccountChange: Sendable {
    package var order: Int
    package var device: String
    package var from: String?
    package var to: String?
  }

  package private(set) var actions: [Action] = []
  package private(set) var resets: [ZoneReset] = []
  package private(set) var damage: [Damage] = []
  /// Every device's account changes, in order.
  package private(set) var accountChanges: [AccountChange] = []
  /// Per device, the account it is signed in to, where it is not the primary one (`nil` in the map: signed out).
  private var currentAccount: [String: String?] = [:]
  /// The account every device starts signed in to.
  private var primaryAccount: String?
  /// Per device, the account whose data it holds, where it is not the primary one (`.some(nil)`: data no account owns,
  /// kept through a sign-out for whichever signs in next).
  private var dataOwner: [String: String?] = [:]
  /// Devices whose app asks what to do with the records after an account change, until the user answers.
  private var asking: Set<String> = []
  /// Devices signed out that keep their records for the account they belong to (`AccountChangePolicy`'s keep): what
  /// they hold is that account's, waiting for it to sign in again.
  private var keptThroughSignOut: [String: String] = [:]
  /// Per record, the devices that saved it and never got the answer (lost, or given up on): they cannot know whether
  /// the save landed.
  package private(set) var unansweredSaves: [RecordID: Set<String>] = [:]
  /// Per record, the devices whose deletion of it landed with no answer reaching them (lost, a stale copy after they
  /// gave up, or a duplicate): they cannot know when it landed.
  package private(set) var unansweredDeletes: [RecordID: Set<String>] = [:]
  /// Per record, the devices whose unanswered save of it carried no change tag: a create (or a copy uploaded again)
  /// in doubt, which may have landed after a deletion and made the record anew. A save with a change tag cannot.
  package private(set) var unansweredCreates: [RecordID: Set<String>] = [:]
  /// Per device, the records its latest save request of each carried with no change tag.
  private var lastSaveCreated: [String: Set<RecordID>] = [:]
  /// Every key a user wrote in the run: the keys whose values are unique and judged (bookkeeping fields repeat).
  package private(set) var userKeys: Set<String> = []
  private var counter = 0

  /// An empty history, of devices signed in to `primaryAccount` until they change accounts.
  package init(primaryAccount: String? = nil) { self.primaryAccount = primaryAccount }

  /// The account `device` is signed in to now.
  package func account(of device: String) -> String? { currentAccount[device] ?? primaryAccount }

  /// Adds an action, numbering it.
  /// - Parameter before: For keys whose contract judges edits (``KeyContract/judgesEdits``), the value the device
  ///   showed before the action; kept beside the actions, so the actions of runs without such keys carry nothing more.
  package mutating func record(_ action: Action, before: [String: FieldValue?] = [:]) {
    switch action.kind {
    case .create(let values): userKeys.formUnion(values.keys)
    case .edit(let values): userKeys.formUnion(values.keys)
    case .delete: break
    }
    counter += 1
    var numbered = action
    numbered.order = counter
    numbered.account = writingAccount(of: action.device)
    actions.append(numbered)
    if !before.isEmpty { editBases[counter] = before }
  }

  /// By action order, the values the device showed before the action, for keys whose contract judges edits and for
  /// keys the action removed.
  package private(set) var editBases: [Int: [String: FieldValue?]] = [:]

  /// The value `action`'s device showed of `key` before it, where the key's contract judges edits or the action
  /// removed the key.
  package func base(of action: Action, key: String) -> FieldValue? { editBases[action.order]?[key] ?? nil }

  package mutating func recordReset(_ reset: ZoneReset) { resets.append(reset) }

  /// When the database feed was compacted (old database tokens expired), or a device forgot its place in it (the user
  /// reset sync): a zone deletion before it may never reach a device that had not read the feed, nor its reason — a
  /// listing of the database from the beginning names the zones there are, not why one went.
  package private(set) var feedCompactions: [(device: String?, time: Date)] = []
  /// Per device, when it read the database feed: the token it holds was issued then.
  package private(set) var databaseReads: [String: [Date]] = [:]

  /// Notes a compaction of the database feed.
  package mutating func recordFeedCompaction(for device: String? = nil, at time: Date) {
    feedCompactions.append((device, time))
  }

  /// Notes `device` reading the database feed.
  package mutating func recordDatabaseRead(by device: String, at time: Date) {
    databaseReads[device, default: []].append(time)
  }

  /// Whether `device` could not learn why its zone went at `reset`: its database token, issued at its last read of
  /// the feed before the deletion, expired (a compaction, or its user resetting sync) before its first read after,
  /// which then listed the zones from the beginning and named none gone.
  package func reasonLost(by device: String, for reset: ZoneReset) -> Bool {
    let reads = databaseReads[device] ?? []
    let before = reads.last { $0 <= reset.time } ?? .distantPast
    let after = reads.first { $0 > reset.time } ?? .distantFuture
    return feedCompactions.contains { ($0.device == nil || $0.device == device) && $0.time > before && $0.time < after }
  }

  /// Whether `device` could not learn that its zone's deletion at `wipe` stood for the user deleting every record:
  /// a later deletion for a reason that does not (an encrypted-data reset) came before its first read of the feed
  /// after it, and the feed reports a zone's last deletion only.
  package func reasonMasked(by device: String, for wipe: ZoneReset) -> Bool {
    guard wipe.wipes else { return false }
    let after = databaseReads[device]?.first { $0 > wipe.time } ?? .distantFuture
    return resets.contains { !$0.wipes && $0.position > wipe.position && $0.time < after }
  }

  package mutating func recordDamage(device: String, recordID: RecordID, time: Date) {
    counter += 1
    damage.append(Damage(order: counter, device: device, recordID: recordID, time: time, account: account(of: device)))
  }

  /// Notes `device` signing in to `account` (`nil`: signing out). Where the app deletes its local data (its
  /// `response`: on a sign-out or a switch, as Apple asks; or, keeping it for the same account, when
  /// another account signs in), what the device had not sent is withdrawn with every copy (a ``Damage`` of every
  /// record, for the account the data belonged to and, on a sign-in, for the one signed in to, which what was made
  /// signed out was meant for); a write already on its way may still land. Otherwise what the device made signed out
  /// stays for the account signed in to.
  package mutating func recordAccountChange(
    device: String, to account: String?, response: AccountChangePolicy = .deleteLocalData, time: Date
  ) {
    let previous = self.account(of: device)
    guard previous != account else { return }
    counter += 1
    accountChanges.append(AccountChange(order: counter, device: device, from: previous, to: account))
    let owner = owner(of: device)
    // An app that asks keeps the data, still its owner's, until the user answers or the owner's account comes back
    // (unless nobody owns it: then it is uploaded to the account signed in to, as made signed out).
    var asks = false
    if response == .ask {
      if asking.contains(device) {
        asks = account != owner
        if !asks { asking.remove(device) }
      } else if previous != nil || owner != nil {
        asks = true
        asking.insert(device)
      }
    }
    if response.deletesLocalData(from: previous, to: account, owner: owner) {
      for lost in Set([previous ?? owner, previous == nil ? account : nil].compactMap { $0 }).sorted() {
        damage.append(Damage(order: counter, device: device, recordID: nil, time: time, account: lost))
      }
    }
    currentAccount[device] = .some(account)
    if let account, !asks { dataOwner[device] = .some(account) }
    keptThroughSignOut[device] = response == .keepForSameAccount && account == nil ? owner : nil
  }

  /// The account whose records `device` shows: the one it is signed in to, or the records' own while its app asks what
  /// to do with them, or keeps them through a sign-out for that account's return.
  package func holdingAccount(of device: String) -> String? {
    keptThroughSignOut[device] ?? writingAccount(of: device)
  }

  /// The account whose records `device`, signed out, keeps for its return (`AccountChangePolicy`'s keep); `nil` when
  /// it is signed in or kept nothing.
  package func keptThroughSignOut(by device: String) -> String? { keptThroughSignOut[device] }

  /// The run ended with `device` signed out, keeping its records for their account: what it had not sent waits for
  /// that account to sign in again, so the account's database is not held to it (the writes are withdrawn as if the
  /// copy went at the end; what landed is judged as ever).
  package mutating func recordKeptAtEnd(device: String, time: Date) {
    guard let owner = keptThroughSignOut[device] else { return }
    counter += 1
    damage.append(Damage(order: counter, device: device, recordID: nil, time: time, account: owner))
  }

  /// The account whose data `device` holds (`nil`: none's).
  private func owner(of device: String) -> String? { dataOwner[device] ?? primaryAccount }

  /// The account what a user writes on `device` now is for: the one it is signed in to, or, while its app asks what
  /// to do with the records after an account change, the records' own (the app shows and keeps them, unsent, until
  /// the answer).
  package func writingAccount(of device: String) -> String? {
    asking.contains(device) ? owner(of: device) : account(of: device)
  }

  /// Notes the user of `device` answering the question an account change asked (`AccountChangePolicy.ask`). Either
  /// way, what the device had not sent to the records' own account — what was written while the question was open
  /// included — never reaches it: withdrawn with every copy. A keep makes the records the current account's (the
  /// caller records each as a create of the user's).
  /// - Parameters:
  ///   - device: The device.
  ///   - keepingData: The answer.
  ///   - time: When.
  package mutating func recordAccountAnswer(device: String, keepingData: Bool, time: Date) {
    let owner = owner(of: device)
    let current = account(of: device)
    counter += 1
    asking.remove(device)
    // What was written while the question was open was the owner's too (``writingAccount(of:)``).
    if let owner, owner != current {
      damage.append(Damage(order: counter, device: device, recordID: nil, time: time, account: owner))
    }
    dataOwner[device] = .some(current)
  }

  /// The first time `device`'s app deleted all its local data (an account change) after history position `order` and
  /// before `end`: what the device had not sent by then is withdrawn, and what it saw forgotten.
  package func wipe(of device: String, after order: Int, before end: Int = .max) -> Damage? {
    damage.first { $0.recordID == nil && $0.device == device && $0.order > order && $0.order < end }
  }

  /// The account an action's writes are for: the one its device was signed in to, or, for an action made while
  /// signed out, the account the device signed in to next (`nil` when it never did), which it uploads them to.
  package func destination(of action: Action) -> String? {
    destination(action.account, device: action.device, order: action.order)
  }

  private func destination(_ account: String?, device: String, order: Int) -> String? {
    if let account { return account }
    return accountChanges.first { $0.device == device && $0.order > order }?.to
  }

  /// The history of one account's database: the actions meant for it (``destination(of:)``), the damage to its
  /// copies, and, for the `primary` account whose zone the faults delete, the zone deletions. What devices never
  /// learned of (unanswered saves and deletions) is kept whole: doubt about a record of one account only loosens the
  /// judgment of a record with the same name in another.
  package func only(account: String, primary: String) -> UserHistory {
    var result = self
    guard !accountChanges.isEmpty else {
      // No app learnt of an account change (a device signed in elsewhere while its app was not running, and back):
      // everything was meant for the primary account.
      if account == primary { return self }
      result.actions = []
      result.damage = []
      result.resets = []
      return result
    }
    result.actions = actions.filter { destination(of: $0) == account }
    result.damage = damage.filter { destination($0.account, device: $0.device, order: $0.order) == account }
    if account != primary { result.resets = [] }
    return result
  }

  /// The accounts whose databases users wrote for.
  package var accounts: Set<String> { Set(actions.compactMap { destination(of: $0) }) }

  /// Notes saves and deletions of `device` that landed, or may have landed, with no answer reaching it. A save whose
  /// latest request carried no change tag (a create, or a copy uploaded again) is a create in doubt too.
  package mutating func recordUnanswered(saved: [RecordID], deleted: [RecordID] = [], device: String) {
    for id in saved {
      unansweredSaves[id, default: []].insert(device)
      if lastSaveCreated[device]?.contains(id) == true { unansweredCreates[id, default: []].insert(device) }
    }
    for id in deleted { unansweredDeletes[id, default: []].insert(device) }
  }

  /// Notes that `device` sent a save of `id`, with no change tag (`created`: a new record on the wire) or with one.
  package mutating func recordSaveSent(_ id: RecordID, created: Bool, device: String) {
    if created {
      lastSaveCreated[device, default: []].insert(id)
    } else if lastSaveCreated[device]?.isEmpty == false {
      lastSaveCreated[device]?.remove(id)
    }
  }

  /// Whether the history holds any deletion by a user.
  package var hasDeletes: Bool { actions.contains { $0.isDelete } }
}
