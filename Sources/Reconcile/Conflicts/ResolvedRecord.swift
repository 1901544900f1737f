/// Builds a resolver's result: the server record plus the values the resolver chose.
///
/// Every built-in resolver goes through this one type, so the contract holds by construction: the result keeps the
/// server's ID, type, change tag and system fields; a key the resolver does not choose keeps the server's value; and
/// `changedKeys` lists exactly the keys whose final value differs from the server's.
struct ResolvedRecord {
  private let server: Record
  /// The result's storage, copied from the server's on the first choice that differs.
  private var storage: Record.Storage?
  /// Keys written so far; compared with the server's at the end to fill `changedKeys`.
  private var touched: [String] = []

  init(server: Record) { self.server = server }

  /// The result when the client's whole record wins: every client value, plain or encrypted, and every key the client
  /// deliberately removed (listed in its changed keys, without a value). Keys the client does not carry keep the
  /// server's value.
  static func clientWins(_ conflict: Conflict) -> Record {
    var result = ResolvedRecord(server: conflict.server)
    let client = conflict.client.storage
    for (key, value) in client.values { result.choose(value, forKey: key, encrypted: false) }
    for (key, value) in client.encrypted { result.choose(value, forKey: key, encrypted: true) }
    for key in client.changedKeys where client.values[key] == nil && client.encrypted[key] == nil {
      result.remove(key)
    }
    result.mergeParent(conflict)
    return result.finish()
  }

  /// The result when the server's record wins: the server copy with no changed keys.
  static func serverWins(_ conflict: Conflict) -> Record {
    var result = ResolvedRecord(server: conflict.server)
    result.mergeParent(conflict)
    return result.finish()
  }

  /// Chooses `value` for `key` in the plain or the encrypted values. A key has one value, so choosing it in one place
  /// removes it from the other.
  mutating func choose(_ value: FieldValue, forKey key: String, encrypted: Bool) {
    let current = encrypted ? server.storage.encrypted[key] : server.storage.values[key]
    let other = encrypted ? server.storage.values[key] : server.storage.encrypted[key]
    if current == value && other == nil && storage == nil { return }
    let box = writable()
    if encrypted {
      box.encrypted[key] = value
      box.values[key] = nil
    } else {
      box.values[key] = value
      box.encrypted[key] = nil
    }
    touched.append(key)
  }

  /// Removes `key` from the plain and the encrypted values.
  mutating func remove(_ key: String) {
    if server.storage.values[key] == nil && server.storage.encrypted[key] == nil && storage == nil { return }
    let box = writable()
    box.values[key] = nil
    box.encrypted[key] = nil
    touched.append(key)
  }

  /// Applies the one rule every resolver shares for `parent`: a change made on the client alone is kept; otherwise the
  /// server's parent stays.
  mutating func mergeParent(_ conflict: Conflict) {
    let client = conflict.client.storage.parent
    let serverParent = server.storage.parent
    guard client != serverParent else { return }
    let clientChanged = conflict.ancestor.map { $0.storage.parent != client } ?? (client != nil)
    let serverChanged = conflict.ancestor.map { $0.storage.parent != serverParent } ?? true
    guard clientChanged, !serverChanged || serverParent == nil else { return }
    writable().parent = client
  }

  /// The result: the server record with the chosen values, `changedKeys` exactly the keys that differ from it.
  func finish() -> Record {
    guard let storage else {
      if server.storage.changedKeys.isEmpty { return server }
      var copy = server
      copy.clearChangedKeys()
      return copy
    }
    let original = server.storage
    for key in touched
    where storage.values[key] != original.values[key] || storage.encrypted[key] != original.encrypted[key] {
      storage.changedKeys.insert(key)
    }
    return Record(storage: storage)
  }

  private mutating func writable() -> Record.Storage {
    if let storage { return storage }
    let box = Record.Storage(copying: server.storage)
    box.changedKeys = []
    storage = box
    return box
  }
}
