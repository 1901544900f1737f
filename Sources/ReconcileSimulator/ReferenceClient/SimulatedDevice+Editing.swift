public import Foundation
public import Reconcile

// The user's side of the reference device: each action is the store's (``LocalStore``); the device then takes what the
// store left for the session.
extension SimulatedDevice {
  /// The app creates a record. It is queued to save; the resolver's bookkeeping fields and the schema's version field
  /// are written.
  /// - Parameters:
  ///   - record: The new record, without a change tag.
  ///   - now: True (virtual) time; the device's clock reads it with its offset.
  /// - Throws: ``DeviceError/recordExists(_:)``, ``DeviceError/invalidRecord(_:)``, ``DeviceError/schema(_:)`` or
  ///   ``DeviceError/bookkeeping(_:_:)``; nothing is stored then.
  public mutating func create(_ record: Record, at now: Date) throws(DeviceError) {
    defer { absorbStoreNotices() }
    try store.create(record, at: now)
  }

  /// The app edits a record: `changes` sets (or, with `nil`, removes) plain values. The record is queued to save.
  /// - Parameters:
  ///   - id: The record.
  ///   - changes: New values by key; `nil` removes a key.
  ///   - now: True (virtual) time.
  /// - Throws: ``DeviceError/recordNotFound(_:)``, ``DeviceError/recordDamaged(_:)`` (the stored copy was corrupt; it
  ///   is thrown away and fetched again), ``DeviceError/invalidRecord(_:)``, ``DeviceError/schema(_:)`` (a record from
  ///   a newer app this one must not change) or ``DeviceError/bookkeeping(_:_:)``; nothing else changes then.
  public mutating func edit(_ id: RecordID, setting changes: [String: FieldValue?], at now: Date) throws(DeviceError) {
    defer { absorbStoreNotices() }
    try store.edit(id, setting: changes, at: now)
  }

  /// The app edits a record with a closure that may change anything but its identity. The record is queued to save.
  /// - Parameters:
  ///   - id: The record.
  ///   - now: True (virtual) time.
  ///   - change: Edits the record; keys it writes are marked changed.
  /// - Throws: As ``edit(_:setting:at:)``.
  public mutating func edit(_ id: RecordID, at now: Date, _ change: (inout Record) -> Void) throws(DeviceError) {
    defer { absorbStoreNotices() }
    try store.edit(id, at: now, change)
  }

  /// The app deletes a record: it leaves the store at once, a tombstone remembers it, and the deletion is queued. Only
  /// a record never sent is simply dropped: one whose save is unanswered may have landed, so its deletion is sent too
  /// (deleting a record the server does not have succeeds).
  /// - Parameters:
  ///   - id: The record.
  ///   - now: True (virtual) time.
  /// - Throws: ``DeviceError/recordNotFound(_:)``.
  public mutating func delete(_ id: RecordID, at now: Date) throws(DeviceError) {
    defer { absorbStoreNotices() }
    try store.delete(id, at: now)
  }

  /// **Simulator only**: damages the device's stored copy of `id` behind its back, as a failing disk, a torn write or
  /// a bad migration would. One value becomes ``StorageDamage/garbage`` and the record's seal goes stale.
  ///
  /// The device checks a record's seal whenever it reads the record to change or send it: before an edit, before it
  /// puts the record in a batch, before it merges a fetched or conflicting server version, and before it takes a save's
  /// answer. It checks the whole store when a sync starts, when it launches (``crash()``) and on ``restart()``. A
  /// damaged record is thrown away — its unsent edits cannot be trusted, so they are lost — and the server's copy is
  /// fetched again. Garbage is never uploaded.
  /// - Parameter id: The record to damage.
  /// - Returns: Whether the device held such a record.
  @discardableResult
  public mutating func corruptStoredRecord(_ id: RecordID) -> Bool { store.corruptStoredRecord(id) }
}
