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
  /// The rules switched off, one bit each (in the order the properties are declared).
  private var off: UInt32 = 0

  /// A new record handed to the engine may have landed: deleting it reaches the server, and a late copy of its
  /// save is deleted again.
  package var sendsDeletionsOfCreatesHandedOut: Bool { off & (1 << 0) == 0 }
  /// Edits made while a save was in flight stay on top of the saved record's system fields.
  package var keepsEditsMadeDuringSave: Bool { off & (1 << 1) == 0 }
  /// At launch, whatever the store holds unsent is pending on the engine again.
  package var requeuesUnsentAtLaunch: Bool { off & (1 << 2) == 0 }
  /// A deletion a fetch brings removes the local copy.
  package var appliesFetchedDeletions: Bool { off & (1 << 3) == 0 }
  /// A save keeps the keys a newer app wrote.
  package var keepsUnknownKeys: Bool { off & (1 << 4) == 0 }
  /// A fetched version merges with a copy's unsent edits instead of replacing them.
  package var mergesUnsentEdits: Bool { off & (1 << 5) == 0 }
  /// A record deleted on the server while edited here is uploaded again only as the delete policy says.
  package var respectsServerDeletions: Bool { off & (1 << 6) == 0 }
  /// A merged conflict whose result differs from the server's is sent.
  package var resendsMerges: Bool { off & (1 << 7) == 0 }
  /// Conflicts merge three ways, over the last server version known.
  package var mergesOverAncestor: Bool { off & (1 << 8) == 0 }
  /// A lost zone takes only what the server had acknowledged, as the policy says; records it never had are
  /// uploaded again.
  package var keepsUnacknowledgedOnZoneLoss: Bool { off & (1 << 9) == 0 }
  /// Under `.editWins`, an edit meeting a concurrent deletion revives the record.
  package var editWinsRevives: Bool { off & (1 << 10) == 0 }
  /// Under `.editWins`, only a version the deletion did not see cancels it, never this device's own save.
  package var ownSaveKeepsDeletion: Bool { off & (1 << 11) == 0 }
  /// A forced resync keeps what the old engine had pending.
  package var resetSyncKeepsUnsent: Bool { off & (1 << 12) == 0 }
  /// A purge (the user deleting the app's data) drops local data.
  package var purgeDropsLocalData: Bool { off & (1 << 13) == 0 }
  /// An encrypted-data reset keeps local data, to upload again.
  package var resetKeepsLocalData: Bool { off & (1 << 14) == 0 }
  /// A switch of accounts deletes the previous account's records.
  package var accountSwitchDeletesData: Bool { off & (1 << 15) == 0 }
  /// A switch of accounts deletes what was unsent too, instead of sending it to the next account.
  package var accountSwitchDeletesUnsent: Bool { off & (1 << 16) == 0 }
  /// A deletion waits for a fetch that starts after it (it carries no change tag).
  package var deletionsWaitForFetch: Bool { off & (1 << 17) == 0 }
  /// Versions sent whose answers were lost are remembered, so a value they landed is not taken for another device's.
  package var remembersUnansweredSaves: Bool { off & (1 << 18) == 0 }

  /// Every rule held.
  package init() {}

  /// Every rule held but those `flaws` switch off.
  /// - Parameter flaws: The deliberate bugs.
  package init(removing flaws: Set<ReplicaFlaw>) {
    for flaw in flaws { off |= 1 << Self.bit(of: flaw) }
  }

  /// The bit of the rule `flaw` switches off: the one switch from a flaw to its rule.
  private static func bit(of flaw: ReplicaFlaw) -> UInt32 {
    switch flaw {
    case .dropUnacknowledgedDeletes: 0
    case .dropEditsDuringSave: 1
    case .forgetQueueOnCrash: 2
    case .ignoreFetchedDeletions: 3
    case .stripUnknownKeys: 4
    case .overwriteUnsentEdits: 5
    case .resaveDeleted: 6
    case .resolveWithoutResend: 7
    case .mergeWithoutAncestor: 8
    case .dropDataOnZoneNotFound: 9
    case .dropRevivingEdits: 10
    case .ownSaveCancelsDeletion: 11
    case .resetSyncDropsUnsent: 12
    case .reuploadAfterPurge: 13
    case .resetTreatedAsPurge: 14
    case .keepDataAcrossAccounts: 15
    case .uploadPendingToNewAccount: 16
    case .sendDeletionsWithoutFetch: 17
    case .forgetUnansweredSaves: 18
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
