import Reconcile

/// The type each key of one record type was first saved with (a development schema), sorted by key like a record's
/// ``FieldTable``, so checking a record's fields walks both in one order: the key at a record's position `i` is nearly
/// always the table's key at `i` (the records of one type hold the same keys), which one string comparison confirms,
/// instead of hashing every key of every save.
struct FieldTypeTable: Sendable {
  private(set) var keys: [String] = []
  private(set) var types: [FieldType] = []

  /// The type registered for `key`, if any.
  /// - Parameter guess: Where `key` probably is: its position in the record being checked.
  func type(of key: String, guess: Int? = nil) -> FieldType? {
    let (index, found) = keys.withUnsafeBufferPointer { FieldTable.position(of: key, in: $0, guess: guess) }
    return found ? types[index] : nil
  }

  /// Registers `type` for `key` unless the key has a type already.
  mutating func register(_ type: FieldType, for key: String) {
    let (index, found) = keys.withUnsafeBufferPointer { FieldTable.position(of: key, in: $0) }
    guard !found else { return }
    keys.insert(key, at: index)
    types.insert(type, at: index)
  }

  /// Registers the type of each key of `record` that has none yet. An empty list fixes no type and is skipped. Plain
  /// values come first: a key held both ways (only a damaged record can) registers its plain type, as a read would.
  mutating func registerTypes(of record: Record) {
    for fields in [record.valueTable, record.encryptedValueTable] {
      for (key, value) in fields where !value.isEmptyList { register(value.type, for: key) }
    }
  }
}

extension FieldValue {
  /// Whether this is a list with no elements, whose type (``FieldType/list(_:)`` of `nil`) fixes no field type.
  var isEmptyList: Bool {
    if case .list(let elements) = self { return elements.isEmpty }
    return false
  }
}
