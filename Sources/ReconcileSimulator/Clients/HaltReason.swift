public import Reconcile

/// Why a device stopped syncing. A halted device sends nothing until it is restarted (a `restart` step).
public enum HaltReason: Sendable, Hashable, CustomStringConvertible {
  /// There is no iCloud account; wait for the user to sign in.
  case notAuthenticated
  /// The server says the database is wrong for the operation.
  case badDatabase(String)
  /// The user's iCloud storage is full.
  case quotaExceeded
  /// The user deleted the zone in Settings: wipe local data or ask before uploading it again.
  case userDeletedZone(ZoneID)
  /// A record is from an app version this one does not understand, or breaks its schema.
  case schema(SchemaHalt)
  /// The resolver could not merge a conflict.
  case unresolvableConflict(RecordID, String)
  /// The server refused a request the device cannot fix by retrying (a bad record, a permission).
  case rejected(CloudKitError)
  /// The iCloud account changed and the app asks the user whether to keep this device's data or delete it
  /// (`AccountChangePolicy.ask`): nothing is sent until they answer.
  case accountChanged(SyncEngine.AccountChange)

  /// A sentence for the user or the log, ending with what to do.
  public var description: String {
    switch self {
    case .notAuthenticated: "Not signed in to iCloud. Sign in to resume syncing."
    case .badDatabase(let reason): "The server refused the database: \(reason). Restart syncing after an app update."
    case .quotaExceeded: "iCloud storage is full. Free up space to resume syncing."
    case .userDeletedZone(let zone):
      "The iCloud data in \(zone.zoneName) was deleted in Settings. Choose whether to upload this device's copy again."
    case .schema(let halt): halt.description
    case .unresolvableConflict(let id, let reason): SyncHalt.unresolvableConflict(id, reason).description
    case .rejected(let error):
      "The server refused a change: \(error.message ?? error.code.description). Nothing more is sent until syncing restarts."
    case .accountChanged(let change): SyncHalt.accountChanged(change).description
    }
  }

  /// One word for the reason, for tables and logs.
  public var code: String {
    switch self {
    case .notAuthenticated: "notAuthenticated"
    case .badDatabase: "badDatabase"
    case .quotaExceeded: "quotaExceeded"
    case .userDeletedZone: "userDeletedZone"
    case .schema: "schema"
    case .unresolvableConflict: "unresolvableConflict"
    case .rejected: "rejected"
    case .accountChanged: "accountChanged"
    }
  }
}

extension HaltReason {
  /// A `ZoneReplica`'s halt, as the simulator's clients name it.
  /// - Parameter halt: The replica's halt.
  public init(_ halt: SyncHalt) {
    switch halt {
    case .schema(let halt): self = .schema(halt)
    case .unresolvableConflict(let id, let reason): self = .unresolvableConflict(id, reason)
    case .accountChanged(let change): self = .accountChanged(change)
    }
  }
}
