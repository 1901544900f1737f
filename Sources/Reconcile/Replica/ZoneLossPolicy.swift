/// What a ``ZoneReplica`` keeps when its zone is deleted on the server, by the reason CloudKit gives
/// (``SyncEngine/ZoneDeletion/Reason``).
///
/// A purge in Settings always drops what the server had acknowledged (the user asked for the data to go), and an
/// encrypted-data reset always uploads everything again (the user lost the keys, not the data): Apple's guidance for
/// CKSyncEngine. A deletion by a client is the app's choice.
public enum ZoneLossPolicy: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// After a client deleted the zone, drop what the server had acknowledged; upload again what it never had.
  case dropLocalData = "drop"
  /// After a client deleted the zone, upload everything this device holds into a re-created zone.
  case reuploadLocalData = "reupload"

  /// The name scripts and the command line use: `drop` or `reupload`.
  public var description: String { rawValue }

  /// Whether a deletion for `reason` drops the records the server had acknowledged.
  /// - Parameter reason: Why the zone is gone.
  /// - Returns: `true` to drop them, `false` to upload them again.
  public func dropsLocalData(after reason: SyncEngine.ZoneDeletion.Reason) -> Bool {
    switch reason {
    case .purged: true
    case .deleted: self == .dropLocalData
    case .encryptedDataReset: false
    }
  }
}
