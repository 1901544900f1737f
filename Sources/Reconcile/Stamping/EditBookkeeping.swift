public import Foundation

/// Fields an app writes on every local edit so its resolver has what it needs: an edit counter for
/// ``EditCountWins``, a device timestamp for ``LocalClockLastWriterWins``, per-field stamps for
/// ``HybridLogicalClockMerge``.
///
/// Each built-in resolver stamps its own fields (see ``EditStamping``); this names them directly, for code that
/// configures bookkeeping apart from a resolver, such as a simulated device.
///
/// ```swift
/// let bookkeeping = EditBookkeeping(editCountKey: "editCount", modifiedAtKey: "editedAt")
/// try bookkeeping.stampEdit(&note, clock: &deviceClock)     // editCount + 1, editedAt = now
/// ```
public struct EditBookkeeping: EditStamping, Hashable {
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

  /// The keys the bookkeeping writes; the same as ``keys``.
  public var stampedKeys: [String] { keys }

  /// Increments the counter, sets the timestamp to `time`, then stamps every changed key (the two above included) on
  /// `clock`. On error the record is unchanged.
  /// - Parameters:
  ///   - record: The edited record.
  ///   - clock: This device's hybrid logical clock; ticked only when there is a stamps field.
  ///   - time: This device's physical clock.
  /// - Throws: ``EditStampingError``.
  public func stampEdit(_ record: inout Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    try EditStamps.stamp(
      counter: editCountKey, timestamp: modifiedAtKey, fieldStamps: fieldStampsKey, in: &record, clock: &clock, at: time
    )
  }

  /// Moves `clock` past the field stamps of a received record, when there is a stamps field.
  /// - Parameters:
  ///   - record: A fetched record.
  ///   - clock: This device's hybrid logical clock.
  ///   - time: This device's physical clock.
  /// - Throws: ``EditStampingError``.
  public func observeStamps(of record: Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    if let key = fieldStampsKey { try EditStamps.observeFields(key, of: record, clock: &clock, at: time) }
  }
}
