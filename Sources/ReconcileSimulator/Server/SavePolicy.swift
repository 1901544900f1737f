/// How the server treats a saved record that already exists, as `CKModifyRecordsOperation.savePolicy`.
///
/// In every policy the server merges per key: keys the client does not send keep their server values, and a key goes
/// away only when the client sends it removed.
package enum SavePolicy: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
  /// Compare change tags; a stale tag fails with ``CloudKitError/serverRecordChanged(client:ancestor:server:)``. Sends the
  /// changed keys. CloudKit's default.
  case ifServerRecordUnchanged
  /// Send the changed keys and overwrite without comparing tags: the last write silently wins.
  case changedKeys
  /// Send every key the client holds and overwrite without comparing tags.
  case allKeys

  /// The policy's name.
  package var description: String { rawValue }
}
