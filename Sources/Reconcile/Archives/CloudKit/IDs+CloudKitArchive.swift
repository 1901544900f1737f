public import Foundation

extension RecordID {
  /// Reads an `NSKeyedArchiver` archive of a `CKRecord.ID` (`archivedData(withRootObject:)`), binary or XML.
  /// - Parameter data: The archive's bytes.
  /// - Throws: ``CloudKitArchiveError`` naming what is wrong, such as an archive of another class.
  public init(cloudKitArchive data: Data) throws(CloudKitArchiveError) {
    self = try CloudKitArchive.read(data, expected: CloudKitArchiveKeys.recordIDClass) {
      if case .recordID(let id) = $0 { id } else { nil }
    }
  }

  /// Writes the ID as `archivedData(withRootObject:)` writes a `CKRecord.ID`.
  /// - Returns: A binary property list.
  public func cloudKitArchive() -> Data {
    CloudKitArchive.rootArchive { Record.archive(self, into: &$0) }
  }
}

extension ZoneID {
  /// Reads an `NSKeyedArchiver` archive of a `CKRecordZone.ID` (`archivedData(withRootObject:)`), binary or XML.
  /// - Parameter data: The archive's bytes.
  /// - Throws: ``CloudKitArchiveError`` naming what is wrong, such as an archive of another class.
  public init(cloudKitArchive data: Data) throws(CloudKitArchiveError) {
    self = try CloudKitArchive.read(data, expected: CloudKitArchiveKeys.zoneIDClass) {
      if case .zoneID(let zone) = $0 { zone } else { nil }
    }
  }

  /// Writes the zone ID as `archivedData(withRootObject:)` writes a `CKRecordZone.ID`.
  /// - Returns: A binary property list.
  public func cloudKitArchive() -> Data {
    CloudKitArchive.rootArchive { Record.archive(self, into: &$0) }
  }
}
