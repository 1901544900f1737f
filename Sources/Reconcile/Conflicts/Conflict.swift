/// The three versions of a record that a `serverRecordChanged` error carries, handed to a ``ConflictResolver``.
///
/// - `client` is what the device tried to save. Its ``Record/changedKeys`` say what the user changed; a key listed there
///   but absent from the record is a deliberate removal.
/// - `ancestor` is the last server version the device knew, or `nil` for a record the device created. An ancestor with
///   no values — what CloudKit returns when the device kept only system fields — is treated as no ancestor.
/// - `server` is the server's current version. Every resolver builds its result on this copy, so the result carries the
///   server's change tag and saves cleanly.
///
/// ```swift
/// let conflict = Conflict(client: mine, ancestor: lastKnown, server: theirs)
/// let merged = try FieldMerge().resolve(conflict)
/// ```
public struct Conflict: Sendable, Hashable {
  /// What the device tried to save.
  public var client: Record
  /// The last server version the device knew; `nil` for a record the device created.
  public var ancestor: Record?
  /// The server's current version.
  public var server: Record

  /// Creates a conflict from the three versions of one record.
  /// - Parameters:
  ///   - client: What the device tried to save, with its changed keys.
  ///   - ancestor: The last server version the device knew, or `nil`.
  ///   - server: The server's current version.
  public init(client: Record, ancestor: Record?, server: Record) {
    self.client = client
    self.ancestor = ancestor
    self.server = server
  }

  /// The record's ID, the same in all three versions.
  public var recordID: RecordID { server.recordID }

  /// The record's type, taken from the server copy.
  public var recordType: String { server.recordType }

  /// The ancestor if it holds values; an ancestor made from system fields alone tells nothing about what changed.
  var usefulAncestor: Record? {
    guard let ancestor, !(ancestor.storage.values.isEmpty && ancestor.storage.encrypted.isEmpty) else { return nil }
    return ancestor
  }

  /// Throws unless the three versions are the same record: one ID and one record type.
  func checkSameRecord() throws(ConflictResolutionError) {
    try check(client, as: .client)
    if let ancestor { try check(ancestor, as: .ancestor) }
  }

  private func check(_ record: Record, as role: ConflictResolutionError.Role) throws(ConflictResolutionError) {
    let other = record.storage
    let server = server.storage
    guard other !== server else { return }
    guard other.recordID == server.recordID else {
      throw .mismatchedRecordID(role: role, found: other.recordID, server: server.recordID)
    }
    guard other.recordType == server.recordType else {
      throw .mismatchedRecordType(role: role, found: other.recordType, server: server.recordType)
    }
  }
}
