public import Reconcile

/// The core's `AccountChangePolicy`, by the name the simulator used before it had the core's.
@available(
  *, deprecated, renamed: "AccountChangePolicy", message: "One name per concept: use the core's AccountChangePolicy."
)
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
