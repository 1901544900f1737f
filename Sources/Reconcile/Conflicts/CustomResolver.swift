/// A resolver made from a closure, held to the same contract as the built-ins.
///
/// The closure returns the record it wants saved — usually the client's or the server's copy with some values changed.
/// Only its values matter: they are placed onto the server record exactly as when the client wins a
/// ``ServerLastWriterWins`` resolution, so the result keeps the server's ID, type, change tag and system fields, keys the
/// returned record does not carry keep the server's values (unless listed in its `changedKeys` as removed), and
/// `changedKeys` names exactly what differs from the server.
///
/// ```swift
/// let longestTitle = CustomResolver { conflict in
///   let mine = conflict.client["title"]?.stringValue ?? ""
///   let theirs = conflict.server["title"]?.stringValue ?? ""
///   return mine.count > theirs.count ? conflict.client : conflict.server
/// }
/// ```
public struct CustomResolver: ConflictResolver {
  private let body: @Sendable (Conflict) throws -> Record

  /// Creates a resolver from a closure.
  /// - Parameter body: Returns the record whose values should be saved; it may throw to refuse the conflict.
  public init(_ body: @escaping @Sendable (Conflict) throws -> Record) { self.body = body }

  /// Calls the closure and places the values it chose onto the server record.
  /// - Parameter conflict: The conflict to resolve.
  /// - Returns: The server record carrying the closure's values.
  /// - Throws: ``ConflictResolutionError`` if the versions are not one record; whatever the closure throws.
  public func resolve(_ conflict: Conflict) throws -> Record {
    try conflict.checkSameRecord()
    let chosen = try body(conflict)
    return ResolvedRecord.clientWins(Conflict(client: chosen, ancestor: conflict.ancestor, server: conflict.server))
  }
}

extension ConflictResolver where Self == CustomResolver {
  /// A resolver made from a closure; see ``CustomResolver``.
  /// - Parameter body: Returns the record whose values should be saved.
  public static func custom(_ body: @escaping @Sendable (Conflict) throws -> Record) -> CustomResolver {
    CustomResolver(body)
  }
}
