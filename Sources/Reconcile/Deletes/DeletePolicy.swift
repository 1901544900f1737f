public import Foundation

/// Who wins when one device deletes a record and another edits it.
///
/// | Situation | `.deleteWins` (default) | `.editWins` |
/// |---|---|---|
/// | Saving an edit gets `unknownItem`: deleted elsewhere | accept the deletion | recreate the record with the edit |
/// | A fetched deletion meets unsent local edits | accept the deletion | recreate the record with the edits |
/// | A fetched change meets an unsent local deletion | send the deletion | cancel it and keep the server's record, when the deletion did not see the change |
///
/// `.deleteWins` never resurrects what a user deleted; it loses the edit. `.editWins` never loses an edit; a record the
/// user deleted can come back, with every field the editing device held.
///
/// ## Which deletions an edit revives
/// Under `.editWins` an edit revives a deletion *concurrent* with it: one whose user had not seen the edit, made while
/// the edit's user had not seen the deletion. It never revives a deletion the same user made after the edit, nor one
/// made after the edit reached the deleting device (fetched, or its own save acknowledged). A device tells the two
/// apart by the tombstone it keeps: the version it deleted and its own saves are the changes its deletion saw.
public enum DeletePolicy: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// A deletion beats an edit made concurrently.
  case deleteWins
  /// An edit beats a deletion made concurrently, reviving the record.
  case editWins

  /// The server answered `unknownItem` when the device saved `local`: another device deleted the record.
  /// - Parameters:
  ///   - local: The record the device tried to save.
  ///   - date: When the device learnt of the deletion; the server does not say when it happened.
  /// - Returns: `.deleted` with a tombstone to keep (drop the local copy and its pending save), or `.recreate` with a
  ///   record to save as new.
  public func resolveUnknownItem(for local: Record, at date: Date) -> DeleteResolution {
    switch self {
    case .deleteWins: return .deleted(Tombstone(deleting: local, at: date))
    case .editWins: return .recreate(Self.recreation(of: local))
    }
  }

  /// A fetched change feed reports `deletion` for a record the device holds as `local`.
  ///
  /// Without unsent edits (`local.changedKeys` is empty) the deletion is accepted whatever the policy: there is no
  /// edit to save.
  /// - Parameters:
  ///   - deletion: The deletion the server reported.
  ///   - local: The device's copy, with its unsent edits in `changedKeys`.
  /// - Returns: `.deleted` with the tombstone to keep, or `.recreate` with a record to save as new.
  public func resolveFetchedDeletion(_ deletion: Tombstone, of local: Record) -> DeleteResolution {
    guard self == .editWins, !local.changedKeys.isEmpty else { return .deleted(deletion) }
    return .recreate(Self.recreation(of: local))
  }

  /// A fetch brings a server version of a record the device deleted but has not yet told the server about.
  ///
  /// Under `.editWins` only an edit the deletion did not see cancels it: a version with the tombstone's
  /// ``Tombstone/recordChangeTag`` is the one deleted (or the device's own save, answered after the deletion), and a
  /// version last modified by the deleting device (the record's `modifiedByDevice` equal to the tombstone's
  /// ``Tombstone/deletedBy``) is its own save, landed unheard of. The user deleted after both, so the deletion stands.
  /// - Parameters:
  ///   - pending: The device's unsent deletion.
  ///   - server: The server's version.
  /// - Returns: `.deleted` (send the deletion) or `.keep` with the server's record (cancel the deletion).
  public func resolvePendingDeletion(_ pending: Tombstone, against server: Record) -> DeleteResolution {
    guard self == .editWins, !pending.saw(server) else { return .deleted(pending) }
    var kept = server
    kept.clearChangedKeys()
    return .keep(kept)
  }

  /// `deleteWins` or `editWins`.
  public var description: String { self == .deleteWins ? "deleteWins" : "editWins" }

  /// The record to save as new: the same ID, type, values and parent; no system fields; every key marked changed.
  private static func recreation(of local: Record) -> Record {
    var record = Record(recordType: local.recordType, recordID: local.recordID)
    for (key, value) in local.storage.values { record[key] = value }
    for (key, value) in local.storage.encrypted { record.encryptedValues[key] = value }
    record.parent = local.parent
    return record
  }
}

/// What a client does after a ``DeletePolicy`` decision.
public enum DeleteResolution: Sendable, Hashable {
  /// The record stays deleted: drop the local copy and its pending changes, and keep the tombstone.
  case deleted(Tombstone)
  /// The edit revives the record: save this record as new (no change tag, every key changed) and drop the tombstone.
  case recreate(Record)
  /// The edit beats the device's own deletion: cancel the pending deletion and keep this server record.
  case keep(Record)
}
