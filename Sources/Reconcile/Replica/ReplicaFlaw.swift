/// One rule of ``ZoneReplica`` switched off on purpose, so that a seeded run can show the rule's absence caught: the
/// simulator's zoo of classic sync bugs builds its CKSyncEngine client with one. Each case is named as the simulator's
/// `ClientDefect` of the same mistake, which maps to it by a switch (`ClientDefect.replicaFlaw`). Never set outside
/// such a test.
package enum ReplicaFlaw: Sendable, Hashable, CaseIterable {
  /// A new record handed to the engine is taken as never sent: deleting it is local only, and a copy of its save that
  /// lands later is kept.
  case dropUnacknowledgedDeletes
  /// A saved record replaces the local copy, dropping the edits made while its save was in flight.
  case dropEditsDuringSave
  /// What the store holds unsent is not added to the engine again at launch.
  case forgetQueueOnCrash
  /// Fetched deletions are ignored.
  case ignoreFetchedDeletions
  /// Saves leave out the keys a newer app wrote.
  case stripUnknownKeys
  /// A fetched version replaces a copy with unsent edits.
  case overwriteUnsentEdits
  /// A record deleted on the server while edited here is uploaded again whatever the delete policy.
  case resaveDeleted
  /// A merged conflict is not queued to be sent.
  case resolveWithoutResend
  /// Conflicts merge two-way: every key the two sides disagree on takes the local value.
  case mergeWithoutAncestor
  /// A lost zone takes every local record, even those the server never had.
  case dropDataOnZoneNotFound
  /// Under `.editWins`, an edit meeting a concurrent deletion is dropped as under `.deleteWins`.
  case dropRevivingEdits
  /// Under `.editWins`, any fetched version cancels an unsent deletion, even the version the deletion saw.
  case ownSaveCancelsDeletion
  /// A forced resync drops what the old engine had pending: records go back to the last version the server
  /// acknowledged, or away.
  case resetSyncDropsUnsent
  /// A purge is answered by uploading everything again.
  case reuploadAfterPurge
  /// An encrypted-data reset is answered as a purge: local data goes.
  case resetTreatedAsPurge
  /// A switch of accounts keeps the records and uploads them to the new account.
  case keepDataAcrossAccounts
  /// A sign-out or switch drops the records the server has but keeps what was unsent, and sends it to whichever
  /// account signs in.
  case uploadPendingToNewAccount
  /// Deletions are sent at once, without waiting for a fetch: a deletion carries no change tag, so it deletes
  /// whatever version the server holds, even a record created anew elsewhere.
  case sendDeletionsWithoutFetch
  /// A save whose answer was lost is forgotten: fetched, the value it landed is merged as another device's change.
  case forgetUnansweredSaves
}

/// The rules of ``ZoneReplica`` the simulator's zoo can switch off, each named for what it keeps; all hold outside the
/// zoo. The one place a deliberate bug reaches the core: a ``ReplicaFlaw`` switches off its rule here, and the shipped
/// rules read the rule, never the flaw.
package struct CoreRules: Sendable, Hashable {
  /// A new record handed to the engine may have landed: deleting it reaches the server, and a late copy of its save is deleted again.
  package private(set) var sendsDeletionsOfCreatesHandedOut = true
  /// Edits made while a save was in flight stay on top of the saved record's system fields.
  package private(set) var keepsEditsMadeDuringSave = true
  /// At launch, whatever the store holds unsent is pending on the engine again.
  package private(set) var requeuesUnsentAtLaunch = true
  /// A deletion a fetch brings removes the local copy.
  package private(set) var appliesFetchedDeletions = true
  /// A save keeps the keys a newer app wrote.
  package private(set) var keepsUnknownKeys = true
  /// A fetched version merges with a copy's unsent edits instead of replacing them.
  package private(set) var mergesUnsentEdits = true
  /// A record deleted on the server while edited here is uploaded again only as the delete policy says.
  package private(set) var respectsServerDeletions = true
  /// A merged conflict whose result differs from the server's is sent.
  package private(set) var resendsMerges = true
  /// Conflicts merge three ways, over the last server version known.
  package private(set) var mergesOverAncestor = true
  /// A lost zone takes only what the server had acknowledged, as the policy says; records it never had are uploaded again.
  package private(set) var keepsUnacknowledgedOnZoneLoss = true
  /// Under `.editWins`, an edit meeting a concurrent deletion revives the record.
  package private(set) var editWinsRevives = true
  /// Under `.editWins`, only a version the deletion did not see cancels it, never this device's own save.
  package private(set) var ownSaveKeepsDeletion = true
  /// A forced resync keeps what the old engine had pending.
  package private(set) var resetSyncKeepsUnsent = true
  /// A purge (the user deleting the app's data) drops local data.
  package private(set) var purgeDropsLocalData = true
  /// An encrypted-data reset keeps local data, to upload again.
  package private(set) var resetKeepsLocalData = true
  /// A switch of accounts deletes the previous account's records.
  package private(set) var accountSwitchDeletesData = true
  /// A switch of accounts deletes what was unsent too, instead of sending it to the next account.
  package private(set) var accountSwitchDeletesUnsent = true
  /// A deletion waits for a fetch that starts after it (it carries no change tag).
  package private(set) var deletionsWaitForFetch = true
  /// Versions sent whose answers were lost are remembered, so a value they landed is not taken for another device's.
  package private(set) var remembersUnansweredSaves = true

  /// Every rule held.
  package init() {}

  /// Every rule held but those `flaws` switch off.
  /// - Parameter flaws: The deliberate bugs.
  package init(removing flaws: Set<ReplicaFlaw>) {
    for flaw in flaws {
      switch flaw {
      case .dropUnacknowledgedDeletes: sendsDeletionsOfCreatesHandedOut = false
      case .dropEditsDuringSave: keepsEditsMadeDuringSave = false
      case .forgetQueueOnCrash: requeuesUnsentAtLaunch = false
      case .ignoreFetchedDeletions: appliesFetchedDeletions = false
      case .stripUnknownKeys: keepsUnknownKeys = false
      case .overwriteUnsentEdits: mergesUnsentEdits = false
      case .resaveDeleted: respectsServerDeletions = false
      case .resolveWithoutResend: resendsMerges = false
      case .mergeWithoutAncestor: mergesOverAncestor = false
      case .dropDataOnZoneNotFound: keepsUnacknowledgedOnZoneLoss = false
      case .dropRevivingEdits: editWinsRevives = false
      case .ownSaveCancelsDeletion: ownSaveKeepsDeletion = false
      case .resetSyncDropsUnsent: resetSyncKeepsUnsent = false
      case .reuploadAfterPurge: purgeDropsLocalData = false
      case .resetTreatedAsPurge: resetKeepsLocalData = false
      case .keepDataAcrossAccounts: accountSwitchDeletesData = false
      case .uploadPendingToNewAccount: accountSwitchDeletesUnsent = false
      case .sendDeletionsWithoutFetch: deletionsWaitForFetch = false
      case .forgetUnansweredSaves: remembersUnansweredSaves = false
      }
    }
  }
}

extension ZoneReplica {
  /// The rules the configuration keeps (every one, outside the simulator's zoo).
  var rules: CoreRules { configuration.rules }

  /// Whether a zone deletion for `reason` drops what the server had acknowledged: the zone-loss policy, unless a
  /// rule is switched off.
  func dropsLocalData(after reason: SyncEngine.ZoneDeletion.Reason) -> Bool {
    if reason == .purged, !rules.purgeDropsLocalData { return false }
    if reason == .encryptedDataReset, !rules.resetKeepsLocalData { return true }
    return configuration.zoneLoss.dropsLocalData(after: reason)
  }

  /// The delete policy an edit meeting a concurrent deletion is settled by.
  var revivingPolicy: DeletePolicy {
    rules.editWinsRevives ? configuration.deletePolicy : .deleteWins
  }
}
