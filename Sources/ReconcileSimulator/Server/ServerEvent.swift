package import Foundation
package import Reconcile

/// One change the server made, kept in ``SimulatedServer/events`` when
/// ``SimulatedServer/Configuration/recordsEvents`` is on.
package struct ServerEvent: Sendable, Hashable, CustomStringConvertible {
  /// What changed.
  package enum Kind: Sendable, Hashable {
    /// A record was created or modified; the record as stored.
    case saved(Record)
    /// A record was deleted (directly or by a `deleteSelf` cascade).
    case deleted(RecordID, recordType: String)
    /// A zone was created.
    case zoneCreated(ZoneID)
    /// A zone and its records were deleted, and why: by a client (`.deleted`), by the user in Settings (`.purged`),
    /// or by an encrypted-data reset (`.encryptedDataReset`).
    case zoneDeleted(ZoneID, reason: SyncEngine.ZoneDeletion.Reason)
  }

  /// The event's position in the server's history, from 1.
  package var sequence: Int
  /// The virtual time.
  package var time: Date
  /// Who caused it; `nil` for the simulator's own interventions (faults, admin calls).
  package var client: ClientIdentity?
  /// The owner of the database it happened in (the user record name), or `nil` for the public database.
  package var owner: String?
  /// What changed.
  package var kind: Kind

  /// An event, for the simulator's own bookkeeping and tests.
  package init(sequence: Int, time: Date, client: ClientIdentity?, owner: String?, kind: Kind) {
    self.sequence = sequence
    self.time = time
    self.client = client
    self.owner = owner
    self.kind = kind
  }

  /// `#sequence device: change`.
  package var description: String {
    let who = client?.deviceName ?? "server"
    switch kind {
    case .saved(let record):
      // Records are named TYPE/NAME: "saved 1" read as a count.
      return
        "#\(sequence) \(who): saved \(record.recordType)/\(record.recordID.recordName) → \(record.recordChangeTag ?? "")"
    case .deleted(let id, let recordType): return "#\(sequence) \(who): deleted \(recordType)/\(id.recordName)"
    case .zoneCreated(let zone): return "#\(sequence) \(who): created zone \(zone.zoneName)"
    case .zoneDeleted(let zone, let reason):
      let verb =
        switch reason {
        case .deleted: "deleted"
        case .purged: "purged"
        case .encryptedDataReset: "reset (encrypted data) and deleted"
        }
      return "#\(sequence) \(who): \(verb) zone \(zone.zoneName)"
    }
  }
}
