/// A resolver per record type, with a default for the rest.
///
/// ```swift
/// let resolver = ResolverSet(
///   default: .fieldMerge(),
///   byRecordType: ["Counter": EditCountWins(key: "count"), "Setting": .serverLastWriterWins])
/// ```
public struct ResolverSet: ConflictResolver {
  /// The resolver for record types without their own.
  public var defaultResolver: any ConflictResolver
  /// Resolvers by record type.
  public var resolvers: [String: any ConflictResolver]

  /// Creates a set of resolvers.
  /// - Parameters:
  ///   - defaultResolver: The resolver for record types not in `byRecordType`.
  ///   - byRecordType: Resolvers keyed by record type, such as `Note`.
  public init(default defaultResolver: any ConflictResolver, byRecordType: [String: any ConflictResolver] = [:]) {
    self.defaultResolver = defaultResolver
    self.resolvers = byRecordType
  }

  /// The resolver this set uses for `recordType`.
  /// - Parameter recordType: A record type.
  /// - Returns: The type's own resolver, or the default.
  public func resolver(for recordType: String) -> any ConflictResolver {
    resolvers[recordType] ?? defaultResolver
  }

  /// Resolves the conflict with the resolver for its record type (the server copy's type).
  /// - Parameter conflict: The conflict to resolve.
  /// - Returns: What that resolver returns.
  /// - Throws: What that resolver throws.
  public func resolve(_ conflict: Conflict) throws -> Record {
    try resolver(for: conflict.recordType).resolve(conflict)
  }
}
