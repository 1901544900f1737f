public import Foundation

/// A CloudKit share: the `cloudkit.share` record that says who may see a record hierarchy or a whole zone, and how.
///
/// A share is a record — it has an ID, a change tag and values such as ``title`` — plus who takes part:
/// ``participants`` and ``publicPermission``. Every share arrives in zone changes like any record; Reconcile reads
/// shares from Apple's system-fields archive of a `CKShare` (``init(cloudKitSystemFieldsArchive:)``) and from Web
/// Services JSON (``init(wireJSON:)``), and writes both back.
///
/// ```swift
/// let share = try Share(wireJSON: lookupEntry)
/// share.title                                          // "Trip"
/// share.participants.filter { $0.acceptanceStatus == .pending }
/// ```
public struct Share: Sendable, Hashable {
  /// The record type of every share, `cloudkit.share`.
  public static let recordType = "cloudkit.share"
  /// The key of a share's title, `cloudkit.title`.
  public static let titleKey = "cloudkit.title"
  /// The key of a share's thumbnail, `cloudkit.thumbnailImageData`.
  public static let thumbnailImageDataKey = "cloudkit.thumbnailImageData"
  /// The key of the type of the shared content, `cloudkit.type`.
  public static let contentTypeKey = "cloudkit.type"

  /// The share's record: ID, system fields and values. Its type is ``recordType``.
  public private(set) var record: Record
  /// Everyone who takes part, the owner included.
  public var participants: [Participant]
  /// What anyone with the share's URL may do; ``Permission/none`` for a share only invited people may open.
  public var publicPermission: Permission
  /// The share's URL, when the server has assigned one.
  public var url: String?
  /// The short GUID the Web Services report for the share's URL, when present.
  public var shortGUID: String?

  /// Makes a share from its record.
  ///
  /// - Parameters:
  ///   - record: A record of type ``recordType``.
  ///   - participants: Who takes part.
  ///   - publicPermission: What anyone with the URL may do.
  ///   - url: The share's URL.
  ///   - shortGUID: The Web Services' short GUID.
  /// - Throws: ``RecordValidationError/notAShare(recordType:)`` when the record has another type.
  public init(
    record: Record, participants: [Participant] = [], publicPermission: Permission = .none, url: String? = nil,
    shortGUID: String? = nil
  ) throws(RecordValidationError) {
    guard record.recordType == Self.recordType else { throw .notAShare(recordType: record.recordType) }
    self.record = record
    self.participants = participants
    self.publicPermission = publicPermission
    self.url = url
    self.shortGUID = shortGUID
  }

  /// A new, unsaved share of a zone (``ZoneID/zoneWideShareRecordName``) or of a record hierarchy (any other name).
  /// - Parameters:
  ///   - recordID: The share's ID.
  ///   - title: The share's title, if any.
  public init(recordID: RecordID, title: String? = nil) {
    record = Record(recordType: Self.recordType, recordID: recordID)
    participants = []
    publicPermission = .none
    if let title { record[Self.titleKey] = .string(title) }
  }

  /// The share's ID.
  public var recordID: RecordID { record.recordID }

  /// Whether this shares a whole zone rather than one record hierarchy.
  public var isZoneWide: Bool { record.recordID.recordName == ZoneID.zoneWideShareRecordName }

  /// The title people see when they are invited (`cloudkit.title`).
  public var title: String? {
    get { if case .string(let s)? = record[Self.titleKey] { return s } else { return nil } }
    set { record[Self.titleKey] = newValue.map(FieldValue.string) }
  }

  /// The thumbnail people see when they are invited (`cloudkit.thumbnailImageData`).
  public var thumbnailImageData: Data? {
    get { if case .bytes(let d)? = record[Self.thumbnailImageDataKey] { return d } else { return nil } }
    set { record[Self.thumbnailImageDataKey] = newValue.map(FieldValue.bytes) }
  }

  /// The owner, when the participants include one.
  public var owner: Participant? { participants.first { $0.role == .owner } }

  /// Edits the share's record in place; the type stays ``recordType``.
  /// - Parameter body: Changes to make to the record's values or system fields.
  public mutating func modifyRecord(_ body: (inout Record) throws -> Void) rethrows {
    try body(&record)
    record.recordType = Self.recordType
  }
}
