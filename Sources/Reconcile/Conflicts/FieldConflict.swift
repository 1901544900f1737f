/// One key that both sides of a conflict changed to different values, handed to a ``FieldMerge/Policy/custom(_:)``
/// policy.
public struct FieldConflict: Sendable {
  /// The key in conflict.
  public var key: String
  /// The client's value.
  public var client: FieldValue
  /// The ancestor's value, or `nil` when the ancestor did not have the key or there is no ancestor.
  public var ancestor: FieldValue?
  /// The server's value.
  public var server: FieldValue
  /// Whether the key is one of the record's encrypted values.
  public var isEncrypted: Bool
  /// The whole conflict, for decisions that look at other fields.
  public var conflict: Conflict

  /// Creates a field conflict; ``FieldMerge`` makes these, and tests of custom policies may too.
  /// - Parameters:
  ///   - key: The key in conflict.
  ///   - client: The client's value.
  ///   - ancestor: The ancestor's value, if any.
  ///   - server: The server's value.
  ///   - isEncrypted: Whether the key is an encrypted value.
  ///   - conflict: The whole conflict.
  package init(
    key: String, client: FieldValue, ancestor: FieldValue?, server: FieldValue, isEncrypted: Bool, conflict: Conflict
  ) {
    self.key = key
    self.client = client
    self.ancestor = ancestor
    self.server = server
    self.isEncrypted = isEncrypted
    self.conflict = conflict
  }
}
