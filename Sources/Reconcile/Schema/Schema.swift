/// The app's schema: what it knows about each record type, and what to do with records it does not fully understand.
///
/// ```swift
/// let schema = Schema([noteSchema, folderSchema], migrations: [split])
/// switch try schema.check(fetched) {              // throws SchemaHalt: stop syncing
/// case .compatible, .newerMinor: store(fetched)
/// case .needsMigration: store(try schema.migrate(fetched))   // migrated keys are marked for upload
/// }
/// ```
///
/// ## The version field
/// A record carries the schema version that wrote it in a `STRING` field, ``versionKey`` (`schemaVersion` unless
/// given), such as `"1.2.0"`; ``stampVersion(_:)`` writes it. A record **without** the field was written before the app
/// versioned its records and is read as ``versionWhenMissing`` (1.0.0 unless given).
///
/// ## What halts
/// In this order: an unknown record type; an unreadable version field; a version newer than the app's (unless
/// ``FutureVersionPolicy/allowNewerMinor`` accepts it); a known field with another type, or stored encrypted where it
/// should be plain (or the reverse); keys the app does not know (unless ``UnknownKeyPolicy/preserve``); a required
/// field missing. Unknown keys on an *older* record are judged after migration, which may remove them.
public struct Schema: Sendable {
  /// What to do with a record holding keys the app does not know.
  public enum UnknownKeyPolicy: Sendable, Hashable {
    /// Stop syncing: a newer app wrote data this one would not keep. The default.
    case halt
    /// Accept the record, keep the unknown keys untouched, and never write them: guarded resolvers keep the server's
    /// values for them.
    case preserve
  }

  /// What to do with a record written by a newer schema version.
  public enum FutureVersionPolicy: Sendable, Hashable {
    /// Stop syncing. The default.
    case halt
    /// Accept a newer minor or patch version of the same major version; its unknown keys are preserved. A newer
    /// major version still halts.
    case allowNewerMinor
  }

  /// The record schemas by record type.
  public var recordSchemas: [String: RecordSchema]
  /// The key of the `STRING` field that holds a record's schema version.
  public var versionKey: String
  /// What to do with unknown keys.
  public var unknownKeys: UnknownKeyPolicy
  /// What to do with records from newer versions.
  public var futureVersions: FutureVersionPolicy
  /// The version a record without a version field is read as.
  public var versionWhenMissing: SchemaVersion
  /// The registered migration steps.
  public var migrations: [SchemaMigration]

  /// Creates the app's schema.
  /// - Parameters:
  ///   - recordSchemas: One per record type; a later one for the same type replaces an earlier one.
  ///   - versionKey: The key of the version field; `schemaVersion` unless given.
  ///   - unknownKeys: What to do with unknown keys; `.halt` unless given.
  ///   - futureVersions: What to do with newer versions; `.halt` unless given.
  ///   - versionWhenMissing: The version of a record without a version field; 1.0.0 unless given.
  ///   - migrations: Steps that bring older records forward.
  public init(
    _ recordSchemas: [RecordSchema], versionKey: String = "schemaVersion", unknownKeys: UnknownKeyPolicy = .halt,
    futureVersions: FutureVersionPolicy = .halt, versionWhenMissing: SchemaVersion = SchemaVersion(major: 1),
    migrations: [SchemaMigration] = []
  ) {
    self.recordSchemas = [:]
    for schema in recordSchemas { self.recordSchemas[schema.recordType] = schema }
    self.versionKey = versionKey
    self.unknownKeys = unknownKeys
    self.futureVersions = futureVersions
    self.versionWhenMissing = versionWhenMissing
    self.migrations = migrations
  }

  /// Decides whether the app can use `record`.
  /// - Parameter record: A record from the server, another device, or local storage.
  /// - Returns: `.compatible`, `.newerMinor` (accepted newer version) or `.needsMigration(from:)`.
  /// - Throws: ``SchemaHalt`` naming the record and the reason, when syncing must stop.
  /// - Complexity: O(*n*) for the record's *n* keys.
  public func check(_ record: Record) throws(SchemaHalt) -> SchemaCheck {
    guard let recordSchema = recordSchemas[record.recordType] else {
      throw halt(record, .unknownRecordType, version: nil, app: nil)
    }
    let version = try self.version(of: record, app: recordSchema.version)
    var accepted: SchemaCheck = .compatible
    if version > recordSchema.version {
      guard futureVersions == .allowNewerMinor, version.major == recordSchema.version.major else {
        throw halt(
          record, .futureVersion(found: version, supported: recordSchema.version), version: version,
          app: recordSchema.version)
      }
      accepted = .newerMinor(version)
    }
    var unknown: [String] = []
    for (values, encrypted) in [(record.storage.values, false), (record.storage.encrypted, true)] {
      for (key, value) in values where key != versionKey || encrypted {
        guard let field = recordSchema.fields[key] else {
          unknown.append(key)
          continue
        }
        guard field.accepts(value.type) else {
          throw halt(
            record, .typeMismatch(key: key, expected: field.type, found: value.type), version: version,
            app: recordSchema.version)
        }
        guard field.isEncrypted == encrypted else {
          throw halt(
            record, .encryptionMismatch(key: key, expectedEncrypted: field.isEncrypted), version: version,
            app: recordSchema.version)
        }
      }
    }
    if version < recordSchema.version { return .needsMigration(from: version) }
    if !unknown.isEmpty && unknownKeys == .halt && accepted == .compatible {
      throw halt(record, .unknownKeys(unknown.sorted()), version: version, app: recordSchema.version)
    }
    for field in recordSchema.fields.values.sorted(by: { $0.key < $1.key })
    where field.isRequired && (field.since.map { $0 <= version } ?? true) {
      guard record[field.key] != nil || record.encryptedValues[field.key] != nil else {
        throw halt(record, .missingRequiredField(key: field.key), version: version, app: recordSchema.version)
      }
    }
    return accepted
  }

  /// The keys of `record` its record schema does not list (the version field is always known); every key when the
  /// record type is unknown.
  /// - Parameter record: A record.
  /// - Returns: The unknown keys, plain or encrypted.
  public func unknownKeys(in record: Record) -> Set<String> {
    let fields = recordSchemas[record.recordType]?.fields ?? [:]
    return Set(record.allKeys.filter { fields[$0] == nil && $0 != versionKey })
  }

  /// Writes the app's version of the record's type into its version field, so other devices can check it. Call it on
  /// every record this app creates or edits.
  /// - Parameter record: A record of a type the schema knows.
  /// - Throws: ``SchemaHalt`` with ``SchemaHalt/Reason/unknownRecordType`` for a type the schema does not know.
  public func stampVersion(_ record: inout Record) throws(SchemaHalt) {
    guard let recordSchema = recordSchemas[record.recordType] else {
      throw halt(record, .unknownRecordType, version: nil, app: nil)
    }
    let text = FieldValue.string(recordSchema.version.description)
    if record[versionKey] != text { record[versionKey] = text }
  }

  /// The version `record` says it has.
  func version(of record: Record, app: SchemaVersion) throws(SchemaHalt) -> SchemaVersion {
    if let encrypted = record.encryptedValues[versionKey] {
      throw halt(record, .invalidVersion("an encrypted \(encrypted.type.wireName)"), version: nil, app: app)
    }
    guard let value = record[versionKey] else { return versionWhenMissing }
    guard case .string(let text) = value else {
      throw halt(record, .invalidVersion("\(value.type.wireName) \(value)"), version: nil, app: app)
    }
    do {
      return try SchemaVersion(text)
    } catch {
      throw halt(record, .invalidVersion(error.description), version: nil, app: app)
    }
  }

  func halt(_ record: Record, _ reason: SchemaHalt.Reason, version: SchemaVersion?, app: SchemaVersion?) -> SchemaHalt {
    SchemaHalt(
      recordID: record.recordID, recordType: record.recordType, reason: reason, recordVersion: version, appVersion: app)
  }
}
