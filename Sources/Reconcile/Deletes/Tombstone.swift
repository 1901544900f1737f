public import Foundation

/// A record a client knows was deleted: kept so that a stale local copy is never uploaded again and the record does
/// not come back.
///
/// Keep tombstones in ``Tombstones`` beside your local store. Before uploading a record, ask
/// ``Tombstones/blocks(_:)``; when ``DeletePolicy/editWins`` revives a record, ``DeleteResolution/recreate(_:)`` tells
/// you to drop its tombstone.
public struct Tombstone: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The deleted record's ID.
  public var recordID: RecordID
  /// The deleted record's type; change feeds report it with the deletion.
  public var recordType: String
  /// When the deletion happened, or when this device learnt of it if the server did not say.
  public var deletedAt: Date
  /// Who deleted it — a user record name or a device name — when known.
  public var deletedBy: String?
  /// When the server created the deleted record, when known: a record with this ID created anew after the deletion
  /// has another creation date, and the tombstone does not block it.
  public var creationDate: Date?
  /// The change tag of the last server version the deleting client knew, when known: the version it deleted, or its
  /// own save that landed while the deletion waited to be sent. A fetched version with this tag is one the deletion
  /// saw, so ``DeletePolicy/editWins`` does not let it cancel the deletion.
  public var recordChangeTag: String?

  /// Creates a tombstone.
  /// - Parameters:
  ///   - recordID: The deleted record's ID.
  ///   - recordType: Its type.
  ///   - deletedAt: When it was deleted.
  ///   - deletedBy: Who deleted it, if known.
  ///   - creationDate: When the server created the deleted record, if known.
  ///   - recordChangeTag: The change tag of the last server version the deleting client knew, if any.
  public init(
    recordID: RecordID, recordType: String, deletedAt: Date, deletedBy: String? = nil, creationDate: Date? = nil,
    recordChangeTag: String? = nil
  ) {
    self.recordID = recordID
    self.recordType = recordType
    self.deletedAt = deletedAt
    self.deletedBy = deletedBy
    self.creationDate = creationDate
    self.recordChangeTag = recordChangeTag
  }

  /// A tombstone for `record`.
  /// - Parameters:
  ///   - record: The record being deleted.
  ///   - deletedAt: When it was deleted.
  ///   - deletedBy: Who deleted it, if known.
  public init(deleting record: Record, at deletedAt: Date, by deletedBy: String? = nil) {
    self.init(
      recordID: record.recordID, recordType: record.recordType, deletedAt: deletedAt, deletedBy: deletedBy,
      creationDate: record.creationDate, recordChangeTag: record.recordChangeTag)
  }

  /// Whether the deletion saw `version`: it is the version deleted (or the deleting client's own save answered since,
  /// with ``recordChangeTag``), or the deleting client wrote it last (its `modifiedByDevice` is ``deletedBy``).
  /// - Parameter version: A server version of the deleted record.
  public func saw(_ version: Record) -> Bool {
    if let tag = recordChangeTag, tag == version.recordChangeTag { return true }
    if let deletedBy, deletedBy == version.modifiedByDevice { return true }
    return false
  }

  /// `Note note-1 in _defaultZone:__defaultOwner__ deleted 2026-11-21T10:00:00Z by phone`.
  public var description: String {
    "\(recordType) \(recordID) deleted \(deletedAt.formatted(.iso8601))" + (deletedBy.map { " by \($0)" } ?? "")
  }
}
