/// Fields the device writes on every local edit so its resolver has what it needs: an edit counter for
/// `EditCountWins`, a device timestamp for `LocalClockLastWriterWins`, per-field stamps for
/// `HybridLogicalClockMerge`.
public struct EditBookkeeping: Sendable, Hashable {
  /// An `INT64` field incremented by each edit.
  public var editCountKey: String?
  /// A `TIMESTAMP` field set to the device's (possibly skewed) clock by each edit.
  public var modifiedAtKey: String?
  /// A `BYTES` field of per-field hybrid-logical-clock stamps, restamped by each edit.
  public var fieldStampsKey: String?

  /// Creates bookkeeping.
  /// - Parameters:
  ///   - editCountKey: The counter field, if any.
  ///   - modifiedAtKey: The timestamp field, if any.
  ///   - fieldStampsKey: The stamps field, if any.
  public init(editCountKey: String? = nil, modifiedAtKey: String? = nil, fieldStampsKey: String? = nil) {
    self.editCountKey = editCountKey
    self.modifiedAtKey = modifiedAtKey
    self.fieldStampsKey = fieldStampsKey
  }

  /// No bookkeeping fields.
  public static let none = EditBookkeeping()

  /// The keys the bookkeeping writes.
  public var keys: [String] { [editCountKey, modifiedAtKey, fieldStampsKey].compactMap { $0 } }
}
