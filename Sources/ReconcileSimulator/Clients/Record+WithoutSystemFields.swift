import Reconcile

extension Record {
  /// The record's type, ID, values, encrypted values and parent, without system fields: what a client uploads as a new
  /// record (after its zone or the server's copy is gone).
  var withoutSystemFields: Record {
    var fresh = Record(recordType: recordType, recordID: recordID)
    for (key, value) in values { fresh[key] = value }
    for (key, value) in encryptedValuesByKey { fresh.encryptedValues[key] = value }
    fresh.parent = parent
    return fresh
  }
}
