/// The whole record from the side with the higher edit counter.
///
/// Each device adds one to an `INT64` field (plain or encrypted) on every local edit. The higher count wins the whole
/// record, counter included, so counters never go down. A missing counter counts as zero.
///
/// **Tie-break:** equal counts keep the server's version. The server copy is what other devices already have, so
/// keeping it changes the fewest devices; the client's edit is lost, which is why a tie should be rare — two devices
/// that made the same number of edits from the same base.
///
/// This resolves the seed scenario that defeats ``ServerLastWriterWins``: two quick edits queued with one change tag
/// carry counts *n + 1* and *n + 2*; the first lands, the second conflicts with a count above the server's and wins.
/// It suits single-user apps; with many writers, a busy device's count beats a later edit made elsewhere.
///
/// ```swift
/// note["editCount"] = .int64((note["editCount"]?.int64Value ?? 0) + 1)   // on every local edit
/// let resolved = try EditCountWins(key: "editCount").resolve(conflict)
/// ```
public struct EditCountWins: ConflictResolver, Hashable {
  /// The key of the `INT64` edit counter.
  public var key: String

  /// Creates the resolver.
  /// - Parameter key: The key of the edit counter each device increments.
  public init(key: String) { self.key = key }

  /// Keeps the version with the higher edit count.
  /// - Parameter conflict: The conflict to resolve.
  /// - Returns: The server record; with the client's values, counter included, if the client's count is higher.
  /// - Throws: ``ConflictResolutionError`` if the versions are not one record or the counter is not an `INT64`.
  public func resolve(_ conflict: Conflict) throws -> Record {
    try conflict.checkSameRecord()
    let client = try StampFields.counter(key, in: conflict.client, role: .client) ?? 0
    let server = try StampFields.counter(key, in: conflict.server, role: .server) ?? 0
    return client > server ? ResolvedRecord.clientWins(conflict) : ResolvedRecord.serverWins(conflict)
  }
}

extension ConflictResolver where Self == EditCountWins {
  /// The whole record from the side with the higher edit counter; see ``EditCountWins``.
  /// - Parameter key: The key of the edit counter.
  public static func editCount(key: String) -> EditCountWins { EditCountWins(key: key) }
}
