package import Foundation
package import Reconcile

/// What the script language can do to a simulation's world beyond a replay script's steps (``SimulationStep``): the
/// REPL's and `run`'s lines that a seeded run never generates — records of other types or with encrypted values, an
/// app version the script declared, a restart, a server error, a disconnect after a save, clearing faults, time that
/// moves by a fraction of a second.
///
/// The world carries them out as it carries out steps, with the auditor listening, so every line of a session runs in
/// one world; a session that used one is not a replay script (`run` and the REPL say so when asked for one).
package enum WorldOperation: Sendable {
  /// The app on `device` creates `record`, of any type, with plain and encrypted values.
  case create(device: String, record: Record)
  /// The app on `device` edits a record: each value set, or removed for `nil`; `encrypted` values go to the record's
  /// encrypted values.
  case edit(device: String, id: RecordID, values: [String: FieldValue?], encrypted: [String: FieldValue?])
  /// The app on `device` deletes a record of any type.
  case delete(device: String, id: RecordID)
  /// `device` runs another app version, with `schema` (`nil`: no schema checks) knowing `knownKeys` (`nil`: every key).
  case install(device: String, schema: Schema?, knownKeys: Set<String>?)
  /// `device` clears its halt and syncs again.
  case restart(device: String)
  /// The server answers the next `count` requests (from `device`, or from anyone) with `error`.
  case serverError(ServerError, count: Int, device: String?)
  /// `device`'s next save reaches the server, then `device` loses its network before the answer arrives.
  case disconnectAfterSave(device: String)
  /// Every fault waiting ends: the server's, the network's, and a full quota.
  case clearFaults
  /// `device`'s clock jumps by `seconds` (back, when negative), which need not be whole.
  case jumpClock(device: String, seconds: TimeInterval)
  /// Virtual time moves forward by `seconds`, which need not be whole.
  case advance(seconds: TimeInterval)

  /// The device the operation is about, if any.
  package var device: String? {
    switch self {
    case .create(let device, _), .edit(let device, _, _, _), .delete(let device, _), .install(let device, _, _),
      .restart(let device), .disconnectAfterSave(let device), .jumpClock(let device, _):
      device
    case .serverError(_, _, let device): device
    case .clearFaults, .advance: nil
    }
  }
}
