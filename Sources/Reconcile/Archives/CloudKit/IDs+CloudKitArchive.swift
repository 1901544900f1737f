public import Foundation

extension RecordID {
  /// Reads an `NSKeyedArchiver` archive of a `CKRecord.ID` (`archivedData(withRootObject:)`), binary or XML.
  /// - Parameter data: The archive's bytes.
  /// - Throws: ``CloudKitArchiveError`` naming what is wrong, such as an archive of another class.
  public init(cloudKitArchive data: Data) throws(CloudKitArchiveError) {
    let archive = try CloudKitArchive(data: data)
    guard case .recordID(let id) = archive else {
      throw .unexpectedClass(
        field: CloudKitArchiveKeys.root, expected: CloudKitArchiveKeys.recordIDClass, found: archive.kind)
    }
    self = id
  }

  /// Writes the ID as `archivedData(withRootObject:)` writes a `CKRecord.ID`.
  /// - Returns: A binary property list.
  public func cloudKitArchive() -> Data {
    (try? CloudKitArchive.recordID(self).archivedData()) ?? Data()
  }
}

extension ZoneID {
  /// Reads an `NSKeyedArchiver` archive of a `CKRecordZone.ID` (`archivedData(withRootObject:)`), binary or XML.
  /// - Parameter data: The archive's bytes.
  /// - Throws: ``CloudKitArchiveError`` naming what is wrong, such as an archive of another class.
  public init(cloudKitArchive data: Data) throws(CloudKitArchiveError) {
    let archive = try CloudKitArchive(data: data)
    guard case .zoneID(let zone) = archive else {
      throw .unexpectedClass(
        field: CloudKitArchiveKeys.root, expected: CloudKitArchiveKeys.zoneIDClass, found: archive.kind)
    }
    self = zone
  }

  /// Writes the zone ID as `archivedData(withRootObject:)` writes a `CKRecordZone.ID`.
  /// - Returns: A binary property list.
  public func cloudKitArchive() -> Data {
    (try? CloudKitArchive.zoneID(self).archivedData()) ?? Data()
  }
}
