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

  /// Creates a tombstone.
  /// - Parameters:
  ///   - recordID: The deleted record's ID.
  ///   - recordType: Its type.
  ///   - deletedAt: When it was deleted.
  ///   - deletedBy: Who deleted it, if known.
  ///   - creationDate: When the server created the deleted record, if known.
  public init(
    recordID: RecordID, recordType: String, deletedAt: Date, deletedBy: String? = nil, creationDate: Date? = nil
  ) {
    self.recordID = recordID
    self.recordType = recordType
    self.deletedAt = deletedAt
    self.deletedBy = deletedBy
    self.creationDate = creationDate
  }

  /// A tombstone for `record`.
  /// - Parameters:
  ///   - record: The record being deleted.
  ///   - deletedAt: When it was deleted.
  ///   - deletedBy: Who deleted it, if known.
  public init(deleting record: Record, at deletedAt: Date, by deletedBy: String? = nil) {
    self.init(
      recordID: record.recordID, recordType: record.recordType, deletedAt: deletedAt, deletedBy: deletedBy,
      creationDate: record.creationDate)
  }

  /// `Note note-1 in _defaultZone:__defaultOwner__ deleted 2026-11-21T10:00:00Z by phone`.
  public var description: String {
    "\(recordType) \(recordID) deleted \(deletedAt.formatted(.iso8601))" + (deletedBy.map { " by \($0)" } ?? "")
  }
}
