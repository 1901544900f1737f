/// What the app knows about one record type: its current schema version and its fields.
///
/// ```swift
/// let note = RecordSchema(recordType: "Note", version: try SchemaVersion("1.1.0"), fields: [
///   .init("title", .string, required: true),
///   .init("tags", .list(.string)),
///   .init("body", .string, encrypted: true),
///   .init("due", .timestamp, since: try SchemaVersion("1.1.0")),
/// ])
/// ```
public struct RecordSchema: Sendable, Hashable {
  /// One field the app knows.
  public struct Field: Sendable, Hashable {
    /// The field's key.
    public var key: String
    /// The field's type; lists are `.list(element)`, and an empty list matches any list type.
    public var type: FieldType
    /// Whether the field lives in the record's encrypted values.
    public var isEncrypted: Bool
    /// Whether a record at or after ``since`` must have the field.
    public var isRequired: Bool
    /// The schema version that added the field; `nil` for a field present from the start.
    public var since: SchemaVersion?

    /// Creates a field description.
    /// - Parameters:
    ///   - key: The field's key.
    ///   - type: Its type, such as `.string` or `.list(.int64)`.
    ///   - encrypted: Whether it is an encrypted value.
    ///   - required: Whether records from ``since`` on must have it.
    ///   - since: The schema version that added it; `nil` for the first.
    public init(
      _ key: String, _ type: FieldType, encrypted: Bool = false, required: Bool = false, since: SchemaVersion? = nil
    ) {
      self.key = key
      self.type = type
      self.isEncrypted = encrypted
      self.isRequired = required
      self.since = since
    }

    /// Whether `value`, stored plain or encrypted, is what this field allows.
    func accepts(_ type: FieldType) -> Bool {
      if type == self.type { return true }
      // An empty list has no element type; it fits any list field.
      if case .list(nil) = type, case .list = self.type { return true }
      return false
    }
  }

  /// The record type, such as `Note`.
  public var recordType: String
  /// The version of this record type the app writes.
  public var version: SchemaVersion
  /// The known fields by key.
  public var fields: [String: Field]

  /// Creates a record schema; if two fields share a key, the later one counts.
  /// - Parameters:
  ///   - recordType: The record type.
  ///   - version: The version of this record type the app writes.
  ///   - fields: The fields the app knows.
  public init(recordType: String, version: SchemaVersion, fields: [Field]) {
    self.recordType = recordType
    self.version = version
    self.fields = [:]
    for field in fields { self.fields[field.key] = field }
  }
}
