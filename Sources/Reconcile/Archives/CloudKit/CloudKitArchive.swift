public import Foundation

/// Whatever an app archived from CloudKit with `NSKeyedArchiver`, read without knowing its class in advance.
///
/// Apps persist CloudKit state as keyed archives: a record's system fields (`encodeSystemFields(with:)`), a share's,
/// change tokens, record and zone IDs, the account's cached status (`CKAccountInfo`), and arrays of them
/// (`archivedData(withRootObject:)`). ``init(data:)`` reads any
/// of them, binary or XML, so state saved on iOS can be inspected on Linux:
///
/// ```swift
/// switch try CloudKitArchive(data: stored) {
/// case .serverChangeToken(let token): print("token", token)
/// case .record(let record): print("system fields of", record.recordID)
/// default: break
/// }
/// ```
///
/// Not read: `CKQueryCursor` archives (no public archive shows their keys; they fail with
/// ``CloudKitArchiveError/unexpectedClass(field:expected:found:)`` naming the class) and record values, which
/// system-field archives never hold.
public enum CloudKitArchive: Sendable, Hashable {
  /// A record's system fields (`CKRecord.encodeSystemFields(with:)`, or a `CKRecord` archived as the root object).
  case record(Record)
  /// A share's system fields and participants (`CKShare`).
  case share(Share)
  /// A `CKServerChangeToken`.
  case serverChangeToken(ServerChangeToken)
  /// A `CKRecord.ID`.
  case recordID(RecordID)
  /// A `CKRecordZone.ID`.
  case zoneID(ZoneID)
  /// A `CKAccountInfo`: the iCloud account's status as CloudKit caches it.
  case accountInfo(AccountInfo)
  /// A `CKShare.Metadata`: an invitation's share, root record and invited user.
  case shareMetadata(ShareMetadata)
  /// A lone `CKShareParticipant`.
  case participant(Share.Participant)
  /// A `CKQueryOperation.Cursor`.
  case queryCursor(ArchivedQueryCursor)
  /// A whole `CKRecordZone`.
  case recordZone(ArchivedZone)
  /// An `NSArray` or `NSSet` of the above, in archive order.
  case array([CloudKitArchive])

  /// How deep arrays may nest; real archives nest one level. Bounds hostile input that refers to itself.
  static let maximumDepth = 4

  /// Reads a keyed archive of any kind listed above.
  /// - Parameter data: The archive's bytes.
  /// - Throws: ``CloudKitArchiveError`` naming what is wrong: not a property list, not a keyed archive, a class this
  ///   reader does not know (named), or a bad field inside a known one.
  public init(data: Data) throws(CloudKitArchiveError) {
    let archive = try KeyedArchiveReader(data: data)
    if archive.top[CloudKitArchiveKeys.recordType] != nil {
      self = try Self.recordOrShare(archive.top, in: archive)
    } else if let root = archive.top[CloudKitArchiveKeys.root] {
      self = try Self.object(root, in: archive, field: CloudKitArchiveKeys.root, depth: 0)
    } else {
      throw .missingField("\(CloudKitArchiveKeys.recordType) or \(CloudKitArchiveKeys.root)")
    }
  }

  /// Reads an archive that must hold one kind, picked out by `pick`; any other kind is
  /// ``CloudKitArchiveError/unexpectedClass(field:expected:found:)`` naming `expected` and what was found.
  static func read<T>(
    _ data: Data, expected: String, field: String = CloudKitArchiveKeys.root, _ pick: (CloudKitArchive) -> T?
  ) throws(CloudKitArchiveError) -> T {
    let archive = try CloudKitArchive(data: data)
    guard let value = pick(archive) else {
      throw .unexpectedClass(field: field, expected: expected, found: archive.kind)
    }
    return value
  }

  /// A short name for what the archive holds: `record system fields`, `CKServerChangeToken`, …
  public var kind: String {
    switch self {
    case .record: return "record system fields"
    case .share: return "share system fields"
    case .serverChangeToken: return "CKServerChangeToken"
    case .recordID: return "CKRecord.ID"
    case .zoneID: return "CKRecordZone.ID"
    case .accountInfo: return AccountInfo.className
    case .shareMetadata: return ShareMetadata.className
    case .participant: return ShareArchiveKeys.participantClass
    case .queryCursor: return ArchivedQueryCursor.className
    case .recordZone: return ArchivedZone.className
    case .array(let items): return "array of \(items.count)"
    }
  }

  /// Writes the value as Apple's archiver would: records and shares as system fields (keys in `$top`), everything
  /// else as the root object.
  /// - Returns: A binary property list.
  /// - Throws: ``RecordValidationError`` if a record's type or IDs break CloudKit's rules.
  public func archivedData() throws(RecordValidationError) -> Data {
    var b = KeyedArchiveBuilder()
    let top: [String: PropertyList]
    switch self {
    case .record(let record): top = try record.systemFieldsTop(into: &b, values: true)
    case .share(let share): top = try share.systemFieldsTop(into: &b, values: true)
    default: top = [CloudKitArchiveKeys.root: try rootObject(into: &b)]
    }
    return BinaryPropertyListWriter.write(b.archive(top: top))
  }

  /// An archive with one object under `root`, for values whose writing cannot fail (tokens and IDs).
  static func rootArchive(_ object: (inout KeyedArchiveBuilder) -> PropertyList) -> Data {
    var b = KeyedArchiveBuilder()
    let root = object(&b)
    return BinaryPropertyListWriter.write(b.archive(top: [CloudKitArchiveKeys.root: root]))
  }

  private func rootObject(into b: inout KeyedArchiveBuilder) throws(RecordValidationError) -> PropertyList {
    typealias K = CloudKitArchiveKeys
    switch self {
    case .record(let record):
      return b.object(className: "CKRecord", fields: try record.systemFieldsTop(into: &b, values: true))
    case .share(let share):
      return b.object(className: "CKShare", fields: try share.systemFieldsTop(into: &b, values: true))
    case .serverChangeToken(let token): return token.archiveObject(into: &b)
    case .recordID(let id): return Record.archive(id, into: &b)
    case .zoneID(let zone): return Record.archive(zone, into: &b)
    case .accountInfo(let info): return info.archiveObject(into: &b)
    case .shareMetadata(let metadata): return try metadata.archiveObject(into: &b)
    case .participant(let participant): return Share.archive(participant, into: &b)
    case .queryCursor(let cursor): return cursor.archiveObject(into: &b)
    case .recordZone(let zone): return zone.archiveObject(into: &b)
    case .array(let items):
      var objects: [PropertyList] = []
      for item in items { objects.append(try item.rootObject(into: &b)) }
      return b.object(className: "NSArray", fields: ["NS.objects": .array(objects)])
    }
  }

  static func recordOrShare(_ keys: [String: PropertyList], in archive: KeyedArchiveReader)
    throws(CloudKitArchiveError) -> CloudKitArchive
  {
    let record = try Record(systemFields: keys, in: archive)
    guard record.recordType == Share.recordType else { return .record(record) }
    return .share(try Share(record: record, archivedKeys: keys, in: archive))
  }

  private static func object(_ value: PropertyList, in archive: KeyedArchiveReader, field: String, depth: Int)
    throws(CloudKitArchiveError) -> CloudKitArchive
  {
    typealias K = CloudKitArchiveKeys
    guard let dict = try archive.object(value, field: field, expectedClass: nil) else { throw .missingField(field) }
    let className = try archive.className(of: dict, field: field) ?? "an object without a class"
    switch className {
    case K.recordIDClass:
      guard let id = try archive.recordID(value, field: field) else { throw .missingField(field) }
      return .recordID(id)
    case K.zoneIDClass:
      guard let zone = try archive.zoneID(value, field: field) else { throw .missingField(field) }
      return .zoneID(zone)
    case K.changeTokenClass:
      guard let bytes = try archive.data(dict[K.tokenData], field: field + "." + K.tokenData) else {
        throw .missingField(field + "." + K.tokenData)
      }
      return .serverChangeToken(ServerChangeToken(data: bytes))
    case "CKRecord", "CKShare":
      return try recordOrShare(dict, in: archive)
    case AccountInfo.className:
      return .accountInfo(try AccountInfo(archived: dict, in: archive, field: field))
    case ShareMetadata.className:
      return .shareMetadata(try ShareMetadata(archived: dict, in: archive, field: field))
    case ShareArchiveKeys.participantClass:
      return .participant(try Share.participant(value, in: archive, field: field))
    case ArchivedQueryCursor.className:
      return .queryCursor(try ArchivedQueryCursor(archived: dict, in: archive, field: field))
    case ArchivedZone.className:
      return .recordZone(try ArchivedZone(archived: dict, in: archive, field: field))
    case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
      guard depth < maximumDepth else {
        throw .wrongType(field: field, expected: "arrays nested at most \(maximumDepth) deep", found: "deeper nesting")
      }
      var items: [CloudKitArchive] = []
      for (index, element) in try archive.elements(of: dict, field: field).enumerated() {
        items.append(try object(element, in: archive, field: "\(field)[\(index)]", depth: depth + 1))
      }
      return .array(items)
    default:
      throw .unexpectedClass(
        field: field,
        expected:
          "CloudKit record, share, share metadata, participant, change token, record ID, zone ID, zone, query cursor "
          + "or account info",
        found: className)
    }
  }
}
