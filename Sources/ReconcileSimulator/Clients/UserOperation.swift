package import Reconcile

/// What the user does to the app's data on one device: what a client under test is handed as its app's UI would hand
/// it.
package enum UserOperation: Sendable, Hashable {
  /// The user creates `record`.
  case create(Record)
  /// The user edits record `id`: sets each key to its value, or removes it for `nil`, among the plain values and the
  /// encrypted ones (a client that keeps no encrypted values refuses any).
  case edit(RecordID, values: [String: FieldValue?], encrypted: [String: FieldValue?])
  /// The user deletes record `id`.
  case delete(RecordID)
}
