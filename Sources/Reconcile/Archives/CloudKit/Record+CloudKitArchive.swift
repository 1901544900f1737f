public import Foundation

/// The `$top` keys and class names of Apple's system-fields archive.
enum CloudKitArchiveKeys {
  static let recordType = "RecordType"
  static let recordID = "RecordID"
  static let changeTag = "ETag"
  static let creationDate = "RecordCtime"
  static let modificationDate = "RecordMtime"
  static let creator = "CreatorUserRecordID"
  static let lastModifier = "LastModifiedUserRecordID"
  static let device = "ModifiedByDevice"
  static let parent = "ParentReference"
  static let share = "ShareReference"
  static let knownToServer = "KnownToServer"
  // Inside CKRecordID and CKRecordZoneID.
  static let recordName = "RecordName"
  static let zoneID = "ZoneID"
  static let zoneName = "ZoneName"
  static let ownerName = "ownerName"
  // Inside CKReference: no public archive shows these; see the reader for the spellings it accepts.
  static let referenceRecordID = "RecordID"
  static let referenceAction = "Action"

  // Apple's archivedData(withRootObject:) puts the object under this $top key.
  static let root = "root"
  static let tokenData = "ChangeTokenData"
  static let changeTokenClass = "CKServerChangeToken"
  // Inside a CKShare's system fields.
  static let participants = "Participants"
  static let publicPermission = "PublicPermission"
  static let url = "URL"

  static let recordIDClass = "CKRecordID"
  static let zoneIDClass = "CKRecordZoneID"
  static let referenceClass = "CKReference"

  /// Flags Apple archives carry that Reconcile does not model, written as `false` so the archive has Apple's shape.
  static let falseFlags = ["HasUpdatedParentReference", "HasUpdatedShareReference", "WasCached"]
}

extension Record {
  /// Reads the keyed archive that Apple's `CKRecord.encodeSystemFields(with:)` writes, binary or XML, so system fields
  /// stored by an iOS or macOS app can be used anywhere Swift runs.
  ///
  /// Read: record type, record name, zone name and owner, change tag (`ETag`), creation and modification dates,
  /// creator and last-modifier user record names, modifying device, and the parent and share references when present.
  /// Every other key — Apple adds some with each OS release — is ignored. The result has no values and no changed keys.
  ///
  /// ```swift
  /// let stored = try Data(contentsOf: url)      // written on iOS by encodeSystemFields(with:)
  /// var record = try Record(cloudKitSystemFieldsArchive: stored)
  /// record["title"] = "Edited on Linux"
  /// ```
  ///
  /// The keys inside an archived `CKReference` are not shown by any public archive; the reader accepts `RecordID` or
  /// `recordID` for the target and `Action`, `ReferenceAction` or `action` for the action.
  /// - Parameter data: The archive's bytes.
  /// - Throws: ``CloudKitArchiveError`` naming what is wrong: not a property list, malformed, not a keyed archive, a
  ///   missing or mistyped field, or an ID that breaks CloudKit's rules.
  /// - Complexity: O(*n*) in the size of the data.
  public init(cloudKitSystemFieldsArchive data: Data) throws(CloudKitArchiveError) {
    let archive = try KeyedArchiveReader(data: data)
    try self.init(systemFields: try archive.recordKeys(), in: archive)
  }

  /// Reads the system fields from the keys of an archived record: `$top`, or the object under `root`.
  init(systemFields top: [String: PropertyList], in archive: KeyedArchiveReader) throws(CloudKitArchiveError) {
    typealias K = CloudKitArchiveKeys
    guard let recordType = try archive.string(top[K.recordType], field: K.recordType) else {
      throw .missingField(K.recordType)
    }
    do {
      try NameRules.checkIdentifier(recordType, kind: .recordType)
    } catch {
      throw .invalidField(K.recordType, error)
    }
    guard let recordID = try archive.recordID(top[K.recordID], field: K.recordID) else {
      throw .missingField(K.recordID)
    }
    let box = Storage(recordType: recordType, recordID: recordID)
    box.system.recordChangeTag = try archive.string(top[K.changeTag], field: K.changeTag)
    box.system.creationDate = try archive.date(top[K.creationDate], field: K.creationDate)
    box.system.modificationDate = try archive.date(top[K.modificationDate], field: K.modificationDate)
    box.system.creatorUserRecordName = try archive.userRecordName(top[K.creator], field: K.creator)
    box.system.lastModifiedUserRecordName = try archive.userRecordName(top[K.lastModifier], field: K.lastModifier)
    box.system.modifiedByDevice = try archive.string(top[K.device], field: K.device)
    box.parent = try archive.reference(top[K.parent], field: K.parent)
    box.share = try archive.reference(top[K.share], field: K.share)
    box.values = FieldTable(try ArchivedValues.read(top, in: archive))
    self.init(storage: box)
  }

  /// Writes the system fields as an `NSKeyedArchiver` binary property list with the `$top` keys and class names that
  /// `CKRecord.encodeSystemFields(with:)` uses, so Apple's `CKRecord(coder:)` and
  /// ``init(cloudKitSystemFieldsArchive:)`` can read it.
  ///
  /// Written: `RecordType`, `RecordID` (`CKRecordID` with a `CKRecordZoneID`), `ETag`, `RecordCtime` and `RecordMtime`
  /// (`NSDate`), `CreatorUserRecordID` and `LastModifiedUserRecordID` (`CKRecordID` in the default zone),
  /// `ModifiedByDevice`, `ParentReference` and `ShareReference` (`CKReference`, or `$null`), `KnownToServer`, and
  /// `false` for `HasUpdatedParentReference`, `HasUpdatedShareReference` and `WasCached`. Apple's encryption and
  /// protection keys are left out: Reconcile has no values for them. ``isDeleted`` has no place in Apple's format and
  /// is not written. Values are never written.
  /// - Returns: The archive's bytes, typically 1–1.5 KB.
  /// - Throws: ``RecordValidationError`` if the record's type or IDs break CloudKit's rules.
  public func cloudKitSystemFieldsArchive() throws(RecordValidationError) -> Data {
    var b = KeyedArchiveBuilder()
    let top = try systemFieldsTop(into: &b)
    return BinaryPropertyListWriter.write(b.archive(top: top))
  }

  /// The `$top` keys of the system-fields archive, with their objects added to `b`; with `values`, the values
  /// ``ArchivedValues`` reads too, as a whole archived record holds them (`encodeSystemFields(with:)` writes none).
  func systemFieldsTop(into b: inout KeyedArchiveBuilder, values: Bool = false) throws(RecordValidationError)
    -> [String: PropertyList]
  {
    typealias K = CloudKitArchiveKeys
    try NameRules.checkIdentifier(recordType, kind: .recordType)
    let s = storage.system
    var top: [String: PropertyList] = [:]
    top[K.recordType] = b.string(recordType)
    top[K.recordID] = Self.archive(recordID, into: &b)
    top[K.changeTag] = b.optionalString(s.recordChangeTag)
    top[K.creationDate] = b.date(s.creationDate)
    top[K.modificationDate] = b.date(s.modificationDate)
    top[K.creator] = s.creatorUserRecordName.map { Self.archiveUser($0, into: &b) } ?? KeyedArchiveBuilder.null
    top[K.lastModifier] =
      s.lastModifiedUserRecordName.map { Self.archiveUser($0, into: &b) } ?? KeyedArchiveBuilder.null
    top[K.device] = b.optionalString(s.modifiedByDevice)
    top[K.parent] = storage.parent.map { Self.archive($0, into: &b) } ?? KeyedArchiveBuilder.null
    top[K.share] = storage.share.map { Self.archive($0, into: &b) } ?? KeyedArchiveBuilder.null
    top[K.knownToServer] = .bool(s.recordChangeTag != nil)
    for flag in K.falseFlags { top[flag] = .bool(false) }
    if values, let store = ArchivedValues.write(storage.values, into: &b) { top[ArchivedValues.store] = store }
    return top
  }

  // MARK: Writing helpers

  static func archive(_ zone: ZoneID, into b: inout KeyedArchiveBuilder) -> PropertyList {
    typealias K = CloudKitArchiveKeys
    return b.object(
      className: K.zoneIDClass,
      fields: [K.zoneName: b.string(zone.zoneName), K.ownerName: b.string(zone.ownerName)])
  }

  static func archive(_ id: RecordID, into b: inout KeyedArchiveBuilder) -> PropertyList {
    typealias K = CloudKitArchiveKeys
    let zone = archive(id.zoneID, into: &b)
    return b.object(className: K.recordIDClass, fields: [K.recordName: b.string(id.recordName), K.zoneID: zone])
  }

  static func archiveUser(_ name: String, into b: inout KeyedArchiveBuilder) -> PropertyList {
    typealias K = CloudKitArchiveKeys
    let zone = archive(ZoneID.default, into: &b)
    return b.object(className: K.recordIDClass, fields: [K.recordName: b.string(name), K.zoneID: zone])
  }

  /// `CKReference` with `RecordID` and `Action` (0 none, 1 deleteSelf). Apple has no `validate` action; it is written
  /// as none.
  static func archive(_ reference: Reference, into b: inout KeyedArchiveBuilder) -> PropertyList {
    typealias K = CloudKitArchiveKeys
    let id = archive(reference.recordID, into: &b)
    let action: Int64 = reference.action == .deleteSelf ? 1 : 0
    return b.object(
      className: K.referenceClass, fields: [K.referenceRecordID: id, K.referenceAction: .integer(action)])
  }
}
