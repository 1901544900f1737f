/// A record deletion reported by a change feed: its ID and type, no values.
public struct DeletedRecord: Sendable, Hashable, CustomStringConvertible {
  /// The deleted record's ID.
  public var recordID: RecordID
  /// Its type.
  public var recordType: String

  /// Creates a deletion.
  /// - Parameters:
  ///   - recordID: The ID.
  ///   - recordType: The type.
  public init(recordID: RecordID, recordType: String) {
    self.recordID = recordID
    self.recordType = recordType
  }

  /// `Type/name deleted`.
  public var description: String { "\(recordType)/\(recordID.recordName) deleted" }
}
