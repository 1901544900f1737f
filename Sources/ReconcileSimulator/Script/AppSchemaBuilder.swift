import Reconcile

/// Turns `schema` declarations into the `Schema` an app version runs.
enum AppSchemaBuilder {
  /// The fields the playground writes by itself for the resolvers; every declared record type knows them, so a
  /// script declares only user fields.
  static let bookkeepingFields: [RecordSchema.Field] = [
    RecordSchema.Field(ResolverChoice.editCountKey, .int64),
    RecordSchema.Field(ResolverChoice.modifiedAtKey, .timestamp),
    RecordSchema.Field(ResolverChoice.fieldStampsKey, .bytes),
  ]

  /// The schema of app `version`: the record types declared for it, each knowing the bookkeeping fields, with an empty
  /// migration step from every older declared version (and from 1.0.0, the version of unversioned records), because
  /// playground schemas only add fields.
  /// - Throws: ``ScriptError`` when nothing is declared for `version`.
  static func schema(_ version: SchemaVersion, from declarations: [SchemaDeclaration]) throws(ScriptError) -> Schema {
    let own = declarations.filter { $0.version == version }
    guard let last = own.last else {
      let declared = Set(declarations.map(\.version.description)).sorted()
      var message =
        "no schema declared for app version \(version); declare one with `schema \(version) Note title:string`"
      if !declared.isEmpty { message += " (declared: \(declared.joined(separator: ", ")))" }
      throw ScriptError(message)
    }
    var records: [RecordSchema] = []
    var migrations: [SchemaMigration] = []
    for declaration in own {
      var record = declaration.recordSchema
      for field in bookkeepingFields where record.fields[field.key] == nil { record.fields[field.key] = field }
      records.append(record)
      var older = Set(
        declarations.filter { $0.recordSchema.recordType == record.recordType && $0.version < version }.map(\.version))
      older.insert(SchemaVersion(major: 1))
      for from in older.sorted() where from < version {
        migrations.append(SchemaMigration(recordType: record.recordType, from: from, to: version) { _ in })
      }
    }
    return Schema(records, unknownKeys: last.unknownKeys, futureVersions: last.futureVersions, migrations: migrations)
  }
}
