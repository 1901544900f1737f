import Foundation

/// The `Decoder` the Web Services bodies decode through: it reads a ``JSONTree`` the strict scanner built, so the
/// checks and the parse are one pass, and the types' own `init(from:)` run unchanged.
///
/// Cheaper than `JSONDecoder` where a typed decode spends its time: a keyed container finds members by comparing keys
/// in the object's few entries (no dictionary per container), a value read before its type is known (``JSONValue``) is
/// taken from the tree whole, and the coding path is worked out only for an error. It reads what the Web Services
/// types decode — objects, arrays, strings, numbers, Booleans, `null` — and is not a general replacement for
/// `JSONDecoder` (no `Date` or `Data` strategies: those types decode as their own `init(from:)` says).
struct JSONTreeDecoder: Decoder {
  let tree: JSONTree
  let index: Int

  var codingPath: [any CodingKey] { tree.codingPath(to: index) }
  var userInfo: [CodingUserInfoKey: Any] { tree.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard tree.nodes[index].kind == .object else { throw tree.mismatch([String: Any].self, "an object", at: index) }
    return KeyedDecodingContainer(Keyed<Key>(tree: tree, index: index))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard tree.nodes[index].kind == .array else { throw tree.mismatch([Any].self, "an array", at: index) }
    return Unkeyed(tree: tree, index: index)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(tree: tree, index: index) }

  // MARK: Containers

  private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let tree: JSONTree
    let index: Int

    var codingPath: [any CodingKey] { tree.codingPath(to: index) }

    var allKeys: [Key] {
      var keys: [Key] = []
      keys.reserveCapacity(Int(tree.nodes[index].count))
      var key = index + 1
      let end = tree.next(after: index)
      while key < end {
        if let known = Key(stringValue: tree.string(at: key)) { keys.append(known) }
        key = tree.next(after: key + 1)
      }
      return keys
    }

    func contains(_ key: Key) -> Bool { tree.member(key.stringValue, of: index) != nil }

    /// The index of `key`'s value.
    private func value(_ key: Key) throws -> Int {
      guard let value = tree.member(key.stringValue, of: index) else {
        throw DecodingError.keyNotFound(
          key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for \"\(key.stringValue)\""))
      }
      return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { tree.nodes[try value(key)].kind == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try tree.bool(at: value(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try tree.string(at: value(key), type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try tree.double(at: value(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try tree.double(at: value(key))) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try tree.integer(at: value(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try tree.integer(at: value(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try tree.integer(at: value(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try tree.integer(at: value(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try tree.integer(at: value(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try tree.integer(at: value(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try tree.integer(at: value(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try tree.integer(at: value(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try tree.integer(at: value(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try tree.integer(at: value(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try tree.decode(type, at: value(key)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      try JSONTreeDecoder(tree: tree, index: value(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      try JSONTreeDecoder(tree: tree, index: value(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
      guard let value = tree.member("super", of: index) else {
        throw DecodingError.keyNotFound(
          IndexKey(0), DecodingError.Context(codingPath: codingPath, debugDescription: "no value for \"super\""))
      }
      return JSONTreeDecoder(tree: tree, index: value)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { JSONTreeDecoder(tree: tree, index: try value(key)) }
  }

  private struct Unkeyed: UnkeyedDecodingContainer {
    let tree: JSONTree
    let index: Int
    /// The node of the next element.
    private var position: Int
    private(set) var currentIndex = 0
    let count: Int?

    init(tree: JSONTree, index: Int) {
      self.tree = tree
      self.index = index
      position = index + 1
      count = Int(tree.nodes[index].count)
    }

    var codingPath: [any CodingKey] { tree.codingPath(to: index) }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    /// The next element's node, stepping past it.
    private mutating func next<T>(_ type: T.Type) throws -> Int {
      guard !isAtEnd else {
        throw DecodingError.valueNotFound(
          type,
          DecodingError.Context(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "no more elements")
        )
      }
      let element = position
      position = tree.next(after: position)
      currentIndex += 1
      return element
    }

    mutating func decodeNil() throws -> Bool {
      guard !isAtEnd, tree.nodes[position].kind == .null else { return false }
      _ = try next(Never.self)
      return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try tree.bool(at: next(type)) }
    mutating func decode(_ type: String.Type) throws -> String { try tree.string(at: next(type), type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try tree.double(at: next(type)) }
    mutating func decode(_ type: Float.Type) throws -> Float { Float(try tree.double(at: next(type))) }
    mutating func decode(_ type: Int.Type) throws -> Int { try tree.integer(at: next(type)) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try tree.integer(at: next(type)) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try tree.integer(at: next(type)) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try tree.integer(at: next(type)) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try tree.integer(at: next(type)) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try tree.integer(at: next(type)) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try tree.integer(at: next(type)) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try tree.integer(at: next(type)) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try tree.integer(at: next(type)) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try tree.integer(at: next(type)) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try tree.decode(type, at: next(type)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      try JSONTreeDecoder(tree: tree, index: next(type)).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      try JSONTreeDecoder(tree: tree, index: next([Any].self)).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { JSONTreeDecoder(tree: tree, index: try next(Any.self)) }
  }

  private struct Single: SingleValueDecodingContainer {
    let tree: JSONTree
    let index: Int

    var codingPath: [any CodingKey] { tree.codingPath(to: index) }

    func decodeNil() -> Bool { tree.nodes[index].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try tree.bool(at: index) }
    func decode(_ type: String.Type) throws -> String { try tree.string(at: index, type) }
    func decode(_ type: Double.Type) throws -> Double { try tree.double(at: index) }
    func decode(_ type: Float.Type) throws -> Float { Float(try tree.double(at: index)) }
    func decode(_ type: Int.Type) throws -> Int { try tree.integer(at: index) }
    func decode(_ type: Int8.Type) throws -> Int8 { try tree.integer(at: index) }
    func decode(_ type: Int16.Type) throws -> Int16 { try tree.integer(at: index) }
    func decode(_ type: Int32.Type) throws -> Int32 { try tree.integer(at: index) }
    func decode(_ type: Int64.Type) throws -> Int64 { try tree.integer(at: index) }
    func decode(_ type: UInt.Type) throws -> UInt { try tree.integer(at: index) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try tree.integer(at: index) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try tree.integer(at: index) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try tree.integer(at: index) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try tree.integer(at: index) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try tree.decode(type, at: index) }
  }
}

// MARK: Values

extension JSONTree {
  /// Decodes `type` from the value at `index`: a ``JSONValue`` straight from the tree, anything else by its own
  /// `init(from:)`.
  func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
    // `T` is `JSONValue` itself here, so the cast changes nothing (a checked cast would cost a runtime lookup).
    if type == JSONValue.self { return unsafeBitCast(jsonValue(at: index), to: T.self) }
    if type == WireField.Entries.self, let value = try fieldEntries(at: index) as? T { return value }
    return try T(from: JSONTreeDecoder(tree: self, index: index))
  }

  /// A record's `fields` read straight from the tree, as ``WireField/Entries/init(from:)`` reads them through
  /// containers, with the same errors.
  private func fieldEntries(at index: Int) throws -> WireField.Entries {
    guard nodes[index].kind == .object else { throw mismatch([String: Any].self, "an object", at: index) }
    var entries: [WireField.Entry] = []
    entries.reserveCapacity(Int(nodes[index].count))
    var key = index + 1
    while key < next(after: index) {
      let field = key + 1
      guard nodes[field].kind == .object else { throw mismatch([String: Any].self, "an object", at: field) }
      var entry = WireField.Entry(name: string(at: key), type: nil, value: nil, isEncrypted: nil)
      var member = field + 1
      while member < next(after: field) {
        let value = member + 1
        switch string(at: member) {
        case "type" where nodes[value].kind != .null: entry.type = try string(at: value, String.self)
        case "value": entry.value = jsonValue(at: value)
        case "isEncrypted" where nodes[value].kind != .null: entry.isEncrypted = try bool(at: value)
        default: break
        }
        member = next(after: value)
      }
      entries.append(entry)
      key = next(after: field)
    }
    return WireField.Entries(entries: entries)
  }

  func bool(at index: Int) throws -> Bool {
    let node = nodes[index]
    guard node.kind == .bool else { throw mismatch(Bool.self, "a Boolean", at: index) }
    return node.payload != 0
  }

  func string(at index: Int, _ type: String.Type) throws -> String {
    guard nodes[index].kind == .string else { throw mismatch(String.self, "a string", at: index) }
    return string(at: index)
  }

  func double(at index: Int) throws -> Double {
    let node = nodes[index]
    switch node.kind {
    case .number: return Double(bitPattern: node.payload)
    case .integer: return Double(Int64(bitPattern: node.payload))
    default: throw mismatch(Double.self, "a number", at: index)
    }
  }

  /// An integer of type `T`: a JSON integer that fits, or a number with no fraction that does (`1.0`, `1e3`), as
  /// `JSONDecoder` reads them.
  func integer<T: FixedWidthInteger>(at index: Int) throws -> T {
    let node = nodes[index]
    let value: T?
    switch node.kind {
    case .integer: value = T(exactly: Int64(bitPattern: node.payload))
    case .number: value = T(exactly: Double(bitPattern: node.payload))
    default: throw mismatch(T.self, "a number", at: index)
    }
    guard let value else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: codingPath(to: index), debugDescription: "number does not fit in \(T.self)"))
    }
    return value
  }

  /// The error for a value of the wrong kind: `valueNotFound` for `null`, as `JSONDecoder` says, else `typeMismatch`.
  func mismatch(_ type: Any.Type, _ expected: String, at index: Int) -> DecodingError {
    let context = DecodingError.Context(
      codingPath: codingPath(to: index), debugDescription: "expected \(expected), found \(kindName(at: index))")
    return nodes[index].kind == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
  }
}
