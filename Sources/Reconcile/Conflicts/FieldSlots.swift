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

/// A record's plain and encrypted values, read in place by key across both.
///
/// A view, not a copy: it exists only inside ``reading(_:_:)``, which lends it the record's four arrays for the call.
/// Holding copies of them instead cost a merge a retain and a release per array per version — atomic operations, and
/// the largest share of a ten-field merge's time. Values are compared where they are stored; only a value a result
/// takes is copied (``slot(at:)``).
struct FieldSlots {
  private let plainKeys: UnsafeBufferPointer<String>
  private let plainValues: UnsafeBufferPointer<FieldValue>
  private let encryptedKeys: UnsafeBufferPointer<String>
  private let encryptedValues: UnsafeBufferPointer<FieldValue>

  /// Calls `body` with a view of `record`'s values. The view must not outlive the call.
  @inline(__always)
  static func reading<Result>(_ record: Record, _ body: (FieldSlots) throws -> Result) rethrows -> Result {
    let storage = record.storage
    return try storage.values.keys.withUnsafeBufferPointer { plainKeys in
      try storage.values.values.withUnsafeBufferPointer { plainValues in
        try storage.encrypted.keys.withUnsafeBufferPointer { encryptedKeys in
          try storage.encrypted.values.withUnsafeBufferPointer { encryptedValues in
            try body(
              FieldSlots(
                plainKeys: plainKeys, plainValues: plainValues, encryptedKeys: encryptedKeys,
                encryptedValues: encryptedValues))
          }
        }
      }
    }
  }

  /// How many values the record holds, plain and encrypted.
  var count: Int { plainKeys.count + encryptedKeys.count }

  /// Every key with a value, each once, and where it is: the plain keys in order, then the encrypted keys in order.
  /// A key stored both ways (which a valid record never has) is listed as plain only.
  func forEachKey(_ body: (String, FieldPosition) throws -> Void) rethrows {
    for (index, key) in plainKeys.enumerated() { try body(key, FieldPosition(encrypted: false, index: index)) }
    for (index, key) in encryptedKeys.enumerated()
    where !FieldTable.position(of: key, in: plainKeys).found {
      try body(key, FieldPosition(encrypted: true, index: index))
    }
  }

  /// Where `key`'s value is, or `nil` when the record has none.
  /// - Parameter guess: Where another version of the record holds the key: tried first (see
  ///   ``FieldTable/position(of:guess:)``).
  func position(of key: String, guess: FieldPosition? = nil) -> FieldPosition? {
    let plain = FieldTable.position(of: key, in: plainKeys, guess: guess?.encrypted == false ? guess?.index : nil)
    if plain.found { return FieldPosition(encrypted: false, index: plain.index) }
    guard !encryptedKeys.isEmpty else { return nil }
    let encrypted = FieldTable.position(
      of: key, in: encryptedKeys, guess: guess?.encrypted == true ? guess?.index : nil)
    return encrypted.found ? FieldPosition(encrypted: true, index: encrypted.index) : nil
  }

  /// The value at `position`, and where it lives.
  func slot(at position: FieldPosition) -> FieldSlot {
    FieldSlot(value: values(position.encrypted)[position.index], encrypted: position.encrypted)
  }

  /// Whether the value at `position` equals `other`'s at `otherPosition`, in the same namespace — or both are absent.
  /// Compares in place, without copying either value (see ``FieldTable/sameValue(_:_:)``).
  func holdsSame(at position: FieldPosition?, as other: FieldSlots, at otherPosition: FieldPosition?) -> Bool {
    switch (position, otherPosition) {
    case (nil, nil): return true
    case (let mine?, let theirs?):
      guard mine.encrypted == theirs.encrypted, let left = values(mine.encrypted).baseAddress,
        let right = other.values(theirs.encrypted).baseAddress
      else { return false }
      return FieldTable.sameValue(left + mine.index, right + theirs.index)
    default: return false
    }
  }

  private func values(_ encrypted: Bool) -> UnsafeBufferPointer<FieldValue> {
    encrypted ? encryptedValues : plainValues
  }
}
