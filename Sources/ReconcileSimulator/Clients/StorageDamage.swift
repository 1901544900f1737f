import Foundation
package import Reconcile

/// What damaged storage leaves in a record, in the vocabulary every sync client shares with the oracles.
///
/// A client that supports ``HostEvent/storageDamaged(_:)`` damages its stored copy by writing ``garbage`` into one
/// value, as a torn write or a bad migration would. ``Invariant/damagedDataNeverUploaded`` then judges the server's log:
/// no save may carry it, so a client must find the damage (a checksum, a seal) before it uploads the copy.
package enum StorageDamage {
  /// Bytes no app writes: a copy of them on the server proves that a damaged record was uploaded.
  package static let garbage = FieldValue.bytes(Data([0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0xFF]))

  /// Whether `record` holds ``garbage`` in any value, plain or encrypted.
  package static func isDamaged(_ record: Record) -> Bool {
    record.valueTable.values.contains(garbage) || record.encryptedValueTable.values.contains(garbage)
  }
}
