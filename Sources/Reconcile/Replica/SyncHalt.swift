/// Why a ``ZoneReplica`` stopped sending: a change it must not make without the user or an app update. The unsent
/// change is kept, and nothing is sent until an app update (``ZoneReplica/upgrade(to:)``) or, after an account change,
/// the user's answer (``ZoneReplica/resolveAccountChange(keepingData:syncEngine:)``).
public enum SyncHalt: Sendable, Hashable, Codable, CustomStringConvertible {
  /// A conflict with a record from a newer app (the schema's check halted): this app must not merge into it.
  case schema(SchemaHalt)
  /// The resolver refused to merge a conflict on the record.
  case unresolvableConflict(RecordID, String)
  /// The iCloud account changed under ``AccountChangePolicy/ask``: every record stays, and nothing is sent or fetched
  /// into the store, until ``ZoneReplica/resolveAccountChange(keepingData:syncEngine:)`` says what the user chose.
  case accountChanged(SyncEngine.AccountChange)

  /// What to show the user.
  public var description: String {
    switch self {
    case .schema(let halt): halt.description
    case .unresolvableConflict(let id, let reason):
      "A conflict on \(id.recordName) could not be merged: \(reason). Nothing was saved."
    case .accountChanged(let change):
      change.currentUser == nil
        ? "You signed out of iCloud. Choose whether to keep this device's data or delete it."
        : "The iCloud account changed. Choose whether to keep this device's data for the new account or delete it."
    }
  }
}
