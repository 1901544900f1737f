import Reconcile

/// The app schemas of a simulated run: version 1.0 knows `title`, `body`, `rank` and the resolvers' bookkeeping
/// fields; the upgrade (1.1 or 2.0) adds the optional `color`, with a migration step from 1.0 that changes nothing
/// else (without a step, the upgraded app could not take part in a conflict on a 1.0 record — the simulator found
/// that).
enum AppSchemas {
  static let baseKeys: Set<String> = [
    "title", "body", "rank", ResolverChoice.editCountKey, ResolverChoice.modifiedAtKey, ResolverChoice.fieldStampsKey,
    "schemaVersion",
  ]

  static func base(_ scenario: SchemaScenario) -> Schema? {
    scenario == .none ? nil : make(version: SchemaVersion(major: 1, minor: 0, patch: 0), color: false)
  }

  static func upgraded(_ scenario: SchemaScenario) -> Schema? {
    switch scenario {
    case .none: nil
    case .minorUpgrade: make(version: SchemaVersion(major: 1, minor: 1, patch: 0), color: true)
    case .majorUpgrade: make(version: SchemaVersion(major: 2, minor: 0, patch: 0), color: true)
    }
  }

  /// The keys a device's app knows.
  static func knownKeys(upgraded: Bool, scenario: SchemaScenario) -> Set<String>? {
    guard scenario != .none else { return nil }
    return upgraded ? baseKeys.union(["color"]) : baseKeys
  }

  private static func make(version: SchemaVersion, color: Bool) -> Schema {
    var fields: [RecordSchema.Field] = [
      RecordSchema.Field("title", .string), RecordSchema.Field("body", .string), RecordSchema.Field("rank", .int64),
      RecordSchema.Field(ResolverChoice.editCountKey, .int64),
      RecordSchema.Field(ResolverChoice.modifiedAtKey, .timestamp),
      RecordSchema.Field(ResolverChoice.fieldStampsKey, .bytes),
    ]
    if color { fields.append(RecordSchema.Field("color", .string, since: version)) }
    let first = SchemaVersion(major: 1, minor: 0, patch: 0)
    let steps = version > first ? [SchemaMigration(recordType: "Note", from: first, to: version) { _ in }] : []
    return Schema(
      [RecordSchema(recordType: "Note", version: version, fields: fields)], unknownKeys: .preserve,
      futureVersions: .allowNewerMinor, migrations: steps)
  }
}
