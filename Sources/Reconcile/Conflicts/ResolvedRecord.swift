/// Builds a resolver's result: the server record plus the values the resolver chose.
///
/// Every built-in resolver goes through this one type, so the contract holds by construction: the result keeps the
/// server's ID, type, change tag and system fields; a key the resolver does not choose keeps the server's value; and
/// `changedKeys` lists exactly the keys whose final value differs from the server's.
///
/// Callers choose each key at most once (every built-in visits a key once), so whether a key differs from the server
/// is settled when it is chosen. Merges run for every conflict of every sync, so this type avoids hashing a key more
/// than it must: a choice equal to the server's value costs nothing, and the server's storage is copied once, on the
/// first choice that differs.
struct ResolvedRecord {
  private let server: Record
  private let serverValues: [String: FieldValue]
  private let serverEncrypted: [String: FieldValue]
  /// The result's storage, copied from the server's on the first choice that differs.
  private var storage: Record.Storage?
  /// How many keys the caller may change, so the result's `changedKeys` is allocated once.
  private let expectedChanges: Int

  /// - Parameters:
  ///   - server: The server record the result is built on.
  ///   - expectedChanges: An upper estimate of the keys that will differ; it only sizes a set.
  init(server: Record, expectedChanges: Int = 4) {
    self.server = server
    self.expectedChanges = expectedChanges
    self.serverValues = server.storage.values
    self.serverEncrypted = server.storage.encrypted
  }

  /// The result when the client's whole record wins: every client value, plain or encrypted, and every key the client
  /// deliberately removed (listed in its changed keys, without a value). Keys the client does not carry keep the
  /// server's value.
  static func clientWins(_ conflict: Conflict) -> Record {
    let client = conflict.client.storage
    var result = ResolvedRecord(
      server: conflict.server, expectedChanges: client.values.count + client.encrypted.count + client.changedKeys.count)
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
    choose(value, forKey: key, encrypted: encrypted, serverValue: encrypted ? serverEncrypted[key] : serverValues[key])
  }

  /// As ``choose(_:forKey:encrypted:)``, for a caller that has already looked up the server's value of `key` in the
  /// same namespace.
  mutating func choose(_ value: FieldValue, forKey key: String, encrypted: Bool, serverValue: FieldValue?) {
    let other = encrypted ? serverValues : serverEncrypted
    let otherHasKey = !other.isEmpty && other[key] != nil
    guard value != serverValue || otherHasKey else { return }
    let box = writable()
    if encrypted {
      box.encrypted[key] = value
      if otherHasKey { box.values[key] = nil }
    } else {
      box.values[key] = value
      if otherHasKey { box.encrypted[key] = nil }
    }
    box.changedKeys.insert(key)
  }

  /// Chooses `slot` for `key`, or removes the key for `nil`. `server` is the server's slot for the key.
  mutating func apply(_ slot: FieldSlot?, forKey key: String, server: FieldSlot?) {
    guard let slot else { return remove(key) }
    let serverValue = server?.encrypted == slot.encrypted ? server?.value : nil
    choose(slot.value, forKey: key, encrypted: slot.encrypted, serverValue: serverValue)
  }

  /// Removes `key` from the plain and the encrypted values.
  mutating func remove(_ key: String) {
    let plain = serverValues[key] != nil
    let encrypted = !serverEncrypted.isEmpty && serverEncrypted[key] != nil
    guard plain || encrypted else { return }
    let box = writable()
    if plain { box.values[key] = nil }
    if encrypted { box.encrypted[key] = nil }
    box.changedKeys.insert(key)
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
    if let storage { return Record(storage: storage) }
    if server.storage.changedKeys.isEmpty { return server }
    var copy = server
    copy.clearChangedKeys()
    return copy
  }

  private mutating func writable() -> Record.Storage {
    if let storage { return storage }
    let box = Record.Storage(copying: server.storage)
    box.changedKeys = Set(minimumCapacity: expectedChanges)
    storage = box
    return box
  }
}
