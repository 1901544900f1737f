/// Builds a resolver's result: the server record plus the values the resolver chose.
///
/// Every built-in resolver goes through this one type, so the contract holds by construction: the result keeps the
/// server's ID, type, change tag and system fields; a key the resolver does not choose keeps the server's value; and
/// `changedKeys` lists exactly the keys whose final value differs from the server's.
///
/// Callers choose each key at most once (every built-in visits a key once), so whether a key differs from the server
/// is settled when it is chosen. Merges run for every conflict of every sync, so this type does as little per key as
/// it can: a choice equal to the server's value costs nothing; the server's storage is copied once, on the first choice
/// that differs; a value written where the server has the key is written at the server's position without searching;
/// and when every key a merge could change did change, the result reuses that set as its changed keys.
struct ResolvedRecord {
  private let server: Record
  private var serverValues: FieldTable { server.storage.values }
  private var serverEncrypted: FieldTable { server.storage.encrypted }
  /// The result's storage, copied from the server's on the first choice that differs.
  private var storage: Record.Storage?
  /// The keys chosen so far that differ from the server's, each once: the result's changed keys. Not kept when the
  /// caller named its candidates, whose set is the changed keys less ``skippedCandidates``.
  private var chosenKeys: [String] = []
  /// How many keys the caller may change, so ``chosenKeys`` is allocated once.
  private let expectedChanges: Int
  /// Every key the caller may choose, when it says so (see ``init(server:changesAmong:)``).
  private let candidates: Set<String>?
  /// The candidates that keep the server's value; empty in the common case, where every one changed.
  private var skippedCandidates: [String] = []
  /// Whether the result's plain (encrypted) table still has the server's keys in the server's order, so a position
  /// found in the server's table addresses the result's. An insertion or removal ends it.
  private var plainKeepsServerLayout = true
  private var encryptedKeepsServerLayout = true

  /// - Parameters:
  ///   - server: The server record the result is built on.
  ///   - expectedChanges: An upper estimate of the keys that will differ; it only sizes an array.
  init(server: Record, expectedChanges: Int = 4) {
    self.server = server
    self.expectedChanges = expectedChanges
    self.candidates = nil
  }

  /// A builder whose caller visits each key of `candidates` once, and no other key: it chooses or removes the key, or
  /// passes it to ``skip(_:)`` to keep the server's value. When no key is skipped — the common case — the result's
  /// changed keys are `candidates` itself, without hashing a key again or keeping a list of them.
  /// - Parameters:
  ///   - server: The server record the result is built on.
  ///   - candidates: Every key the caller may choose or remove.
  init(server: Record, changesAmong candidates: Set<String>) {
    self.server = server
    self.expectedChanges = 0  // no list of chosen keys is kept
    self.candidates = candidates
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
    guard value != serverValue || otherHasKey else { return skip(key) }
    write(value, forKey: key, encrypted: encrypted)
    if otherHasKey { write(nil, forKey: key, encrypted: !encrypted) }
    noteChosen(key)
  }

  /// Chooses `value` for `key` in the plain or encrypted values, where the server's value of the key is at
  /// `serverPosition` of the server's tables (`nil`: the server has none). The caller has checked that `value` differs
  /// from the server's value there.
  // Kept out of line: inlined into a merge's loop, it made a 100-field merge 15–20% slower (more values copied per
  // choice) for no gain on a ten-field one.
  @inline(never)
  mutating func choose(_ value: FieldValue, encrypted: Bool, forKey key: String, serverPosition: FieldPosition?) {
    guard let serverPosition, serverPosition.encrypted == encrypted,
      encrypted ? encryptedKeepsServerLayout : plainKeepsServerLayout,
      (encrypted ? serverValues : serverEncrypted).isEmpty
    else {
      let serverValue = serverPosition.flatMap {
        $0.encrypted == encrypted ? (encrypted ? serverEncrypted : serverValues).values[$0.index] : nil
      }
      return choose(value, forKey: key, encrypted: encrypted, serverValue: serverValue)
    }
    // The common case: the server holds the key in the same table, and nothing has moved the result's entries yet.
    let box = writable()
    if encrypted {
      box.encrypted.replaceValue(at: serverPosition.index, with: value)
    } else {
      box.values.replaceValue(at: serverPosition.index, with: value)
    }
    noteChosen(key)
  }

  /// Removes `key` from the plain and the encrypted values.
  mutating func remove(_ key: String) {
    let plain = serverValues[key] != nil
    let encrypted = !serverEncrypted.isEmpty && serverEncrypted[key] != nil
    guard plain || encrypted else { return skip(key) }
    if plain { write(nil, forKey: key, encrypted: false) }
    if encrypted { write(nil, forKey: key, encrypted: true) }
    noteChosen(key)
  }

  /// Keeps the server's value of `key`: for a builder with candidates, a candidate the caller leaves as it is.
  mutating func skip(_ key: String) {
    if candidates != nil { skippedCandidates.append(key) }
  }

  private mutating func noteChosen(_ key: String) {
    if candidates == nil { chosenKeys.append(key) }
  }

  /// Applies the one rule every resolver shares for `parent`: a change made on the client alone is kept; otherwise the
  /// server's parent stays.
  mutating func mergeParent(_ conflict: Conflict) {
    // Most records have no parent on either side: settled without copying a reference.
    guard conflict.client.storage.parent != nil || server.storage.parent != nil else { return }
    mergeParents(conflict)
  }

  @inline(never)
  private mutating func mergeParents(_ conflict: Conflict) {
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
    if let storage {
      if let candidates {
        // The storage was made with the candidates as its changed keys.
        if !skippedCandidates.isEmpty { storage.changedKeys = candidates.subtracting(skippedCandidates) }
      } else {
        storage.changedKeys = Set(chosenKeys)
      }
      return Record(storage: storage)
    }
    if server.storage.changedKeys.isEmpty { return server }
    var copy = server
    copy.clearChangedKeys()
    return copy
  }

  /// Writes `value` (or, for `nil`, removes the key) in the result's plain or encrypted table, noting when that moves
  /// the table's entries away from the server's layout.
  private mutating func write(_ value: FieldValue?, forKey key: String, encrypted: Bool) {
    let box = writable()
    let before = encrypted ? box.encrypted.count : box.values.count
    if encrypted { box.encrypted[key] = value } else { box.values[key] = value }
    if (encrypted ? box.encrypted.count : box.values.count) != before {
      if encrypted { encryptedKeepsServerLayout = false } else { plainKeepsServerLayout = false }
    }
  }

  private mutating func writable() -> Record.Storage {
    if let storage { return storage }
    let box = Record.Storage(copying: server.storage, changedKeys: candidates ?? [])
    storage = box
    if candidates == nil { chosenKeys.reserveCapacity(expectedChanges) }
    return box
  }
}
