/// A resolver that checks all three versions against the app's schema before merging, so an old app never overwrites
/// what a newer app wrote.
///
/// Before resolving, the client, the ancestor (if it holds values) and the server are checked: a ``SchemaHalt`` is
/// thrown instead of merging. Older versions are migrated first, so the merge compares like with like; keys the
/// migration changed on the server copy end up in the result's `changedKeys`, so the migrated record is uploaded.
///
/// Keys the schema does not know — present only when ``Schema/UnknownKeyPolicy/preserve`` or
/// ``Schema/FutureVersionPolicy/allowNewerMinor`` lets such records through — keep exactly the server's values in the
/// result and are never in its `changedKeys`: this app never writes what it does not understand.
///
/// ```swift
/// let resolver = FieldMerge(.editCount(key: "editCount")).guarded(by: schema)
/// do {
///   let resolved = try resolver.resolve(conflict)
/// } catch let halt as SchemaHalt {
///   stopSyncing(reason: halt.description)
/// }
/// ```
public struct SchemaGuardedResolver: ConflictResolver {
  /// The resolver that merges once the checks pass.
  public var base: any ConflictResolver
  /// The app's schema.
  public var schema: Schema

  /// Creates a guarded resolver; ``ConflictResolver/guarded(by:)`` reads better.
  /// - Parameters:
  ///   - base: The resolver that merges once the checks pass.
  ///   - schema: The app's schema.
  public init(_ base: any ConflictResolver, schema: Schema) {
    self.base = base
    self.schema = schema
  }

  /// Checks, migrates and resolves.
  /// - Parameter conflict: The conflict to resolve.
  /// - Returns: What the base resolver returns, with unknown keys as the server has them and `changedKeys` relative to
  ///   the server copy as it arrived.
  /// - Throws: ``SchemaHalt`` when a version must stop syncing; whatever the base resolver throws.
  public func resolve(_ conflict: Conflict) throws -> Record {
    let original = conflict.server
    let server = try schema.migrate(original)
    let client = try schema.migrate(conflict.client)
    let ancestor = try conflict.usefulAncestor.map { ancestor throws(SchemaHalt) in try schema.migrate(ancestor) }
    var result = try base.resolve(Conflict(client: client, ancestor: ancestor ?? conflict.ancestor, server: server))

    let unknown = schema.unknownKeys(in: original).union(schema.unknownKeys(in: client))
      .union(ancestor.map(schema.unknownKeys(in:)) ?? [])
    for key in unknown where !result.hasSameValue(forKey: key, as: original) { result.restore(key, from: original) }
    result.systemFields = original.systemFields
    var changed = result.changedKeys.union(server.changedKeys).subtracting(unknown)
    changed = changed.filter { !result.hasSameValue(forKey: $0, as: original) }
    if changed != result.changedKeys { result.replaceChangedKeys(with: changed) }
    return result
  }
}

extension ConflictResolver {
  /// This resolver, checking every version against `schema` first; see ``SchemaGuardedResolver``.
  /// - Parameter schema: The app's schema.
  /// - Returns: A resolver that throws ``SchemaHalt`` instead of merging what the app does not understand.
  public func guarded(by schema: Schema) -> SchemaGuardedResolver { SchemaGuardedResolver(self, schema: schema) }
}

extension SchemaGuardedResolver: EqualValuesRule {
  package func equalValuesBothCount(recordType: String) -> @Sendable (String) -> Bool {
    base.countsEqualValuesTwice(recordType: recordType)
  }
}
