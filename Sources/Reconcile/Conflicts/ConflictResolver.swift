/// Decides what to save when the server rejected a save because the record changed there (`serverRecordChanged`).
///
/// ## The contract
/// Every resolver, built in or yours (through ``CustomResolver``), returns a record that
/// - carries the server's record ID, record type, change tag and system fields, so saving it with
///   `ifServerRecordUnchanged` succeeds unless the server moved again;
/// - has ``Record/changedKeys`` equal to exactly the keys whose value differs from the server copy — an empty set means
///   "accept the server's version", and there is nothing to upload;
/// - keeps every key present on the server, except one the client deliberately removed (listed in its `changedKeys`
///   without a value) when the resolver's rule gives that key to the client;
/// - is deterministic: the same conflict always gives the same record.
///
/// `parent` follows one rule in every built-in: a change made on the client alone is kept, otherwise the server's stays.
///
/// ## Choosing one
/// | Resolver | Rule |
/// |---|---|
/// | ``serverLastWriterWins`` | the later server modification date wins the whole record |
/// | ``localClock(key:)`` | the later device-written timestamp wins the whole record |
/// | ``editCount(key:)`` | the higher edit counter wins the whole record |
/// | ``fieldMerge(_:overrides:)`` | three-way merge per key against the ancestor; a policy settles true conflicts |
/// | ``hybridLogicalClock(stampsKey:)`` | per-key hybrid-logical-clock stamps; commutative, so devices converge |
///
/// The article "Choosing a resolver" compares where each one loses data.
public protocol ConflictResolver: Sendable {
  /// Resolves one conflict.
  /// - Parameter conflict: The client, ancestor and server versions of one record.
  /// - Returns: The server record carrying the chosen values, with `changedKeys` naming what to upload.
  /// - Throws: ``ConflictResolutionError`` from the built-ins when the versions are not one record or a field the
  ///   resolver reads has the wrong type; custom resolvers may throw their own errors.
  func resolve(_ conflict: Conflict) throws -> Record
}
