/// The whole record from the side the server saved last: the server's `modificationDate` decides.
///
/// The client's date is the modification date of the server copy it last knew, so the client wins only when its copy
/// is newer than the server's, which a live server never produces: in practice **the server always wins**. A missing
/// date loses to any date; equal dates keep the server's version.
///
/// This is the seed scenario's pitfall: two quick local edits queued with the same change tag. The first lands and
/// moves the server's date forward; the second conflicts, finds the server newer, and is silently lost.
///
/// ```swift
/// let resolved = try ServerLastWriterWins().resolve(conflict)   // or `.serverLastWriterWins`
/// ```
public struct ServerLastWriterWins: ConflictResolver, Hashable {
  /// Creates the resolver.
  public init() {}

  /// Keeps the version with the later server modification date.
  /// - Parameter conflict: The conflict to resolve.
  /// - Returns: The server record; with the client's values if the client's copy was saved later.
  /// - Throws: ``ConflictResolutionError`` if the versions are not one record.
  public func resolve(_ conflict: Conflict) throws -> Record {
    try conflict.checkSameRecord()
    let clientWins = StampFields.clientIsLater(conflict.client.modificationDate, than: conflict.server.modificationDate)
    return clientWins ? ResolvedRecord.clientWins(conflict) : ResolvedRecord.serverWins(conflict)
  }
}

extension ConflictResolver where Self == ServerLastWriterWins {
  /// The whole record from the side the server saved last; see ``ServerLastWriterWins``.
  public static var serverLastWriterWins: ServerLastWriterWins { ServerLastWriterWins() }
}
