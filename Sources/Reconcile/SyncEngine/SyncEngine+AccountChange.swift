extension SyncEngine {
  /// `CKSyncEngine.Event.AccountChange`: how the device's iCloud account changed, with the user record names of the
  /// accounts (`CKRecord.ID.recordName` of the user record, such as `_4f…`).
  ///
  /// The engine has already reset its state: pending database and record-zone changes are cleared. Several changes
  /// while the app was not running arrive as one, from the last account the engine knew to the current one.
  public enum AccountChange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Signed in, from no account. Local data may be merged with the account's, kept apart, deleted, or the user
    /// asked: the app decides.
    case signIn(currentUser: String)
    /// Signed out: Apple asks apps to delete the local data of the previous account.
    case signOut(previousUser: String)
    /// Switched accounts (also a sign-out and a sign-in while the app was not running): Apple asks apps to delete the
    /// local data of the previous account.
    case switchAccounts(previousUser: String, currentUser: String)

    /// The account signed out of, if any.
    public var previousUser: String? {
      switch self {
      case .signIn: nil
      case .signOut(let previous), .switchAccounts(let previous, _): previous
      }
    }

    /// The account signed in to now, if any.
    public var currentUser: String? {
      switch self {
      case .signOut: nil
      case .signIn(let current), .switchAccounts(_, let current): current
      }
    }

    /// The change between two states of the device's account, or `nil` when they are the same account.
    /// - Parameters:
    ///   - previous: The account the engine last knew (`nil`: none).
    ///   - current: The account now (`nil`: none).
    public init?(from previous: String?, to current: String?) {
      switch (previous, current) {
      case (nil, nil): return nil
      case (nil, let current?): self = .signIn(currentUser: current)
      case (let previous?, nil): self = .signOut(previousUser: previous)
      case (let previous?, let current?):
        guard previous != current else { return nil }
        self = .switchAccounts(previousUser: previous, currentUser: current)
      }
    }

    /// `signIn(…)`, `signOut(…)` or `switchAccounts(… → …)`.
    public var description: String {
      switch self {
      case .signIn(let current): "signIn(\(current))"
      case .signOut(let previous): "signOut(\(previous))"
      case .switchAccounts(let previous, let current): "switchAccounts(\(previous) → \(current))"
      }
    }
  }
}
