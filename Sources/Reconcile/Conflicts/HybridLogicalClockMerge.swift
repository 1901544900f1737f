package import Foundation

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
/// slow can still lose an edit made within its skew. Stamps are written by ``stampEdit(_:clock:at:)`` (its
/// ``EditStamping`` conformance) and read by ``stamps(in:)``; their encoding is documented in the "Choosing a resolver"
/// article.
///
/// ```swift
/// let merge = HybridLogicalClockMerge()
/// note["title"] = "Groceries"
/// try merge.stampEdit(&note, clock: &clock)             // after each local edit, before saving
/// try merge.observeStamps(of: fetched, clock: &clock)    // after each fetch
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
    return FieldSlots.reading(conflict.client) { client in
      FieldSlots.reading(conflict.server) { server in
        merge(conflict, client: client, server: server, clientStamps: clientStamps, serverStamps: serverStamps)
      }
    }
  }

  /// The merge itself, given both versions' values and stamps.
  private func merge(
    _ conflict: Conflict, client: FieldSlots, server: FieldSlots, clientStamps: FieldStamps, serverStamps: FieldStamps
  ) -> Record {
    var result = ResolvedRecord(server: conflict.server, expectedChanges: clientStamps.entries.count + 1)
    var merged: [FieldStamps.Entry] = []
    merged.reserveCapacity(max(clientStamps.entries.count, serverStamps.entries.count))
    var stampsChanged = false

    func takeClient(_ key: String) {
      guard key != stampsKey else { return }
      let clientPosition = client.position(of: key)
      let serverPosition = server.position(of: key, guess: clientPosition)
      if client.holdsSame(at: clientPosition, as: server, at: serverPosition) { return }
      guard let clientPosition else { return result.remove(key) }
      let slot = client.slot(at: clientPosition)
      result.choose(slot.value, encrypted: slot.encrypted, forKey: key, serverPosition: serverPosition)
    }
    // Equal stamps: usually the same value on both sides (compared in place), else the order below decides.
    func clientBreaksTie(_ key: String) -> Bool {
      let clientPosition = client.position(of: key)
      let serverPosition = server.position(of: key, guess: clientPosition)
      if client.holdsSame(at: clientPosition, as: server, at: serverPosition) { return false }
      return Self.clientBreaksTie(clientPosition.map(client.slot(at:)), serverPosition.map(server.slot(at:)))
    }
    // Both lists are sorted by key: walk them together.
    let (cs, ss) = (clientStamps.entries, serverStamps.entries)
    var i = 0
    var j = 0
    while i < cs.count || j < ss.count {
      if j == ss.count || (i < cs.count && cs[i].key < ss[j].key) {
        merged.append(cs[i])
        stampsChanged = true
        takeClient(cs[i].key)
        i += 1
      } else if i == cs.count || ss[j].key < cs[i].key {
        merged.append(ss[j])
        j += 1
      } else {
        if cs[i].stamp > ss[j].stamp {
          merged.append(cs[i])
          stampsChanged = true
          takeClient(cs[i].key)
        } else {
          merged.append(ss[j])
          if cs[i].stamp == ss[j].stamp, clientBreaksTie(cs[i].key) {
            takeClient(cs[i].key)
          }
        }
        i += 1
        j += 1
      }
    }
    // Keys the client holds without a stamp: a stamped server key is newer; an unstamped one ties.
    func considerUnstamped(_ key: String) {
      guard key != stampsKey, !clientStamps.contains(key), !serverStamps.contains(key) else { return }
      if clientBreaksTie(key) { takeClient(key) }
    }
    client.forEachKey { key, _ in considerUnstamped(key) }
    if stampsChanged {
      result.choose(.bytes(FieldStamps(sorted: merged).encoded()), forKey: stampsKey, encrypted: false)
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
  package func stamp(_ record: inout Record, with clock: inout HybridLogicalClock, at physicalTime: Date = Date())
    throws
  {
    let keys = record.changedKeys.filter { $0 != stampsKey }
    guard !keys.isEmpty else { return }
    var stamps = try stamps(in: record, role: .client).byKey
    let now = try clock.now(at: physicalTime)
    for key in keys { stamps[key] = now }
    record[stampsKey] = .bytes(FieldStamps(stamps).encoded())
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
  package func observe(_ record: Record, with clock: inout HybridLogicalClock, at physicalTime: Date = Date()) throws {
    guard let latest = try stamps(in: record, role: .server).entries.map(\.stamp).max() else { return }
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
  private static func clientBreaksTie(_ client: FieldSlot?, _ server: FieldSlot?) -> Bool {
    guard let client else { return false }
    guard let server else { return true }
    if client.value == server.value { return client.encrypted && !server.encrypted }
    let c = EncryptedValueEnvelope.encode(client.value)
    let s = EncryptedValueEnvelope.encode(server.value)
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
