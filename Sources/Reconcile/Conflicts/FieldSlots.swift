/// A key's value and where it lives: a key has one value, plain or encrypted.
struct FieldSlot: Equatable {
  var value: FieldValue
  var encrypted: Bool
}

/// Where a key's value is stored in one record: the plain or the encrypted table, and the position in it.
struct FieldPosition: Equatable {
  var encrypted: Bool
  var index: Int
}

/// A record's plain and encrypted values, read by key across both. The tables are read out of the record once, so each
/// lookup is one binary search.
struct FieldSlots {
  let plain: FieldTable
  let encrypted: FieldTable

  init(_ record: Record) {
    plain = record.storage.values
    encrypted = record.storage.encrypted
  }

  subscript(key: String) -> FieldSlot? {
    position(of: key).map(slot(at:))
  }

  /// Where `key`'s value is, or `nil` when the record has none.
  /// - Parameter guess: Where another version of the record holds the key: tried first (see
  ///   ``FieldTable/position(of:guess:)``).
  func position(of key: String, guess: FieldPosition? = nil) -> FieldPosition? {
    let plainPosition = plain.position(of: key, guess: guess?.encrypted == false ? guess?.index : nil)
    if plainPosition.found { return FieldPosition(encrypted: false, index: plainPosition.index) }
    guard !encrypted.isEmpty else { return nil }
    let encryptedPosition = encrypted.position(of: key, guess: guess?.encrypted == true ? guess?.index : nil)
    return encryptedPosition.found ? FieldPosition(encrypted: true, index: encryptedPosition.index) : nil
  }

  /// The value at `position`, and where it lives.
  func slot(at position: FieldPosition) -> FieldSlot {
    FieldSlot(value: table(position.encrypted).values[position.index], encrypted: position.encrypted)
  }

  /// Whether the value at `position` equals `other`'s at `otherPosition`, in the same namespace — or both are absent.
  /// Compares in place, without copying either value.
  func holdsSame(at position: FieldPosition?, as other: FieldSlots, at otherPosition: FieldPosition?) -> Bool {
    switch (position, otherPosition) {
    case (nil, nil): return true
    case (let mine?, let theirs?):
      return mine.encrypted == theirs.encrypted
        && table(mine.encrypted).hasSameValue(at: mine.index, as: other.table(theirs.encrypted), at: theirs.index)
    default: return false
    }
  }

  private func table(_ encrypted: Bool) -> FieldTable { encrypted ? self.encrypted : plain }
}
