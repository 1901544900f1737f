public import Reconcile

/// What an app does with its local data when the device's iCloud account changes: the core's `AccountChangePolicy`,
/// by the name the simulator's configuration and scripts (`account-change delete|keep|ask`) have always used.
///
/// CKSyncEngine's header asks apps to delete the previous account's local data on a sign-out or a switch; on a sign-in
/// the app may merge, keep separately, delete, or ask. Apple's sample deletes on a sign-out and a switch and uploads on
/// a sign-in (the default here). Some apps keep the data through a sign-out, for the same account to find again (what
/// sqlite-data lets a delegate choose); others ask the user (`NAME answer-account keep|delete` answers; a run ends by
/// answering an open question with delete).
public typealias AccountChangeResponse = AccountChangePolicy

extension AccountChangePolicy {
  /// Whether the device deletes its local data when its account changes from `previous` to `next`, the data
  /// belonging to `owner` (the account it was last synced with; `nil` for data made while never signed in).
  package func deletesLocalData(from previous: String?, to next: String?, owner: String?) -> Bool {
    switch self {
    case .deleteLocalData: previous != nil
    case .keepForSameAccount: next != nil && owner != nil && next != owner
    // Nothing goes until the user answers (``UserHistory/recordAccountAnswer(device:keepingData:time:)``).
    case .ask: false
    }
  }
}
