extension ClientDefect {
  /// The invariant that catches the defect in random runs.
  public var caughtBy: Invariant {
    switch self {
    case .dropUnacknowledgedDeletes, .resaveDeleted, .ownSaveCancelsDeletion, .reuploadAfterPurge: .noResurrection
    case .dropRevivingEdits, .sendDeletionsWithoutFetch: .noLostRecords
    case .sendWhileHalted: .haltedDeviceSendsNothing
    case .dropEditsDuringSave, .overwriteUnsentEdits, .mergeWithoutAncestor, .recreateRestoresDeletedFields:
      .oneSidedChangesKept
    case .forgetQueueOnCrash, .ignoreFetchedDeletions, .commitTokenBeforePage, .ignoreMoreComing, .resolveWithoutResend,
      .keepSyncStateAcrossAccounts:
      .convergence
    case .skipStorageCheck: .damagedDataNeverUploaded
    case .rewindTokenOnCrash: .serverInvariants
    case .keepDataAcrossAccounts, .uploadPendingToNewAccount: .accountsKeptApart
    case .stripUnknownKeys: .unknownKeysKept
    case .dropDataOnZoneNotFound, .resetSyncDropsUnsent, .resetTreatedAsPurge:
      .noLostRecords
    case .ignoreRetryAfter, .retryEarly: .retryAfterHonoured
    case .neverHalveBatch, .saveAndDeleteTogether: .liveness
    }
  }
}
