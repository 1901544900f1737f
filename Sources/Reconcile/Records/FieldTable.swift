/// A record's values by key, kept as two parallel arrays sorted by key.
///
/// Records are small — CloudKit allows at most 256 fields, and most have a few dozen — and merges look up the same few
/// keys in three versions of a record. Hashing a `String` (SipHash over its normalized bytes) costs several times a
/// binary search over a few dozen sorted keys, whose comparisons of short ASCII keys are a couple of integer compares
/// each; and copying an array is cheaper than copying a hash table. Sorted keys also give every encoder its order
/// without sorting.
///
/// Keys compare with `String`'s `<` and `==`, which agree with each other and with a dictionary's idea of the same key
/// (canonical equivalence), so a table holds a key at most once.
///
/// - Complexity: Lookups are O(log *n*). Writing a key already present is O(log *n*); inserting a new key shifts the
///   entries after it, O(*n*). Building a table from many pairs at once (``init(_:)``) sorts once, O(*n* log *n*), so
///   decoders never pay the quadratic cost of *n* single inserts.
package struct FieldTable: Sendable, Hashable {
  /// The keys, sorted, each once. Kept apart from the values so a search reads only keys, and writing a value leaves a
  /// shared key array shared.
  package private(set) var keys: [String]
  /// The value of each key, at the key's position.
  package private(set) var values: [FieldValue]

  /// An empty table.
  package init() {
    keys = []
    values = []
  }

  /// A table of `pairs`; a key given twice keeps its last value. Pairs already in ascending key order are not sorted
  /// again.
  package init(_ pairs: some Sequence<(key: String, value: FieldValue)>) {
    let pairs = Array(pairs)
    // Sorting the positions by key, then position, keeps equal keys in the order given, so the last is the one kept.
    let order =
      zip(pairs, pairs.dropFirst()).allSatisfy({ $0.key < $1.key })
      ? Array(pairs.indices) : pairs.indices.sorted { (pairs[$0].key, $0) < (pairs[$1].key, $1) }
    keys = []
    values = []
    keys.reserveCapacity(pairs.count)
    values.reserveCapacity(pairs.count)
    for index in order {
      let (key, value) = pairs[index]
      if let last = keys.last, last == key {
        values[values.count - 1] = value
      } else {
        keys.append(key)
        values.append(value)
      }
    }
  }

  /// The number of keys.
  package var count: Int { keys.count }

  /// Whether the table holds no key.
  package var isEmpty: Bool { keys.isEmpty }

  /// The values by key, as a dictionary.
  package var dictionary: [String: FieldValue] {
    Dictionary(uniqueKeysWithValues: zip(keys, values))
  }

  /// Where `key` is, or where it would be inserted to keep the order.
  /// - Parameter guess: A position to try before searching: versions of one record nearly always hold the same keys,
  ///   so the position of a key in one version is, nearly always, its position in another.
  package func position(of key: String, guess: Int? = nil) -> (index: Int, found: Bool) {
    keys.withUnsafeBufferPointer { Self.position(of: key, in: $0, guess: guess) }
  }

  /// ``position(of:guess:)`` over sorted keys read in place.
  @inline(__always)
  package static func position(of key: String, in keys: UnsafeBufferPointer<String>, guess: Int? = nil) -> (
    index: Int, found: Bool
  ) {
    if let guess, guess >= 0, guess < keys.count, keys[guess] == key { return (guess, true) }
    var low = 0
    var high = keys.count
    while low < high {
      let middle = low &+ (high &- low) / 2
      if keys[middle] < key { low = middle &+ 1 } else { high = middle }
    }
    return (low, low < keys.count && keys[low] == key)
  }

  /// The value of `key`; setting `nil` removes it.
  package subscript(key: String) -> FieldValue? {
    get {
      let (index, found) = position(of: key)
      return found ? values[index] : nil
    }
    set {
      let (index, found) = position(of: key)
      switch (found, newValue) {
      case (true, let value?):
        values[index] = value
      case (true, nil):
        keys.remove(at: index)
        values.remove(at: index)
      case (false, let value?):
        keys.insert(key, at: index)
        values.insert(value, at: index)
      case (false, nil):
        break
      }
    }
  }

  /// The first key, in order, that both tables hold; one walk over both sorted key lists.
  package func firstKeyShared(with other: FieldTable) -> String? {
    guard !isEmpty, !other.isEmpty else { return nil }
    var (i, j) = (0, 0)
    while i < keys.count, j < other.keys.count {
      if keys[i] == other.keys[j] { return keys[i] }
      if keys[i] < other.keys[j] { i += 1 } else { j += 1 }
    }
    return nil
  }

  /// The keys whose values differ between this table and `other`, a key held by one only included: one walk over both
  /// sorted key lists, values compared in place.
  package func keysDiffering(from other: FieldTable) -> [String] {
    var differing: [String] = []
    keys.withUnsafeBufferPointer { left in
      other.keys.withUnsafeBufferPointer { right in
        values.withUnsafeBufferPointer { leftValues in
          other.values.withUnsafeBufferPointer { rightValues in
            guard let leftValues = leftValues.baseAddress, let rightValues = rightValues.baseAddress else {
              differing.append(contentsOf: left)
              differing.append(contentsOf: right)
              return
            }
            // Versions of one record nearly always share their key array: then only the values are compared.
            if left.count == right.count, left.baseAddress == right.baseAddress {
              for index in left.indices where !Self.sameValue(leftValues + index, rightValues + index) {
                differing.append(left[index])
              }
              return
            }
            var (i, j) = (0, 0)
            while i < left.count, j < right.count {
              if left[i] == right[j] {
                if !Self.sameValue(leftValues + i, rightValues + j) { differing.append(left[i]) }
                i += 1
                j += 1
              } else if left[i] < right[j] {
                differing.append(left[i])
                i += 1
              } else {
                differing.append(right[j])
                j += 1
              }
            }
            differing.append(contentsOf: left[i...])
            differing.append(contentsOf: right[j...])
          }
        }
      }
    }
    return differing
  }

  /// Whether the table holds `key`.
  package func contains(_ key: String) -> Bool { position(of: key).found }

  /// Replaces the value at `index`, a position ``position(of:guess:)`` found.
  package mutating func replaceValue(at index: Int, with value: FieldValue) { values[index] = value }

  /// Whether the values at `left` and `right` — each in some table's storage — are the same value, compared where they
  /// are stored.
  ///
  /// Two values with the same bytes are the same value — one copied from the other, as an unchanged field is between
  /// two versions of a record — so that is checked first, without touching reference counts; other pairs compare with
  /// `==`, inlined so it reads both payloads in place rather than copying them. So, unlike `==`, a `NaN` compared with
  /// its own copy counts as the same (it is unchanged).
  @inline(__always)
  package static func sameValue(_ left: UnsafePointer<FieldValue>, _ right: UnsafePointer<FieldValue>) -> Bool {
    sameBytes(UnsafeRawPointer(left), UnsafeRawPointer(right)) || left.pointee == right.pointee
  }

  /// Whether the `FieldValue`s at `left` and `right` are byte for byte the same.
  @inline(__always)
  private static func sameBytes(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer) -> Bool {
    let size = MemoryLayout<FieldValue>.size
    var offset = 0
    while offset + 8 <= size {
      if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      {
        return false
      }
      offset += 8
    }
    while offset < size {
      if left.load(fromByteOffset: offset, as: UInt8.self) != right.load(fromByteOffset: offset, as: UInt8.self) {
        return false
      }
      offset += 1
    }
    return true
  }
}

extension FieldTable: RandomAccessCollection {
  package var startIndex: Int { 0 }
  package var endIndex: Int { keys.count }
  package subscript(position: Int) -> (key: String, value: FieldValue) { (keys[position], values[position]) }
}
