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

extension ZoneReplica {
  /// Whether the rule `flaw` removes is switched off (never, outside the simulator's zoo).
  @inline(__always)
  func flawed(_ flaw: ReplicaFlaw) -> Bool {
    !configuration.flaws.isEmpty && configuration.flaws.contains(flaw)
  }

  /// Whether a zone deletion for `reason` drops what the server had acknowledged: the zone-loss policy, unless a
  /// flaw bends it.
  func dropsLocalData(after reason: SyncEngine.ZoneDeletion.Reason) -> Bool {
    if reason == .purged, flawed(.reuploadAfterPurge) { return false }
    if reason == .encryptedDataReset, flawed(.resetTreatedAsPurge) { return true }
    return configuration.zoneLoss.dropsLocalData(after: reason)
  }

  /// The delete policy an edit meeting a concurrent deletion is settled by.
  var revivingPolicy: DeletePolicy {
    flawed(.dropRevivingEdits) ? .deleteWins : configuration.deletePolicy
  }
}
