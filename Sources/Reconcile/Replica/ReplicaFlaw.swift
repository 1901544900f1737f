/// One rule of ``ZoneReplica`` switched off on purpose, so that a seeded run can show the rule's absence caught: the
/// simulator's zoo of classic sync bugs builds its CKSyncEngine client with one. Each case is named, in Swift and in
/// scripts, as the simulator's `ClientDefect` of the same mistake. Never set outside such a test.
package enum ReplicaFlaw: String, Sendable, Hashable, CaseIterable {
  /// A new record handed to the engine is taken as never sent: deleting it is local only, and a copy of its save that
  /// lands later is kept.
  case dropUnacknowledgedDeletes = "drop-unacknowledged-deletes"
  /// A saved record replaces the local copy, dropping the edits made while its save was in flight.
  case dropEditsDuringSave = "drop-edits-during-save"
  /// What the store holds unsent is not added to the engine again at launch.
  case forgetQueueOnCrash = "forget-queue-on-crash"
  /// Fetched deletions are ignored.
  case ignoreFetchedDeletions = "ignore-fetched-deletions"
  /// Saves leave out the keys a newer app wrote.
  case stripUnknownKeys = "strip-unknown-keys"
  /// A fetched version replaces a copy with unsent edits.
  case overwriteUnsentEdits = "overwrite-unsent-edits"
  /// A record deleted on the server while edited here is uploaded again whatever the delete policy.
  case resaveDeleted = "resave-deleted"
  /// A merged conflict is not queued to be sent.
  case resolveWithoutResend = "resolve-without-resend"
  /// Conflicts merge two-way: every key the two sides disagree on takes the local value.
  case mergeWithoutAncestor = "merge-without-ancestor"
  /// A lost zone takes every local record, even those the server never had.
  case dropDataOnZoneNotFound = "drop-data-on-zone-not-found"
  /// Under `.editWins`, an edit meeting a concurrent deletion is dropped as under `.deleteWins`.
  case dropRevivingEdits = "drop-reviving-edits"
  /// Under `.editWins`, any fetched version cancels an unsent deletion, even the version the deletion saw.
  case ownSaveCancelsDeletion = "own-save-cancels-deletion"
  /// A forced resync drops what the old engine had pending: records go back to the last version the server
  /// acknowledged, or away.
  case resetSyncDropsUnsent = "reset-sync-drops-unsent"
  /// A purge is answered by uploading everything again.
  case reuploadAfterPurge = "reupload-after-purge"
  /// An encrypted-data reset is answered as a purge: local data goes.
  case resetTreatedAsPurge = "reset-treated-as-purge"
  /// A switch of accounts keeps the records and uploads them to the new account.
  case keepDataAcrossAccounts = "keep-data-across-accounts"
  /// A sign-out or switch drops the records the server has but keeps what was unsent, and sends it to whichever
  /// account signs in.
  case uploadPendingToNewAccount = "upload-pending-to-new-account"
  /// Deletions are sent at once, without waiting for a fetch: a deletion carries no change tag, so it deletes
  /// whatever version the server holds, even a record created anew elsewhere.
  case sendDeletionsWithoutFetch = "send-deletions-without-fetch"
  /// A save whose answer was lost is forgotten: fetched, the value it landed is merged as another device's change.
  case forgetUnansweredSaves = "forget-unanswered-saves"
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
