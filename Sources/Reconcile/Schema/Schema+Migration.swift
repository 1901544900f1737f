extension Schema {
  /// Brings an older record to the app's version by running the registered steps in order, then checks it again.
  ///
  /// From the record's version, each round runs the step for its type with the latest `from` at or below the current
  /// version and a `to` above it, then writes the step's `to` into the version field. A version with no such step,
  /// short of the app's version, is a gap and halts: register a step — an empty one if nothing changes — for every
  /// version. A record that needs no migration is returned unchanged.
  /// - Parameter record: A record ``check(_:)`` accepts or reports as older.
  /// - Returns: The migrated record; every key a step wrote, and the version field, are in its `changedKeys`, so it is
  ///   uploaded.
  /// - Throws: ``SchemaHalt`` from the checks, for a gap (``SchemaHalt/Reason/migrationGap(from:to:)``), or when a step
  ///   throws (``SchemaHalt/Reason/migrationFailed(from:to:error:)``).
  public func migrate(_ record: Record) throws(SchemaHalt) -> Record {
    guard case .needsMigration(let start) = try check(record),
      let target = recordSchemas[record.recordType]?.version
    else { return record }
    let steps = migrations.filter { $0.recordType == record.recordType && $0.from < $0.to }
    var migrated = record
    var version = start
    while version < target {
      let candidates = steps.filter { $0.from <= version && $0.to > version }
      guard let step = candidates.max(by: { ($0.from, $0.to) < ($1.from, $1.to) }) else {
        throw halt(record, .migrationGap(from: version, to: target), version: start, app: target)
      }
      do {
        try step.body(&migrated)
      } catch {
        throw halt(
          record, .migrationFailed(from: step.from, to: step.to, error: "\(error)"), version: start, app: target)
      }
      version = step.to
      migrated[versionKey] = .string(version.description)
    }
    _ = try check(migrated)
    return migrated
  }
}
