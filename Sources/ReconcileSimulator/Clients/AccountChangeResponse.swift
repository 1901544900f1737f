/// What an app does with its local data when the device's iCloud account changes.
///
/// CKSyncEngine's header asks apps to delete the previous account's local data on a sign-out or a switch; on a sign-in
/// the app may merge, keep separately, delete, or ask. Apple's sample deletes on a sign-out and a switch and uploads on
/// a sign-in (the default here). Some apps keep the data through a sign-out, for the same account to find again (what
/// sqlite-data lets a delegate choose): then a sign-in to that account resumes where it stopped, and one to another
/// account deletes it first.
public enum AccountChangeResponse: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Delete local data on a sign-out or switch; upload what was made signed out on the next sign-in.
  case deleteLocalData = "delete"
  /// Keep local data through a sign-out, for the account it belongs to; delete it when another account signs in.
  case keepForSameAccount = "keep"
  /// Keep everything and pause syncing until the user says whether the records go with the account signed in now
  /// (`NAME answer-account keep`: uploaded to it) or go away (`NAME answer-account delete`); a first sign-in with
  /// records nobody owns uploads them without asking. A run ends by answering an open question with delete.
  case ask

  /// The script name: `delete`, `keep` or `ask`.
  public var description: String { rawValue }
}

extension AccountChangeResponse {
  /// Whether the device deletes its local data when its account changes from `previous` to `next`, the data
  /// belonging to `owner` (the account it was last synced with; `nil` for data made while never signed in).
  package func deletesLocalData(from previous: String?, to next: String?, owner: String?) -> Bool {
    switch self {
    case .deleteLocalData: previous != nil
    case .keepForSameAccount: next != nil && owner != nil && next != owner
    // Nothing goes until the user answers (``UserHistory/recordAccountAnswer``).
    case .ask: false
    }
  }
}
