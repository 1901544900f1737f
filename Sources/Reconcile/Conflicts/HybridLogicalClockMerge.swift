public import Foundation

/// Merges two versions key by key, keeping for each key the value with the later hybrid-logical-clock stamp.
///
/// Each device stamps every key it writes (or removes) with its ``HybridLogicalClock``; the stamps travel inside the
/// record, in one `BYTES` field named ``stampsKey``. The merge is a last-writer-wins map: it is **commutative,
/// associative and idempotent**, so devices that exchange versions in any order converge to the same values, and it needs
/// no ancestor. Because the clock moves past every stamp a device has seen, an edit made after seeing another device's
/// edit always wins over it, even when this device's clock runs slow (within the clock's maximum drift).
///
/// ## Rules, for each key
/// - The later stamp wins: its value, or its removal if that side stamped the key without a value.
/// - A key without a stamp counts as older than any stamped one.
/// - Equal stamps (or none on both sides) pick the same winner on every device: a present value beats an absent one, and
///   between two values the larger canonical encoding wins.
/// - The result's stamps are the later stamp of every key.
///
/// Concurrent edits — neither device had seen the other's — are ordered by their clocks, so a device whose clock runs
/// slow can still lose an edit made within its skew. Stamps are written by ``stamp(_:with:at:)`` and read by
/// ``stamps(in:)``; their encoding is documented in the "Choosing a resolver" article.
///
/// ```swift
/// let merge = HybridLogicalClockMerge()
/// note["title"] = "Groceries"
/// try merge.stamp(&note, with: &clock)         // after each local edit, before saving
/// try merge.observe(fetched, with: &clock)     // after each fetch
/// let resolved = try merge.resolve(conflict)
/// ```
public struct HybridLogicalClockMerge: ConflictResolver, Hashable {
  /// The key of the `BYTES` field that holds the per-key stamps.
  public var stampsKey: String

  /// Creates the resolver.
  /// - Parameter stampsKey: The key of the field holding the stamps; `fieldStamps` unless given.
  public init(stampsKey: String = "fieldStamps") { self.stampsKey = stampsKey }

  /// Merges the two versions key by key.
  /// - Parameter conflict: The conflict to resolve; its ancestor is not needed.
  /// - Returns: The server record with every key the client stamped later, and the merged stamps.
  /// - Throws: ``ConflictResolutionError`` if the versions are not one record or a stamps field cannot be read.
  /// - Complexity: O(*n* log *n*) for *n* stamped keys (decoding and writing the stamps dominate).
  public func resolve(_ conflict: Conflict) throws -> Record {
    try conflict.checkSameRecord()
    let clientStamps = try stamps(in: conflict.client, role: .client)
    let serverStamps = try stamps(in: conflict.server, role: .server)
    let client = conflict.client.storage
    let server = conflict.server.storage
    var result = ResolvedRecord(server: conflict.server)
    var merged = serverStamps

    func consider(_ key: String) {
      guard key != stampsKey else { return }
      let clientStamp = clientStamps.byKey[key]
      let serverStamp = serverStamps.byKey[key]
      if clientStamp == serverStamp {
        guard Self.clientBreaksTie(key, client: client, server: server) else { return }
      } else if let clientStamp, serverStamp.map({ clientStamp > $0 }) ?? true {
        merged.byKey[key] = clientStamp
      } else {
        return
      }
      if let value = client.values[key] {
        result.choose(value, forKey: key, encrypted: false)
      } else if let value = client.encrypted[key] {
        result.choose(value, forKey: key, encrypted: true)
      } else {
        result.remove(key)
      }
    }
    for key in client.values.keys { consider(key) }
    for key in client.encrypted.keys where client.values[key] == nil { consider(key) }
    for key in clientStamps.byKey.keys where client.values[key] == nil && client.encrypted[key] == nil {
      consider(key)
    }
    if merged != serverStamps {
      result.choose(.bytes(merged.encoded()), forKey: stampsKey, encrypted: false)
    }
    result.mergeParent(conflict)
    return result.finish()
  }

  /// Stamps every key in `record`'s ``Record/changedKeys`` — written or removed — with one new timestamp from `clock`.
  /// Call it after each local edit, before the record is queued for upload.
  /// - Parameters:
  ///   - record: The edited record; its stamps field is rewritten (and so marked changed).
  ///   - clock: This device's clock.
  ///   - physicalTime: This device's physical clock; `Date()` unless given.
  /// - Throws: ``ConflictResolutionError/malformedFieldStamps(key:role:reason:)`` if the record's stamps cannot be read;
  ///   ``HybridLogicalClockError`` if the clock cannot tick.
  public func stamp(_ record: inout Record, with clock: inout HybridLogicalClock, at physicalTime: Date = Date()) throws
  {
    let keys = record.changedKeys.filter { $0 != stampsKey }
    guard !keys.isEmpty else { return }
    var stamps = try stamps(in: record, role: .client)
    let now = try clock.now(at: physicalTime)
    for key in keys { stamps.byKey[key] = now }
    record[stampsKey] = .bytes(stamps.encoded())
  }

  /// Moves `clock` past the latest stamp in a record received from elsewhere, so this device's next edits order after
  /// everything it has seen.
  /// - Parameters:
  ///   - record: A fetched record, or the result of a merge.
  ///   - clock: This device's clock.
  ///   - physicalTime: This device's physical clock; `Date()` unless given.
  /// - Throws: ``ConflictResolutionError/malformedFieldStamps(key:role:reason:)`` if the stamps cannot be read;
  ///   ``HybridLogicalClockError/remoteTooFarAhead(remote:physicalTime:maximumDrift:)`` if a stamp is further ahead
  ///   than the clock accepts (the clock is unchanged).
  public func observe(_ record: Record, with clock: inout HybridLogicalClock, at physicalTime: Date = Date()) throws {
    guard let latest = try stamps(in: record, role: .server).byKey.values.max() else { return }
    _ = try clock.receive(latest, at: physicalTime)
  }

  /// The per-key stamps a record carries; empty when it has no stamps field.
  /// - Parameter record: A record.
  /// - Returns: Each stamped key's timestamp; a stamped key without a value was removed at that time.
  /// - Throws: ``ConflictResolutionError/malformedFieldStamps(key:role:reason:)`` if the field is not `BYTES` in the
  ///   stamps encoding.
  public func stamps(in record: Record) throws -> [String: HybridTimestamp] {
    try stamps(in: record, role: .client).byKey
  }

  private func stamps(in record: Record, role: ConflictResolutionError.Role) throws(ConflictResolutionError)
    -> FieldStamps
  {
    guard let value = record.storage.values[stampsKey] else { return FieldStamps() }
    guard case .bytes(let data) = value else {
      throw .unexpectedFieldType(key: stampsKey, role: role, expected: .bytes, found: value.type)
    }
    do {
      return try FieldStamps(decoding: data)
    } catch {
      throw .malformedFieldStamps(key: stampsKey, role: role, reason: error.reason)
    }
  }

  /// Equal stamps: every device must pick the same side, so order the two versions of the key themselves — present
  /// beats absent; then the larger canonical encoding; then encrypted beats plain.
  private static func clientBreaksTie(_ key: String, client: Record.Storage, server: Record.Storage) -> Bool {
    let clientValue = client.values[key] ?? client.encrypted[key]
    let serverValue = server.values[key] ?? server.encrypted[key]
    guard let clientValue else { return false }
    guard let serverValue else { return true }
    let clientEncrypted = client.values[key] == nil
    let serverEncrypted = server.values[key] == nil
    if clientValue == serverValue { return clientEncrypted && !serverEncrypted }
    let c = EncryptedValueEnvelope.encode(clientValue)
    let s = EncryptedValueEnvelope.encode(serverValue)
    return c.lexicographicallyPrecedes(s) == false
  }
}

extension ConflictResolver where Self == HybridLogicalClockMerge {
  /// A per-key merge by hybrid-logical-clock stamps; see ``HybridLogicalClockMerge``.
  /// - Parameter stampsKey: The key of the field holding the stamps; `fieldStamps` unless given.
  public static func hybridLogicalClock(stampsKey: String = "fieldStamps") -> HybridLogicalClockMerge {
    HybridLogicalClockMerge(stampsKey: stampsKey)
  }
}
