extension ClientDefect {
  /// The invariant that catches the defect in random runs.
  public var caughtBy: Invariant {
    switch self {
    case .dropUnacknowledgedDeletes, .resaveDeleted, .ownSaveCancelsDeletion, .reuploadAfterPurge: .noResurrection
    case .dropRevivingEdits, .sendDeletionsWithoutFetch: .noLostRecords
    case .sendWhileHalted: .haltedDeviceSendsNothing
    case .dropEditsDuringSave, .overwriteUnsentEdits, .mergeWithoutAncestor, .recreateRestoresDeletedFields,
      .resolveWithoutResend, .resetSyncDropsUnsent, .forgetUnansweredSaves:
      .oneSidedChangesKept
    case .ignoreFetchedDeletions, .commitTokenBeforePage, .ignoreMoreComing, .keepSyncStateAcrossAccounts,
      .forgetQueueOnCrash:
      .convergence
    case .skipStorageCheck: .damagedDataNeverUploaded
    case .rewindTokenOnCrash: .serverInvariants
    case .keepDataAcrossAccounts, .uploadPendingToNewAccount: .accountsKeptApart
    case .stripUnknownKeys: .unknownKeysKept
    case .dropDataOnZoneNotFound, .resetTreatedAsPurge: .noLostRecords
    case .ignoreRetryAfter, .retryEarly: .retryAfterHonoured
    case .neverHalveBatch, .saveAndDeleteTogether: .liveness
    }
  }
}
