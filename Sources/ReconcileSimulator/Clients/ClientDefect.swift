public import Reconcile

/// A deliberate mistake the reference client can be built with, each one a classic sync bug from the field, so that a
/// test can show the invariant that should catch it firing.
///
/// A run names its defects in its setup (``SimulationSetup/defects``) and its replay script (`defect NAME`), so a
/// shrunk counterexample replays against the same broken client. Never turn one on in an app's own tests except to
/// check that the oracles catch it.
public enum ClientDefect: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Deleting a record whose save was sent but not acknowledged drops the deletion instead of sending it, and a fetch
  /// re-inserts whatever it brings without consulting tombstones: when the save had landed, the record comes back
  /// (seed 004, "Keep Track of Deleted Records"). Caught by ``Invariant/noResurrection``.
  case dropUnacknowledgedDeletes = "drop-unacknowledged-deletes"
  /// The device keeps sending while halted. Caught by ``Invariant/haltedDeviceSendsNothing``.
  case sendWhileHalted = "send-while-halted"
  /// A save's acknowledgement overwrites the local copy even when the user edited it while the save was in flight,
  /// so those edits are never sent. Caught by ``Invariant/oneSidedChangesKept``.
  case dropEditsDuringSave = "drop-edits-during-save"
  /// The pending queue lives in memory only: a crash forgets what was waiting to be sent, so a new record or an edit
  /// stays on the device and never reaches the server. Caught by ``Invariant/convergence`` (and by
  /// ``Invariant/noResurrection`` when a deletion is forgotten and the next fetch brings the record back).
  case forgetQueueOnCrash = "forget-queue-on-crash"
  /// Deletions in fetched changes are skipped: the device keeps records the server deleted. Caught by
  /// ``Invariant/convergence`` and ``Invariant/noResurrection``.
  case ignoreFetchedDeletions = "ignore-fetched-deletions"
  /// The device sends its stored copies without checking them for damage. Caught by
  /// ``Invariant/damagedDataNeverUploaded``.
  case skipStorageCheck = "skip-storage-check"
  /// A crash restores the zone token from an old backup (the first token the device committed), so the device's
  /// token moves backwards. Caught by ``Invariant/serverInvariants``.
  case rewindTokenOnCrash = "rewind-token-on-crash"
  /// Saves rebuild the record from the keys the app knows, removing keys a newer app wrote. Caught by
  /// ``Invariant/unknownKeysKept``.
  case stripUnknownKeys = "strip-unknown-keys"

  /// A fetched page's token is committed before the page is applied: a crash between the two writes skips the page
  /// for good. Caught by ``Invariant/convergence`` (with torn crashes).
  case commitTokenBeforePage = "commit-token-before-page"
  /// Every fetched page is taken as the last one: the device stops fetching after the first page and shows none of the
  /// later pages' records until something else changes on the server (after a fetch from the beginning it even takes
  /// them for deleted). Caught by ``Invariant/convergence``.
  case ignoreMoreComing = "ignore-more-coming"
  /// A fetched record replaces the local copy even when it has unsent edits, which are lost. Caught by
  /// ``Invariant/oneSidedChangesKept``.
  case overwriteUnsentEdits = "overwrite-unsent-edits"
  /// A record the server deleted while the device edited it is saved again as new whatever the delete policy says (a
  /// fetched deletion, or `unknownItem` on a save). Caught by ``Invariant/noResurrection`` under `.deleteWins`.
  case resaveDeleted = "resave-deleted"
  /// A conflict is merged into the local copy but the merged record is never queued to be sent: the next fetch
  /// replaces it with the server's version, and the device's side of the merge is lost. Caught by
  /// ``Invariant/oneSidedChangesKept``.
  case resolveWithoutResend = "resolve-without-resend"
  /// Conflicts are merged two-way, without the ancestor: every key the two sides disagree on takes the device's value,
  /// so the device's stale values overwrite other devices' newer ones. Caught by ``Invariant/oneSidedChangesKept``.
  case mergeWithoutAncestor = "merge-without-ancestor"
  /// When the zone is gone (`zoneNotFound`, or deleted elsewhere), every local record is dropped, even those created
  /// after the deletion that the server never had. Caught by ``Invariant/noLostRecords``.
  case dropDataOnZoneNotFound = "drop-data-on-zone-not-found"
  /// Transient errors are retried at once, ignoring the server's retry-after. Caught on the wire by
  /// ``Invariant/retryAfterHonoured``.
  case ignoreRetryAfter = "ignore-retry-after"
  /// Transient errors are retried one second before the server's retry-after ends: close, but early. Caught on the
  /// wire by ``Invariant/retryAfterHonoured``, which tolerates no early second.
  case retryEarly = "retry-early"
  /// `limitExceeded` does not halve the batch: the same oversized batch is sent again and again. Caught by
  /// ``Invariant/liveness``.
  case neverHalveBatch = "never-halve-batch"
  /// Deleting a record whose save is still queued keeps the save too, and both go in one operation, which the server
  /// refuses. Caught by ``Invariant/liveness``.
  case saveAndDeleteTogether = "save-and-delete-together"

  /// Under `.editWins`, an edit that meets a concurrent deletion (`unknownItem` on its save, or a fetched deletion
  /// while it is unsent) is dropped as `.deleteWins` would: the policy's promise is broken. Caught by
  /// ``Invariant/noLostRecords`` under `.editWins`.
  case dropRevivingEdits = "drop-reviving-edits"
  /// Under `.editWins`, any fetched version cancels an unsent deletion, even one the deletion saw (the version
  /// deleted, or this device's own save landing after the user deleted the record). Caught by
  /// ``Invariant/noResurrection`` under `.editWins`.
  case ownSaveCancelsDeletion = "own-save-cancels-deletion"

  /// A record created under the ID of one the user deleted on this device gets the deleted copy's other fields back
  /// beneath its own values (an undo cache kept past the deletion): the new record carries keys nobody wrote in its
  /// life. Caught by ``Invariant/oneSidedChangesKept``, which judges every user key of a final record.
  case recreateRestoresDeletedFields = "recreate-restores-deleted-fields"
  /// Resetting sync starts over from the server's copies: the queue is dropped and each record waiting to be sent goes
  /// back to the last version the server acknowledged, or away (sqlite-data #524, where tearing the engine down lost
  /// unsent changes). Caught by ``Invariant/oneSidedChangesKept`` (an unsent edit goes back) and
  /// ``Invariant/noLostRecords`` (a new record goes away).
  case resetSyncDropsUnsent = "reset-sync-drops-unsent"
  /// A purge in Settings is answered by uploading everything again, as to an encrypted-data reset: what the user
  /// deleted comes back (SyncKit, IceCream and Seam3 users report it). Caught by ``Invariant/noResurrection``.
  case reuploadAfterPurge = "reupload-after-purge"
  /// An encrypted-data reset is answered as a purge: local data is deleted and nothing is uploaded again, so the user
  /// loses everything the reset took from the server (Apple's CKSyncEngine sample deletes local data for every reason).
  /// Caught by ``Invariant/noLostRecords``.
  case resetTreatedAsPurge = "reset-treated-as-purge"
  /// A switch of iCloud accounts keeps the previous account's records and queue: they are shown under the new account
  /// and uploaded into its database. Caught by ``Invariant/accountsKeptApart``.
  case keepDataAcrossAccounts = "keep-data-across-accounts"
  /// A sign-out or switch deletes the records the server has, but keeps the changes still waiting to be sent, and
  /// sends them once a user signs in — to whichever account that is. Caught by ``Invariant/accountsKeptApart``.
  case uploadPendingToNewAccount = "upload-pending-to-new-account"
  /// A sign-out or switch deletes local data but keeps the sync state — change tokens and the deletions still queued,
  /// as an engine's saved state holds them. Back in an account it synced before, the device's tokens say it has what
  /// it deleted, so it never fetches the account's records again: caught by ``Invariant/convergence``. (A deletion the
  /// user made under one account is also sent to the next, where it deletes that account's record of the same name,
  /// which ``Invariant/noLostRecords`` reports; random runs meet that far more rarely.)
  case keepSyncStateAcrossAccounts = "keep-sync-state-across-accounts"
  /// Deletions are sent as soon as they are made, without fetching first. A deletion carries no change tag, so it
  /// deletes whatever the server holds under the ID — even a record another device created anew after this one was
  /// deleted here. Caught by ``Invariant/noLostRecords``.
  case sendDeletionsWithoutFetch = "send-deletions-without-fetch"
  /// A save whose answer was lost is forgotten (seed 004's pitfall): when a fetch brings the value it landed, the
  /// merge takes it for another device's change made over the last version the server acknowledged, and the user's
  /// later edit of the same key loses to the user's own earlier value. Caught by ``Invariant/oneSidedChangesKept``.
  case forgetUnansweredSaves = "forget-unanswered-saves"

  /// The delete policy the defect needs to show: the two `.editWins` mistakes cannot happen under `.deleteWins`.
  public var deletePolicy: DeletePolicy {
    switch self {
    case .dropRevivingEdits, .ownSaveCancelsDeletion: .editWins
    default: .deleteWins
    }
  }

  /// The script name.
  public var description: String { rawValue }
}

extension ClientDefect {
  /// The rule of Reconcile's `ZoneReplica` whose absence this defect is, so that the CKSyncEngine client (the replica
  /// inside) makes the same mistake; `nil` for a mistake only a client running its own requests can make (retries,
  /// paging, tokens, storage checks), or one the replica has no rule for.
  package var replicaFlaw: ReplicaFlaw? {
    switch self {
    case .dropUnacknowledgedDeletes: .dropUnacknowledgedDeletes
    case .dropEditsDuringSave: .dropEditsDuringSave
    case .forgetQueueOnCrash: .forgetQueueOnCrash
    case .ignoreFetchedDeletions: .ignoreFetchedDeletions
    case .stripUnknownKeys: .stripUnknownKeys
    case .overwriteUnsentEdits: .overwriteUnsentEdits
    case .resaveDeleted: .resaveDeleted
    case .resolveWithoutResend: .resolveWithoutResend
    case .mergeWithoutAncestor: .mergeWithoutAncestor
    case .dropDataOnZoneNotFound: .dropDataOnZoneNotFound
    case .dropRevivingEdits: .dropRevivingEdits
    case .ownSaveCancelsDeletion: .ownSaveCancelsDeletion
    case .resetSyncDropsUnsent: .resetSyncDropsUnsent
    case .reuploadAfterPurge: .reuploadAfterPurge
    case .resetTreatedAsPurge: .resetTreatedAsPurge
    case .keepDataAcrossAccounts: .keepDataAcrossAccounts
    case .uploadPendingToNewAccount: .uploadPendingToNewAccount
    case .sendDeletionsWithoutFetch: .sendDeletionsWithoutFetch
    case .forgetUnansweredSaves: .forgetUnansweredSaves
    case .sendWhileHalted, .skipStorageCheck, .rewindTokenOnCrash, .commitTokenBeforePage, .ignoreMoreComing,
      .ignoreRetryAfter, .retryEarly, .neverHalveBatch, .saveAndDeleteTogether, .recreateRestoresDeletedFields,
      .keepSyncStateAcrossAccounts:
      nil
    }
  }
}

extension ClientDefect {
  /// Whether the defect removes a rule of Reconcile's sync core, so that the CKSyncEngine client makes it too.
  public var removesCoreRule: Bool { replicaFlaw != nil }
}
