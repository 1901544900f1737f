/// The whole record from the side whose device-written timestamp is later.
///
/// Each device writes its own clock's time into a `TIMESTAMP` field (plain or encrypted) when the user edits the
/// record; the later stamp wins. The rule for missing stamps: a record without the field loses to one with it; when
/// neither has it, or the stamps are equal, the server's version stays.
///
/// Device clocks disagree. A device whose clock runs five minutes slow stamps its edits five minutes in the past, so an
/// edit it makes after another device's, in real time, still loses. ``HybridLogicalClockMerge`` fixes this.
///
/// ```swift
/// note["editedAt"] = .timestamp(Date())          // on every local edit
/// let resolved = try LocalClockLastWriterWins(key: "editedAt").resolve(conflict)
/// ```
public struct LocalClockLastWriterWins: ConflictResolver, Hashable {
  /// The key of the `TIMESTAMP` field each device writes on every edit.
  public var key: String

  /// Creates the resolver.
  /// - Parameter key: The key of the device-written timestamp field.
  public init(key: String) { self.key = key }

  /// Keeps the version with the later stamp.
  /// - Parameter conflict: The conflict to resolve.
  /// - Returns: The server record; with the client's values if the client's stamp is later.
  /// - Throws: ``ConflictResolutionError`` if the versions are not one record or the field is not a timestamp.
  public func resolve(_ conflict: Conflict) throws -> Record {
    try conflict.checkSameRecord()
    let client = try StampFields.timestamp(key, in: conflict.client, role: .client)
    let server = try StampFields.timestamp(key, in: conflict.server, role: .server)
    let clientWins = StampFields.clientIsLater(client, than: server)
    return clientWins ? ResolvedRecord.clientWins(conflict) : ResolvedRecord.serverWins(conflict)
  }
}

extension ConflictResolver where Self == LocalClockLastWriterWins {
  /// The whole record from the side with the later device-written timestamp; see ``LocalClockLastWriterWins``.
  /// - Parameter key: The key of the device-written timestamp field.
  public static func localClock(key: String) -> LocalClockLastWriterWins { LocalClockLastWriterWins(key: key) }
}
