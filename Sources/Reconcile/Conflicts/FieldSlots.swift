/// A key's value and where it lives: a key has one value, plain or encrypted.
struct FieldSlot: Equatable {
  var value: FieldValue
  var encrypted: Bool
}

/// A record's plain and encrypted values, read by key across both. The dictionaries are read out of the record once,
/// so each lookup is one hash.
struct FieldSlots {
  let plain: [String: FieldValue]
  let encrypted: [String: FieldValue]

  init(_ record: Record) {
    plain = record.storage.values
    encrypted = record.storage.encrypted
  }

  subscript(key: String) -> FieldSlot? {
    if let value = plain[key] { return FieldSlot(value: value, encrypted: false) }
    if !encrypted.isEmpty, let value = encrypted[key] { return FieldSlot(value: value, encrypted: true) }
    return nil
  }
}
