/// What a ``ZoneReplica`` does with the records it holds when the iCloud account changes.
///
/// CKSyncEngine resets its state on an account change and tells the delegate; what happens to the app's data is the
/// app's choice. Apple's guidance, and the default, is to delete the previous account's data: it is that account's, and
/// must not reach the next one.
public enum AccountChangePolicy: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// A sign-out or a switch deletes the previous account's records (handed to the app first); a sign-in from no
  /// account uploads what was made while signed out.
  case deleteLocalData = "delete"
  /// Records stay while signed out, and sync again when the same account signs back in; another account signing in
  /// deletes them first.
  case keepForSameAccount = "keep"
  /// Sending pauses and every record stays until the app tells the replica what the user chose
  /// (``ZoneReplica/resolveAccountChange(keepingData:syncEngine:)``): keep them for the current account, or delete them.
  case ask

  /// The name scripts and the command line use: `delete`, `keep` or `ask`.
  public var description: String { rawValue }
}
