/// One registered step that brings records of one type from one schema version to a later one.
///
/// ```swift
/// let split = SchemaMigration(recordType: "Note", from: try SchemaVersion("1.0.0"), to: try SchemaVersion("2.0.0")) {
///   note in
///   let name = note["name"]?.stringValue ?? ""
///   note["title"] = .string(name)
///   note["name"] = nil
/// }
/// ```
/// Every write the step makes marks the key changed, so the migrated record is uploaded. The step does not set the
/// version field; ``Schema/migrate(_:)`` does.
public struct SchemaMigration: Sendable {
  /// The record type the step applies to.
  public var recordType: String
  /// The version the step starts from; it also applies to later patch or minor versions below ``to``.
  public var from: SchemaVersion
  /// The version the step brings records to.
  public var to: SchemaVersion
  /// Rewrites a record in place; throwing stops the migration with a ``SchemaHalt``.
  public var body: @Sendable (inout Record) throws -> Void

  /// Creates a step.
  /// - Parameters:
  ///   - recordType: The record type it applies to.
  ///   - from: The version it starts from.
  ///   - to: The version it brings records to; later than `from`.
  ///   - body: Rewrites the record; an empty body only moves the version forward.
  public init(
    recordType: String, from: SchemaVersion, to: SchemaVersion,
    _ body: @escaping @Sendable (inout Record) throws -> Void = { _ in }
  ) {
    self.recordType = recordType
    self.from = from
    self.to = to
    self.body = body
  }
}
