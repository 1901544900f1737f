public import Foundation

/// An archived `CKQueryOperation.Cursor`: where a query's next page starts. Its bytes are CloudKit's and opaque; the
/// zone is the one the query ran in (`nil` when the archive names none).
public struct ArchivedQueryCursor: Sendable, Hashable {
  /// The cursor's bytes (`CursorData`), handed back to the server as they are.
  public var data: Data
  /// The zone the query ran in.
  public var zoneID: ZoneID?

  /// A cursor with these bytes, from a query in `zoneID`.
  /// - Parameters:
  ///   - data: The cursor's bytes.
  ///   - zoneID: The zone the query ran in.
  public init(data: Data, zoneID: ZoneID?) {
    self.data = data
    self.zoneID = zoneID
  }

  /// The archived class.
  static let className = "CKQueryCursor"

  private enum Keys {
    static let data = "CursorData"
    static let zone = "ZoneID"
  }

  /// Reads the archived object's fields.
  init(archived fields: [String: PropertyList], in archive: KeyedArchiveReader, field: String)
    throws(CloudKitArchiveError)
  {
    guard let data = try archive.data(fields[Keys.data], field: field + "." + Keys.data) else {
      throw .missingField(field + "." + Keys.data)
    }
    self.data = data
    zoneID = try archive.zoneID(fields[Keys.zone], field: field + "." + Keys.zone)
  }

  /// The archived object, as `NSKeyedArchiver` writes it.
  func archiveObject(into builder: inout KeyedArchiveBuilder) -> PropertyList {
    var fields: [String: PropertyList] = [Keys.data: .data(data)]
    if let zoneID { fields[Keys.zone] = Record.archive(zoneID, into: &builder) }
    return builder.object(className: Self.className, fields: fields)
  }
}
