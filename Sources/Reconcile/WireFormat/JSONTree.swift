import Foundation

/// A JSON document read by the strict scanner into one flat array of nodes, for the typed Web Services decoders
/// (``JSONTreeDecoder``).
///
/// Nodes are in document order: a container is followed by its elements (an object's as key, value, key, value …) and
/// records where its subtree ends, so a reader steps over a whole value in one move. Reading the bytes once into this
/// form, with the strict checks on the way, is what lets a typed decode cost less than Foundation's untyped
/// `JSONSerialization` parse of the same bytes: no dictionary is built and no key hashed.
final class JSONTree {
  /// One value, key or container of the document.
  struct Node {
    enum Kind: UInt8 { case null, bool, integer, number, string, array, object }
    var kind: Kind
    /// A container's elements (an object's members).
    var count: Int32
    /// The index after the node's subtree.
    var end: Int32
    /// A Boolean (0 or 1), an `Int64`'s or a `Double`'s bits, or a string's index in ``JSONTree/strings``.
    var payload: UInt64
  }

  let nodes: [Node]
  let strings: [String]
  /// What the caller hands every decoder of this tree.
  var userInfo: [CodingUserInfoKey: Any] = [:]

  private init(nodes: [Node], strings: [String]) {
    self.nodes = nodes
    self.strings = strings
  }

  /// How deep arrays and objects may nest unless a caller says otherwise; ``WireJSON/maximumDepth`` publishes it and
  /// says why it is enough.
  static let defaultMaximumDepth = 32

  /// Reads `data` with the checks of ``WireJSON/check(_:maximumDepth:)``.
  /// - Throws: ``WireJSONError`` naming the first problem and its byte offset, as the check does.
  static func parse(_ data: Data, maximumDepth: Int = defaultMaximumDepth) throws(WireJSONError) -> JSONTree {
    let result: Result<Builder, WireJSONError> = data.withUnsafeBytes { buffer in
      var scanner = JSONScanner(buffer, maximumDepth: maximumDepth, output: Builder(expectedBytes: buffer.count))
      do throws(WireJSONError) {
        try scanner.scanDocument()
        return .success(scanner.output)
      } catch {
        return .failure(error)
      }
    }
    let builder = try result.get()
    return JSONTree(nodes: builder.nodes, strings: builder.strings)
  }

  // MARK: Reading

  /// The index after the value at `index` and everything inside it: its next sibling's.
  @inline(__always)
  func next(after index: Int) -> Int { Int(nodes[index].end) }

  /// The string at `index` (a key or a string value).
  @inline(__always)
  func string(at index: Int) -> String { strings[Int(nodes[index].payload)] }

  /// The value of the member `key` of the object at `object`, or `nil`: a scan of the object's keys, which for the
  /// handful a Web Services object has costs less than hashing.
  func member(_ key: String, of object: Int) -> Int? {
    let end = next(after: object)
    var index = object + 1
    while index < end {
      if string(at: index) == key { return index + 1 }
      index = next(after: index + 1)
    }
    return nil
  }

  /// The value at `index` as a ``JSONValue``, for the decoders that read a value before knowing its type.
  func jsonValue(at index: Int) -> JSONValue {
    let node = nodes[index]
    switch node.kind {
    case .null: return .null
    case .bool: return .bool(node.payload != 0)
    case .integer: return .integer(Int64(bitPattern: node.payload))
    case .number: return .number(Double(bitPattern: node.payload))
    case .string: return .string(strings[Int(node.payload)])
    case .array:
      var items: [JSONValue] = []
      items.reserveCapacity(Int(node.count))
      var child = index + 1
      while child < Int(node.end) {
        items.append(jsonValue(at: child))
        child = next(after: child)
      }
      return .array(items)
    case .object:
      var members: [(key: String, value: JSONValue)] = []
      members.reserveCapacity(Int(node.count))
      var key = index + 1
      while key < Int(node.end) {
        members.append((string(at: key), jsonValue(at: key + 1)))
        key = next(after: key + 1)
      }
      return .object(JSONObject(members: members))
    }
  }

  /// The coding path of the value at `target`: the keys and indexes from the top. Worked out only when asked (for an
  /// error's path), by walking down from the top, so decoding keeps no path as it goes.
  func codingPath(to target: Int) -> [any CodingKey] {
    var path: [any CodingKey] = []
    var container = 0
    while container != target, container < nodes.count {
      let node = nodes[container]
      var child = container + 1
      var position = 0
      var found = false
      while child < Int(node.end) {
        let value = node.kind == .object ? child + 1 : child
        let after = next(after: value)
        if target >= child && target < after {
          path.append(node.kind == .object ? DynamicKey(string(at: child)) : IndexKey(position))
          container = value
          found = true
          break
        }
        child = after
        position += 1
      }
      guard found else { break }
    }
    return path
  }

  /// A kind's name for an error: "a string", "an object" (``JSONValue/typeName``, without building a container).
  func kindName(at index: Int) -> String {
    switch nodes[index].kind {
    case .array: return JSONValue.array([]).typeName
    case .object: return JSONValue.object(JSONObject(members: [])).typeName
    default: return jsonValue(at: index).typeName
    }
  }

  // MARK: Building

  /// The scanner's output that builds the tree.
  struct Builder: JSONScanOutput {
    static var keepsValues: Bool { true }
    var nodes: [Node] = []
    var strings: [String] = []
    /// The open containers' node indexes, innermost last.
    private var open: [Int] = []

    init(expectedBytes: Int) {
      // About one node per 16 bytes of Web Services JSON; a guess only sizes the arrays.
      nodes.reserveCapacity(expectedBytes / 16 + 4)
      strings.reserveCapacity(expectedBytes / 24 + 4)
    }

    /// Counts a new element of an open array (an object counts its members by their keys).
    @inline(__always)
    private mutating func countElement() {
      guard let parent = open.last, nodes[parent].kind == .array else { return }
      nodes[parent].count += 1
    }

    @inline(__always)
    private mutating func append(_ kind: Node.Kind, _ payload: UInt64) {
      nodes.append(Node(kind: kind, count: 0, end: Int32(truncatingIfNeeded: nodes.count + 1), payload: payload))
    }

    mutating func open(isObject: Bool) {
      countElement()
      open.append(nodes.count)
      append(isObject ? .object : .array, 0)
    }

    mutating func close() {
      let index = open.removeLast()
      nodes[index].end = Int32(truncatingIfNeeded: nodes.count)
    }

    mutating func key(_ key: String) {
      if let parent = open.last { nodes[parent].count += 1 }
      strings.append(key)
      append(.string, UInt64(strings.count - 1))
    }

    mutating func string(_ text: String) {
      countElement()
      strings.append(text)
      append(.string, UInt64(strings.count - 1))
    }

    mutating func literal(_ value: Bool?) {
      countElement()
      if let value { append(.bool, value ? 1 : 0) } else { append(.null, 0) }
    }

    mutating func number(_ text: UnsafeRawBufferPointer, isInteger: Bool) {
      countElement()
      // A number whose exact value is a whole number that fits (`1.0`, `1E2`, `9007199254740993.0`) is an integer, as
      // `JSONDecoder` reads it into a ``JSONValue``, so both decoders infer one type; judged from the digits, since a
      // `Double` would round `67143957742687968.055` to a whole number.
      if let integer = Self.exactInteger(text) {
        append(.integer, UInt64(bitPattern: integer))
      } else {
        // The scanner has checked the number is finite.
        append(.number, (Double(String(decoding: text, as: UTF8.self)) ?? .nan).bitPattern)
      }
    }

    /// The value of the number `text` (checked JSON) when it is exactly a whole number that fits an `Int64`.
    static func exactInteger(_ text: UnsafeRawBufferPointer) -> Int64? {
      let negative = text.first == UInt8(ascii: "-")
      var index = negative ? 1 : 0
      func digits() -> Range<Int> {
        let start = index
        while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") { index += 1 }
        return start..<index
      }
      let whole = digits()
      var fraction = index..<index
      if index < text.count, text[index] == UInt8(ascii: ".") {
        index += 1
        fraction = digits()
      }
      var exponent = 0
      if index < text.count {  // `e` or `E`, a sign, digits
        index += 1
        let negativeExponent = text[index] == UInt8(ascii: "-")
        if text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") { index += 1 }
        for position in digits() {
          // Past 10,000 the answer no longer depends on the exponent's size.
          exponent = min(exponent * 10 + Int(text[position] &- UInt8(ascii: "0")), 10_000)
        }
        if negativeExponent { exponent = -exponent }
      }
      // The digits, whole then fraction, times 10^shift; the last -shift of them must be zeros.
      let shift = exponent - fraction.count
      let count = whole.count + fraction.count
      let kept = count + min(shift, 0)
      // Accumulated as a negative number, so Int64.min fits.
      var value: Int64 = 0
      for place in 0..<count {
        let digit = Int64(
          text[place < whole.count ? whole.lowerBound + place : fraction.lowerBound + place - whole.count]
            &- UInt8(ascii: "0"))
        if place >= kept {
          guard digit == 0 else { return nil }
          continue
        }
        let (times, overflow) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflowed) = times.subtractingReportingOverflow(digit)
        guard !overflow, !overflowed else { return nil }
        value = sum
      }
      for _ in 0..<max(shift, 0) where value != 0 {
        let (times, overflow) = value.multipliedReportingOverflow(by: 10)
        guard !overflow else { return nil }
        value = times
      }
      if negative { return value }
      return value == .min ? nil : -value
    }
  }
}

/// An array position in a coding path.
struct IndexKey: CodingKey {
  var intValue: Int?
  var stringValue: String { intValue.map(String.init) ?? "" }
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}
