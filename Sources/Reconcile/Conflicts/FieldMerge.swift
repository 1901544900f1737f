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
/// | changed | changed differently | the key's ``Policy`` decides |
///
/// "Changed" compares with the ancestor. A key the client does not carry is a removal only when it is listed in the
/// client's ``Record/changedKeys``; otherwise the client simply does not have it and the server's value stays.
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
/// - Complexity: O(*c* + *r*) dictionary operations for *c* client values and *r* client removals; keys only the server
///   has are never visited.
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
  }

  /// The policy for keys without an override.
  public var defaultPolicy: Policy {
    didSet { stampKeys = Self.stampKeys(defaultPolicy, overrides) }
  }
  /// Policies for particular keys.
  public var overrides: [String: Policy] {
    didSet { stampKeys = Self.stampKeys(defaultPolicy, overrides) }
  }
  /// The keys named by `.localClock` (`true`) and `.editCount` (`false`) policies.
  private var stampKeys: [String: Bool]

  /// Creates a field merge.
  /// - Parameters:
  ///   - defaultPolicy: The policy for keys without an override; `.server` unless given.
  ///   - overrides: Policies for particular keys.
  public init(_ defaultPolicy: Policy = .server, overrides: [String: Policy] = [:]) {
    self.defaultPolicy = defaultPolicy
    self.overrides = overrides
    self.stampKeys = Self.stampKeys(defaultPolicy, overrides)
  }

  /// Merges the client's changes onto the server record.
  /// - Parameter conflict: The conflict to resolve.
  /// - Returns: The server record with the client's one-sided changes and the policies' choices.
  /// - Throws: ``ConflictResolutionError`` if the versions are not one record, a stamp or counter has the wrong type,
  ///   or a `.listUnion` key holds something else; any error a `.custom` closure throws.
  public func resolve(_ conflict: Conflict) throws -> Record {
    try conflict.checkSameRecord()
    let ancestor = conflict.usefulAncestor
    var result = ResolvedRecord(server: conflict.server)
    try mergeValues(conflict, ancestor: ancestor, encrypted: false, into: &result)
    try mergeValues(conflict, ancestor: ancestor, encrypted: true, into: &result)
    mergeRemovals(conflict, ancestor: ancestor, into: &result)
    result.mergeParent(conflict)
    return result.finish()
  }

  private func mergeValues(
    _ conflict: Conflict, ancestor: Record?, encrypted: Bool, into result: inout ResolvedRecord
  ) throws {
    let client = encrypted ? conflict.client.storage.encrypted : conflict.client.storage.values
    let server = encrypted ? conflict.server.storage.encrypted : conflict.server.storage.values
    let base = ancestor.map { encrypted ? $0.storage.encrypted : $0.storage.values }
    for (key, clientValue) in client {
      let serverValue = server[key]
      if clientValue == serverValue { continue }
      let ancestorValue = base?[key]
      if base != nil {
        if clientValue == ancestorValue { continue }
        if serverValue == ancestorValue {
          result.choose(clientValue, forKey: key, encrypted: encrypted)
          continue
        }
      }
      guard let serverValue else {
        result.choose(clientValue, forKey: key, encrypted: encrypted)
        continue
      }
      let field = Field(
        key: key, client: clientValue, server: serverValue, ancestor: ancestorValue, encrypted: encrypted)
      if let chosen = try settle(field, in: conflict) {
        result.choose(chosen, forKey: key, encrypted: encrypted)
      } else {
        result.remove(key)
      }
    }
  }

  /// A removal wins only when the server still holds the ancestor's value.
  private func mergeRemovals(_ conflict: Conflict, ancestor: Record?, into result: inout ResolvedRecord) {
    guard let ancestor else { return }
    let client = conflict.client.storage
    let server = conflict.server.storage
    for key in client.changedKeys where client.values[key] == nil && client.encrypted[key] == nil {
      guard let serverValue = server.values[key] ?? server.encrypted[key] else { continue }
      if serverValue == (ancestor.storage.values[key] ?? ancestor.storage.encrypted[key]) { result.remove(key) }
    }
  }

  /// One key both sides changed to different values.
  private struct Field {
    let key: String
    let client: FieldValue
    let server: FieldValue
    let ancestor: FieldValue?
    let encrypted: Bool
  }

  /// The value for a true conflict; `nil` removes the key (only a `.custom` closure does that), and returning the
  /// server's value keeps it.
  private func settle(_ field: Field, in conflict: Conflict) throws -> FieldValue? {
    if let isClock = stampKeys[field.key] {
      let clientWins =
        isClock
        ? try StampFields.clientIsLater(
          Self.stamp(field.client, field.key, .client), than: Self.stamp(field.server, field.key, .server))
        : try Self.count(field.client, field.key, .client) > Self.count(field.server, field.key, .server)
      return clientWins ? field.client : field.server
    }
    switch overrides[field.key] ?? defaultPolicy {
    case .server:
      return field.server
    case .client:
      return field.client
    case .localClock(let stampKey):
      let client = try StampFields.timestamp(stampKey, in: conflict.client, role: .client)
      let server = try StampFields.timestamp(stampKey, in: conflict.server, role: .server)
      return StampFields.clientIsLater(client, than: server) ? field.client : field.server
    case .editCount(let counterKey):
      let client = try StampFields.counter(counterKey, in: conflict.client, role: .client) ?? 0
      let server = try StampFields.counter(counterKey, in: conflict.server, role: .server) ?? 0
      return client > server ? field.client : field.server
    case .listUnion:
      guard case .list(let server) = field.server else {
        throw ConflictResolutionError.notAList(key: field.key, role: .server, found: field.server.type)
      }
      guard case .list(let client) = field.client else {
        throw ConflictResolutionError.notAList(key: field.key, role: .client, found: field.client.type)
      }
      return .list(ListUnion.merge(ancestor: field.ancestor?.listValue, server: server, client: client))
    case .custom(let decide):
      return try decide(
        FieldConflict(
          key: field.key, client: field.client, ancestor: field.ancestor, server: field.server,
          isEncrypted: field.encrypted, conflict: conflict))
    }
  }

  private static func stamp(
    _ value: FieldValue, _ key: String, _ role: ConflictResolutionError.Role
  ) throws(ConflictResolutionError) -> Date {
    guard case .timestamp(let date) = value else {
      throw .unexpectedFieldType(key: key, role: role, expected: .timestamp, found: value.type)
    }
    return date
  }

  private static func count(
    _ value: FieldValue, _ key: String, _ role: ConflictResolutionError.Role
  ) throws(ConflictResolutionError) -> Int64 {
    guard case .int64(let count) = value else {
      throw .unexpectedFieldType(key: key, role: role, expected: .int64, found: value.type)
    }
    return count
  }

  private static func stampKeys(_ defaultPolicy: Policy, _ overrides: [String: Policy]) -> [String: Bool] {
    var keys: [String: Bool] = [:]
    for policy in [defaultPolicy] + Array(overrides.values) {
      switch policy {
      case .localClock(let key): keys[key] = true
      case .editCount(let key): keys[key] = false
      default: break
      }
    }
    return keys
  }
}

extension ConflictResolver where Self == FieldMerge {
  /// A three-way merge per key; see ``FieldMerge``.
  /// - Parameters:
  ///   - defaultPolicy: The policy for keys without an override; `.server` unless given.
  ///   - overrides: Policies for particular keys.
  public static func fieldMerge(_ defaultPolicy: FieldMerge.Policy = .server, overrides: [String: FieldMerge.Policy] = [:])
    -> FieldMerge
  {
    FieldMerge(defaultPolicy, overrides: overrides)
  }
}
