import Foundation

/// A three-way merge per key against the ancestor: every one-sided change is kept, and a policy settles a key both
/// sides changed differently.
///
/// ## The rules, for each key
/// | Client | Server | Result |
/// |---|---|---|
/// | unchanged since the ancestor | anything | the server's value |
/// | changed | unchanged | the client's value |
/// | changed | changed to the same value | that value |
/// | changed to a value | removed, or never had the key | the client's value (a change beats a removal) |
/// | removed (in `changedKeys`, no value) | unchanged | removed |
/// | removed | changed | the server's value (a change beats a removal) |
/// | changed | changed differently | the key's ``Policy`` decides: a side, or a merge of both |
///
/// The client changed a key when the key is in its ``Record/changedKeys`` — what the user edited, and what a CloudKit
/// save would send — and its value differs from the ancestor's; a changed key without a value is a removal. A key the
/// client holds but did not mark changed keeps the server's value, as it would in a CloudKit save. The server changed a
/// key when its value differs from the ancestor's.
///
/// **No ancestor** (a record the device created, or an ancestor holding system fields only): every key whose client and
/// server values differ is a conflict for the policy, and a removal never beats a value, since nothing shows the server
/// did not set that value on purpose.
///
/// Plain and encrypted values merge the same way, each in its own namespace; a key the client moved from one to the
/// other follows the client. Fields named by `.localClock(key:)` or `.editCount(key:)` policies are stamps, not data:
/// when both sides changed one, the later timestamp or the larger count is kept, whatever its own policy.
///
/// ```swift
/// let merge = FieldMerge(.editCount(key: "editCount"), overrides: ["tags": .listUnion, "title": .client])
/// let resolved = try merge.resolve(conflict)
/// ```
/// - Complexity: O(*k*) dictionary operations for the *k* keys the client changed, whatever the record's size; without
///   an ancestor, O(*n*) for the client's *n* values.
public struct FieldMerge: ConflictResolver {
  /// How a key that both sides changed to different values is settled.
  public enum Policy: Sendable {
    /// Keep the server's value.
    case server
    /// Keep the client's value.
    case client
    /// Keep the value from the side whose device-written `TIMESTAMP` field `key` is later; ties and missing stamps
    /// keep the server's.
    case localClock(key: String)
    /// Keep the value from the side whose `INT64` edit counter `key` is higher; ties keep the server's.
    case editCount(key: String)
    /// Merge two lists as sets: keep every element either side has, except one that a side removed since the
    /// ancestor. The result lists the server's elements in the server's order, then the client's additions in the
    /// client's order, each element once. Both values must be lists.
    case listUnion
    /// Ask a closure; returning `nil` removes the key.
    case custom(@Sendable (FieldConflict) throws -> FieldValue?)
    /// Merge text three ways, as `git merge-file` merges files: split into pieces at `granularity`, every edit of one
    /// side that does not overlap an edit of the other is kept, and `overlap` settles the stretches both changed.
    /// Works on `STRING` values and on text stored as `BYTES` (the result keeps the server's kind), plain or
    /// encrypted; bytes that are not UTF-8 merge by lines and words as they are (at `.character` granularity, by
    /// words). A text's line ending (`\r\n` or `\n`) is kept, and what the merge writes itself uses it.
    /// A missing ancestor counts as empty text. Keeps: every non-overlapping insertion and deletion of both sides.
    /// Loses: in an overlap, the losing side's version of that stretch (nothing with `.both` or `.markers`).
    case text(TextGranularity = .line, overlap: TextOverlap = .server)
    /// Merge a counter: the server's value plus the client's increment since the ancestor,
    /// `server + (client − ancestor)`, a missing ancestor or server value counting as zero (a client that removed the
    /// key keeps the server's); `INT64` or `DOUBLE`, the same type on every side. Two sides that reached the same number both incremented, so
    /// both count (unlike other policies, where equal values agree). Keeps every increment and decrement of both sides;
    /// loses nothing but an `INT64` sum that does not fit, which is an error. A device that cannot tell whether its
    /// save landed (its answer lost) counts its increment twice by merging again, or loses it by not: counters need
    /// answered saves.
    case counter
    /// Merge an ordered list (a to-do order, a playlist) three ways: both sides' insertions and removals are kept in
    /// place, and each side's moves where the other did not move the same element (then the server's place wins);
    /// where both sides inserted at one place, the server's elements come first. An element either side removed is
    /// removed; a side that removed the key removed every element it held. Loses: the client's place for an element
    /// both moved. Both values must be lists.
    case orderedList
    /// Merge lists as sets: an element both sides hold stays, one a side added is added, one a side removed since the
    /// ancestor is removed; `rule` decides an element only one side holds when there is no ancestor to tell an add
    /// from a remove; a side that removed the key removed every element it held. Order: the server's elements in its
    /// order, then the client's additions, each once. Both values must be lists. (`.set(.addWins)` is ``listUnion``.)
    case set(SetRule)
    /// Keep the server's value and hand the client's back: ``FieldMerge/resolveKeepingAside(_:)`` returns it beside the
    /// record, and with `into`, the record also carries it in that key (the latest losing value; read it and clear
    /// it), so nothing is dropped silently.
    case keepBoth(into: String? = nil)
  }

  /// A value a ``Policy/keepBoth(into:)`` key did not keep: the client's, set aside for the app.
  public struct KeptAside: Sendable, Hashable {
    /// The key both sides changed.
    public var key: String
    /// The client's value, which the merge did not keep.
    public var value: FieldValue
    /// Whether the key is one of the record's encrypted values.
    public var isEncrypted: Bool

    /// A value set aside; merges make these, and tests of an app's handling may too.
    /// - Parameters:
    ///   - key: The key both sides changed.
    ///   - value: The client's value.
    ///   - isEncrypted: Whether the key is an encrypted value.
    package init(key: String, value: FieldValue, isEncrypted: Bool) {
      self.key = key
      self.value = value
      self.isEncrypted = isEncrypted
    }
  }

  /// A merge's record and the values it set aside.
  public struct Resolution: Sendable {
    /// The record to save, as ``resolve(_:)`` returns it.
    public var record: Record
    /// The client's values that ``Policy/keepBoth(into:)`` keys did not keep, in key order.
    public var keptAside: [KeptAside]
  }

  /// The policy for keys without an override.
  public var defaultPolicy: Policy {
    didSet { stampKeys = Self.stampKeys(defaultPolicy, overrides) }
  }
  /// Policies for particular keys.
  public var overrides: [String: Policy] {
    didSet {
      stampKeys = Self.stampKeys(defaultPolicy, overrides)
      fewOverrides = Self.fewOverrides(overrides)
    }
  }
  /// `overrides` as a list when there are few: comparing a key with a handful of short strings costs a tenth of
  /// hashing it. `nil` when there are more.
  private var fewOverrides: [(key: String, policy: Policy)]?
  /// The keys named by `.localClock` (`isClock` true) and `.editCount` policies; a handful at most, so a linear
  /// scan of short strings beats hashing the key. Edit stamping writes the same keys.
  private(set) var stampKeys: [(key: String, isClock: Bool)]

  /// Creates a field merge.
  /// - Parameters:
  ///   - defaultPolicy: The policy for keys without an override; `.server` unless given.
  ///   - overrides: Policies for particular keys.
  public init(_ defaultPolicy: Policy = .server, overrides: [String: Policy] = [:]) {
    self.defaultPolicy = defaultPolicy
    self.overrides = overrides
    self.stampKeys = Self.stampKeys(defaultPolicy, overrides)
    self.fewOverrides = Self.fewOverrides(overrides)
  }

  /// Merges the client's changes onto the server record.
  /// - Parameter conflict: The conflict to resolve.
  /// - Returns: The server record with the client's one-sided changes and the policies' choices.
  /// - Throws: ``ConflictResolutionError`` if the versions are not one record, a stamp or counter has the wrong type,
  ///   a list policy's key holds something else, a `.text` key holds no text, or a `.counter` overflows; any error a
  ///   `.custom` closure throws.
  public func resolve(_ conflict: Conflict) throws -> Record { try resolveKeepingAside(conflict).record }

  /// Merges the client's changes onto the server record, as ``resolve(_:)`` does, and returns the client's values that
  /// ``Policy/keepBoth(into:)`` keys did not keep.
  /// - Parameter conflict: The conflict to resolve.
  /// - Returns: The record to save and the values set aside.
  /// - Throws: What ``resolve(_:)`` throws.
  public func resolveKeepingAside(_ conflict: Conflict) throws -> Resolution {
    try conflict.checkSameRecord()
    return try FieldSlots.reading(conflict.client) { client in
      try FieldSlots.reading(conflict.server) { server in
        guard let ancestor = conflict.usefulAncestor else {
          return try resolve(conflict, Versions(client: client, server: server, ancestor: nil))
        }
        return try FieldSlots.reading(ancestor) { ancestor in
          try resolve(conflict, Versions(client: client, server: server, ancestor: ancestor))
        }
      }
    }
  }

  private func resolve(_ conflict: Conflict, _ versions: Versions) throws -> Resolution {
    var keptAside: [KeptAside] = []
    if let ancestor = versions.ancestor {
      // With an ancestor, only keys the client changed can carry a client change: the rest keep the server's value.
      let changed = conflict.client.storage.changedKeys
      var result = ResolvedRecord(server: conflict.server, changesAmong: changed)
      for key in changed {
        let client = versions.client.position(of: key)
        try merge(
          key, client: client, server: versions.server.position(of: key, guess: client),
          ancestor: ancestor.position(of: key, guess: client), versions, conflict, &result, &keptAside)
      }
      return finish(&result, conflict, keptAside)
    }
    var result = ResolvedRecord(server: conflict.server, expectedChanges: versions.client.count)
    try versions.client.forEachKey { key, position in
      try merge(
        key, client: position, server: versions.server.position(of: key, guess: position), ancestor: nil, versions,
        conflict, &result, &keptAside)
    }
    return finish(&result, conflict, keptAside)
  }

  private func finish(_ result: inout ResolvedRecord, _ conflict: Conflict, _ keptAside: [KeptAside]) -> Resolution {
    result.mergeParent(conflict)
    guard !keptAside.isEmpty else { return Resolution(record: result.finish(), keptAside: []) }
    var record = result.finish()
    let sorted = keptAside.sorted { $0.key < $1.key }
    for aside in sorted {
      guard case .keepBoth(let into?) = policy(for: aside.key) else { continue }
      // Written as a user's edit, so the key joins the changed keys, unless the server holds that value already.
      if aside.isEncrypted {
        guard conflict.server.encryptedValues[into] != aside.value else { continue }
        record.encryptedValues[into] = aside.value
      } else {
        guard conflict.server[into] != aside.value else { continue }
        record[into] = aside.value
      }
    }
    return Resolution(record: record, keptAside: sorted)
  }

  /// Whether two sides holding one value of `key` both count (a counter's two increments to one number), where under
  /// every other policy equal values agree.
  package func equalValuesBothCount(_ key: String) -> Bool {
    if case .counter = policy(for: key) { return true }
    return false
  }

  /// The policy that settles `key`.
  private func policy(for key: String) -> Policy {
    guard let fewOverrides else { return overrides[key] ?? defaultPolicy }
    for entry in fewOverrides where entry.key == key { return entry.policy }
    return defaultPolicy
  }

  private static func fewOverrides(_ overrides: [String: Policy]) -> [(key: String, policy: Policy)]? {
    overrides.count <= 8 ? overrides.map { ($0.key, $0.value) } : nil
  }

  /// The three versions' values, read in place.
  private struct Versions {
    let client: FieldSlots
    let server: FieldSlots
    /// `nil` when the conflict has no useful ancestor.
    let ancestor: FieldSlots?
  }

  /// The table above, for one key, given where each version holds it. Values are compared where they are stored; only
  /// a value the result takes is copied.
  private func merge(
    _ key: String, client: FieldPosition?, server: FieldPosition?, ancestor: FieldPosition?, _ versions: Versions,
    _ conflict: Conflict, _ result: inout ResolvedRecord, _ keptAside: inout [KeptAside]
  ) throws {
    // The server's side first: where it did not change the key (the common case), one more comparison settles it.
    if let base = versions.ancestor, versions.server.holdsSame(at: server, as: base, at: ancestor) {
      if versions.client.holdsSame(at: client, as: versions.server, at: server) { return result.skip(key) }
      // Only the client changed the key: a new value, or a removal.
      guard let client else { return result.remove(key) }
      let slot = versions.client.slot(at: client)
      return result.choose(slot.value, encrypted: slot.encrypted, forKey: key, serverPosition: server)
    }
    // Looked up once: keys both sides changed are few, but each lookup hashes the key.
    let policy = policy(for: key)
    // Both sides holding one value agree, except on a counter: two increments that reached one number both count.
    if versions.client.holdsSame(at: client, as: versions.server, at: server), !policy.isCounter {
      return result.skip(key)
    }
    if let base = versions.ancestor, versions.client.holdsSame(at: client, as: base, at: ancestor) {
      return result.skip(key)
    }
    // Both sides changed the key, or there is no ancestor to tell: a value beats a removal, then the policy decides —
    // except for a list merged by its elements, where removing the key removed every element that side held.
    guard let client else {
      if let server, let ancestor, let base = versions.ancestor {
        let slot = versions.server.slot(at: server)
        if let serverList = slot.value.listValue,
          let merged = mergedAsLists(policy, ancestor: base.slot(at: ancestor).value, server: serverList, client: [])
        {
          if merged == serverList { return result.skip(key) }
          if merged.isEmpty { return result.remove(key) }
          return result.choose(.list(merged), encrypted: slot.encrypted, forKey: key, serverPosition: server)
        }
      }
      return result.skip(key)
    }
    guard let server else {
      let slot = versions.client.slot(at: client)
      if let ancestor, let base = versions.ancestor, let clientList = slot.value.listValue,
        let merged = mergedAsLists(policy, ancestor: base.slot(at: ancestor).value, server: [], client: clientList)
      {
        if merged.isEmpty { return result.skip(key) }
        return result.choose(.list(merged), encrypted: slot.encrypted, forKey: key, serverPosition: nil)
      }
      guard policy.isCounter, let ancestor, let base = versions.ancestor else {
        return result.choose(slot.value, encrypted: slot.encrypted, forKey: key, serverPosition: nil)
      }
      // A counter the server removed counts from zero: the client's increment is all it holds.
      let zero: FieldValue = if case .double = slot.value { .double(0) } else { .int64(0) }
      let merged = try CounterMerge.merge(
        key: key, ancestor: base.slot(at: ancestor).value, server: zero, client: slot.value)
      return result.choose(merged, encrypted: slot.encrypted, forKey: key, serverPosition: nil)
    }
    switch try settle(
      key, policy, client: client, server: server, ancestor: ancestor, versions, in: conflict, &keptAside)
    {
    case .keepServer:
      result.skip(key)
    case .takeClient:
      let slot = versions.client.slot(at: client)
      result.choose(slot.value, encrypted: slot.encrypted, forKey: key, serverPosition: server)
    case .take(nil):
      result.remove(key)
    case .take(let chosen?):
      guard chosen != versions.server.slot(at: server) else { return result.skip(key) }
      result.choose(chosen.value, encrypted: chosen.encrypted, forKey: key, serverPosition: server)
    }
  }

  /// What a policy decides for a key both sides changed: one side's value as it is, or a value of its own.
  private enum Settlement {
    case keepServer
    case takeClient
    /// A value the policy made (a list union, a custom closure's answer); `nil` removes the key.
    case take(FieldSlot?)
  }

  /// The decision for a key both sides changed to different values, given where each version holds it. Values are read
  /// only where the policy looks at them: most policies decide on stamps or on a side alone.
  private func settle(
    _ key: String, _ policy: Policy, client clientPosition: FieldPosition, server serverPosition: FieldPosition,
    ancestor ancestorPosition: FieldPosition?, _ versions: Versions, in conflict: Conflict,
    _ keptAside: inout [KeptAside]
  ) throws -> Settlement {
    var client: FieldSlot { versions.client.slot(at: clientPosition) }
    var server: FieldSlot { versions.server.slot(at: serverPosition) }
    var ancestor: FieldSlot? {
      ancestorPosition.flatMap { position in versions.ancestor.map { $0.slot(at: position) } }
    }
    if let isClock = stampKeys.first(where: { $0.key == key })?.isClock {
      let clientWins =
        isClock
        ? try StampFields.clientIsLater(
          StampFields.timestamp(client.value, key: key, role: .client),
          than: StampFields.timestamp(server.value, key: key, role: .server))
        : try StampFields.counter(client.value, key: key, role: .client)
          > StampFields.counter(server.value, key: key, role: .server)
      return clientWins ? .takeClient : .keepServer
    }
    switch policy {
    case .server:
      return .keepServer
    case .client:
      return .takeClient
    case .localClock(let stampKey):
      let clientStamp = try StampFields.timestamp(stampKey, in: conflict.client, role: .client)
      let serverStamp = try StampFields.timestamp(stampKey, in: conflict.server, role: .server)
      return StampFields.clientIsLater(clientStamp, than: serverStamp) ? .takeClient : .keepServer
    case .editCount(let counterKey):
      let clientCount = try StampFields.counter(counterKey, in: conflict.client, role: .client) ?? 0
      let serverCount = try StampFields.counter(counterKey, in: conflict.server, role: .server) ?? 0
      return clientCount > serverCount ? .takeClient : .keepServer
    case .listUnion:
      guard case .list(let serverList) = server.value else {
        throw ConflictResolutionError.notAList(key: key, role: .server, found: server.value.type)
      }
      guard case .list(let clientList) = client.value else {
        throw ConflictResolutionError.notAList(key: key, role: .client, found: client.value.type)
      }
      let merged = ListUnion.merge(ancestor: ancestor?.value.listValue, server: serverList, client: clientList)
      return .take(FieldSlot(value: .list(merged), encrypted: clientPosition.encrypted))
    case .custom(let decide):
      let field = FieldConflict(
        key: key, client: client.value, ancestor: ancestor?.value, server: server.value,
        isEncrypted: clientPosition.encrypted, conflict: conflict)
      return .take(try decide(field).map { FieldSlot(value: $0, encrypted: clientPosition.encrypted) })
    case .text(let granularity, let overlap):
      let merged = try Self.mergeText(
        key, client: client.value, ancestor: ancestor?.value, server: server.value, granularity, overlap,
        conflict: conflict)
      return .take(FieldSlot(value: merged, encrypted: clientPosition.encrypted))
    case .counter:
      let merged = try CounterMerge.merge(
        key: key, ancestor: ancestor?.value, server: server.value, client: client.value)
      return .take(FieldSlot(value: merged, encrypted: clientPosition.encrypted))
    case .orderedList, .set:
      let (serverList, clientList) = try Self.lists(key, server: server.value, client: client.value)
      let merged =
        mergedAsLists(policy, ancestor: ancestor?.value, server: serverList, client: clientList) ?? serverList
      return .take(FieldSlot(value: .list(merged), encrypted: clientPosition.encrypted))
    case .keepBoth:
      keptAside.append(KeptAside(key: key, value: client.value, isEncrypted: clientPosition.encrypted))
      return .keepServer
    }
  }

  /// The merge of a key's lists by its `policy`, for a list merged by its elements (``Policy/orderedList``,
  /// ``Policy/set(_:)``); `nil` for any other policy. A missing ancestor is an empty list to the ordered merge, and
  /// leaves the set merge's rule to decide.
  private func mergedAsLists(_ policy: Policy, ancestor: FieldValue?, server: [FieldValue], client: [FieldValue])
    -> [FieldValue]?
  {
    switch policy {
    case .orderedList:
      return OrderedListMerge.merge(ancestor: ancestor?.listValue ?? [], server: server, client: client)
    case .set(let rule):
      return SetMerge.merge(ancestor: ancestor?.listValue, server: server, client: client, rule: rule)
    default:
      return nil
    }
  }

  /// Both sides' lists.
  /// - Throws: ``ConflictResolutionError/notAList(key:role:found:)`` naming the side that holds something else.
  private static func lists(_ key: String, server: FieldValue, client: FieldValue) throws(ConflictResolutionError)
    -> (server: [FieldValue], client: [FieldValue])
  {
    guard case .list(let serverList) = server else {
      throw .notAList(key: key, role: .server, found: server.type)
    }
    guard case .list(let clientList) = client else {
      throw .notAList(key: key, role: .client, found: client.type)
    }
    return (serverList, clientList)
  }

  /// The text merge of one key: strings, or bytes (merged by lines and words whatever their encoding, and by
  /// characters when all are UTF-8); the result is of the server's kind.
  private static func mergeText(
    _ key: String, client: FieldValue, ancestor: FieldValue?, server: FieldValue,
    _ granularity: TextGranularity, _ overlap: TextOverlap, conflict: Conflict
  ) throws -> FieldValue {
    let asBytes: Bool
    switch server {
    case .string: asBytes = false
    case .bytes: asBytes = true
    default: throw ConflictResolutionError.notText(key: key, role: .server, found: server.type)
    }
    var isUTF8 = true
    func text(_ value: FieldValue, _ role: ConflictResolutionError.Role) throws(ConflictResolutionError)
      -> TextMerge.Text
    {
      switch (value, asBytes) {
      case (.string(let text), false): return .string(text)
      case (.bytes(let data), true):
        if isUTF8 && granularity == .character { isUTF8 = String(validating: data, as: UTF8.self) != nil }
        return .bytes(data)
      default: throw .notText(key: key, role: role, found: value.type)
      }
    }
    var overlaps = 0
    let merged = try TextMerge.merge(
      ancestor: try ancestor.map { (value) throws(ConflictResolutionError) in try text(value, .ancestor) }
        ?? .string(""),
      client: try text(client, .client), server: try text(server, .server), isUTF8: isUTF8,
      granularity: granularity, overlap: overlap, overlaps: &overlaps
    ) {
      switch overlap {
      case .localClock(let stampKey):
        return StampFields.clientIsLater(
          try StampFields.timestamp(stampKey, in: conflict.client, role: .client),
          than: try StampFields.timestamp(stampKey, in: conflict.server, role: .server))
      case .editCount(let counterKey):
        return try StampFields.counter(counterKey, in: conflict.client, role: .client) ?? 0
          > StampFields.counter(counterKey, in: conflict.server, role: .server) ?? 0
      case .server, .client, .both, .markers: return false
      }
    }
    MergeNotes.noteText(key, overlaps: overlaps, settledBy: overlap)
    return asBytes ? .bytes(Data(merged)) : .string(String(decoding: merged, as: UTF8.self))
  }

  private static func stampKeys(_ defaultPolicy: Policy, _ overrides: [String: Policy]) -> [(
    key: String, isClock: Bool
  )] {
    var keys: [(key: String, isClock: Bool)] = []
    for policy in [defaultPolicy] + overrides.sorted(by: { $0.key < $1.key }).map(\.value) {
      switch policy {
      case .localClock(let key) where !keys.contains(where: { $0.key == key }),
        .text(_, .localClock(let key)) where !keys.contains(where: { $0.key == key }):
        keys.append((key, true))
      case .editCount(let key) where !keys.contains(where: { $0.key == key }),
        .text(_, .editCount(let key)) where !keys.contains(where: { $0.key == key }):
        keys.append((key, false))
      default: break
      }
    }
    return keys
  }
}

extension FieldMerge.Policy {
  /// Whether the key is merged as a counter, and so is not settled when both sides reached the same value.
  fileprivate var isCounter: Bool {
    if case .counter = self { return true }
    return false
  }
}

extension ConflictResolver where Self == FieldMerge {
  /// A three-way merge per key; see ``FieldMerge``.
  /// - Parameters:
  ///   - defaultPolicy: The policy for keys without an override; `.server` unless given.
  ///   - overrides: Policies for particular keys.
  public static func fieldMerge(
    _ defaultPolicy: FieldMerge.Policy = .server, overrides: [String: FieldMerge.Policy] = [:]
  )
    -> FieldMerge
  {
    FieldMerge(defaultPolicy, overrides: overrides)
  }
}
