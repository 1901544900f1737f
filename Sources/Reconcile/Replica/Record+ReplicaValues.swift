/// How replicas and clients move a record's values around: plain and encrypted values alike, since a key lives in one or the other.
extension Record {
  /// Whether a stored copy holds something the server has not acknowledged: it was never saved (no change tag), or it
  /// has unsent values on top of the version it was saved as.
  package var hasUnsentChanges: Bool { recordChangeTag == nil || !changedKeys.isEmpty }

  /// The record's type, ID, values, encrypted values and parent, without system fields: what a client uploads as a new
  /// record (after its zone or the server's copy is gone).
  package var withoutSystemFields: Record {
    var fresh = Record(recordType: recordType, recordID: recordID)
    for (key, value) in valueTable { fresh[key] = value }
    for (key, value) in encryptedValueTable { fresh.encryptedValues[key] = value }
    fresh.parent = parent
    return fresh
  }

  /// Sets `key` to its value in `source`, plain or encrypted, or removes it when `source` has none, marking it changed
  /// so it is sent (core's `restore(_:from:)` leaves it unmarked).
  package mutating func takeValue(of key: String, from source: Record) {
    if let value = source.encryptedValues[key] {
      encryptedValues[key] = value
    } else if let value = source[key] {
      self[key] = value
    } else {
      self[key] = nil
      encryptedValues[key] = nil
    }
  }

  /// The ancestor of this record — a copy from a zone since deleted, as the server last acknowledged it to the device
  /// — and `server`, the new zone's version: only the keys `server` still holds as this copy does. CloudKit keeps no
  /// history across a zone's deletion, so `server` may be another device's copy of this lineage, edited since, or a
  /// record another device created anew; a key it holds otherwise is merged as two creates merge, by the resolver's
  /// policy, never taken as a later edit of this copy.
  package func sharedPast(with server: Record) -> Record {
    var ancestor = self
    for key in Set(allKeys).union(server.allKeys).sorted() where !server.hasSameValue(forKey: key, as: self) {
      ancestor[key] = nil
      ancestor.encryptedValues[key] = nil
    }
    ancestor.clearChangedKeys()
    return ancestor
  }
}
