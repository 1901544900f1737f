/// The classic sync bugs a reference device plays (``ClientDefect``), gathered in one value the device asks on its hot
/// paths — before every send, on every fetched record — as a bit test instead of a hashed set lookup.
package struct DefectSet: Sendable, Hashable {
  private var bits: UInt32 = 0

  /// The defects of `defects`.
  package init(_ defects: some Sequence<ClientDefect>) {
    for defect in defects { bits |= Self.bit(defect) }
  }

  /// Whether the device makes `defect`.
  @inline(__always)
  package func contains(_ defect: ClientDefect) -> Bool { bits & Self.bit(defect) != 0 }

  /// Each defect's bit. The switch is exhaustive, so a new defect needs a bit; `DefectSetTests` checks they differ.
  @inline(__always)
  static func bit(_ defect: ClientDefect) -> UInt32 {
    switch defect {
    case .dropUnacknowledgedDeletes: 1 << 0
    case .sendWhileHalted: 1 << 1
    case .dropEditsDuringSave: 1 << 2
    case .forgetQueueOnCrash: 1 << 3
    case .ignoreFetchedDeletions: 1 << 4
    case .skipStorageCheck: 1 << 5
    case .rewindTokenOnCrash: 1 << 6
    case .stripUnknownKeys: 1 << 7
    case .commitTokenBeforePage: 1 << 8
    case .ignoreMoreComing: 1 << 9
    case .overwriteUnsentEdits: 1 << 10
    case .resaveDeleted: 1 << 11
    case .resolveWithoutResend: 1 << 12
    case .mergeWithoutAncestor: 1 << 13
    case .dropDataOnZoneNotFound: 1 << 14
    case .ignoreRetryAfter: 1 << 15
    case .retryEarly: 1 << 16
    case .neverHalveBatch: 1 << 17
    case .saveAndDeleteTogether: 1 << 18
    case .dropRevivingEdits: 1 << 19
    case .ownSaveCancelsDeletion: 1 << 20
    case .recreateRestoresDeletedFields: 1 << 21
    case .resetSyncDropsUnsent: 1 << 22
    case .reuploadAfterPurge: 1 << 23
    case .keepDataAcrossAccounts: 1 << 24
    case .uploadPendingToNewAccount: 1 << 25
    case .keepSyncStateAcrossAccounts: 1 << 26
    case .resetTreatedAsPurge: 1 << 27
    case .sendDeletionsWithoutFetch: 1 << 28
    case .forgetUnansweredSaves: 1 << 29
    }
  }
}
