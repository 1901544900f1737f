package import Reconcile

/// What a device does when it learns that its zone was deleted by another client of the same app.
///
/// Seed 004 ("How to Delete All Data from a Zone") and Apple's CKSyncEngine sample read a zone deleted elsewhere as
/// the user deleting all their data, so the default drops the local copies. Re-uploading keeps every copy instead, at
/// the price that a record deleted on another device whose deletion this one had not yet fetched comes back.
public enum ZoneDeletionResponse: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Drop every record the server had acknowledged; keep only records never acknowledged (created here and not yet
  /// confirmed), and upload those into the re-created zone.
  case dropLocalData = "drop"
  /// Re-create the zone and upload every local record as new.
  case reuploadLocalData = "reupload"

  /// The script name: `drop` or `reupload`.
  public var description: String { rawValue }
}

extension ZoneDeletionResponse {
  /// Whether a zone deletion for `reason` stands for the user deleting everything in it, so a device drops what the
  /// server had acknowledged: a purge in Settings always does ("delete any locally cached data and not resend it");
  /// a client's deletion does under ``dropLocalData``; an encrypted-data reset never does (the user still wants the
  /// data: "consider re-uploading locally-cached data").
  package func dropsLocalData(after reason: SyncEngine.ZoneDeletion.Reason) -> Bool {
    switch reason {
    case .purged: true
    case .deleted: self == .dropLocalData
    case .encryptedDataReset: false
    }
  }
}
