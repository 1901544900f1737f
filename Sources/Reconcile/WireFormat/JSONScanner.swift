/// What a scan hands on as it reads, in document order: nothing for a check (``JSONCheckOnly``), the values for a tree
/// (``JSONTree/Builder``).
protocol JSONScanOutput {
  /// Whether the text of string values is wanted; keys are always read, for the repeated-key check.
  static var keepsValues: Bool { get }
  /// An array or object opens; its elements follow, then ``close()``.
  mutating func open(isObject: Bool)
  mutating func close()
  /// An object's next key; its value follows.
  mutating func key(_ key: String)
  mutating func string(_ text: String)
  /// `true`, `false`, or `null` (`nil`).
  mutating func literal(_ value: Bool?)
  /// A number's text, checked; `isInteger` when it has neither a fraction nor an exponent.
  mutating func number(_ text: UnsafeRawBufferPointer, isInteger: Bool)
}

/// The output of a check: nothing.
struct JSONCheckOnly: JSONScanOutput {
  static var keepsValues: Bool { false }
  @inline(__always) mutating func open(isObject: Bool) {}
  @inline(__always) mutating func close() {}
  @inline(__always) mutating func key(_ key: String) {}
  @inline(__always) mutating func string(_ text: String) {}
  @inline(__always) mutating func literal(_ value: Bool?) {}
  @inline(__always) mutating func number(_ text: UnsafeRawBufferPointer, isInteger: Bool) {}
}

/// One pass over JSON text with an explicit stack instead of recursion, so no input can exhaust the call stack. It
/// checks the grammar (RFC 8259), UTF-8, escapes, number ranges and repeated keys, keeping only the keys of the objects
/// still open, and hands each value to its `Output` as it goes: ``WireJSON/check(_:maximumDepth:)`` keeps nothing,
/// ``JSONTree`` keeps a tree the typed decoders read.
struct JSONScanner<Output: JSONScanOutput> {
  private let bytes: UnsafeRawBufferPointer
  private let maximumDepth: Int
  private var offset = 0
  /// One entry per open container: `true` for an object.
  private var openObjects: [Bool] = []
  /// The keys seen so far in the open objects; ``objects`` says where each object's start, innermost last.
  private var keys = KeySet()
  private var objects: [KeySet.Object] = []
  /// Whether the last string read had no escapes and only ASCII bytes, so its bytes are its text.
  private var lastStringWasPlain = false
  /// What the scan read, for the caller.
  var output: Output

  init(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int, output: Output) {
    self.bytes = bytes
    self.maximumDepth = max(maximumDepth, 1)
    self.output = output
  }

  mutating func scanDocument() throws(WireJSONError) {
    var needValue = true
    while true {
      if needValue {
        needValue = try scanValue()
        if needValue { continue }
      }
      // A value just ended: close containers or move to the next element.
      guard let isObject = openObjects.last else { break }
      skipWhitespace()
      switch (isObject, peek()) {
      case (false, UInt8(ascii: ",")?), (true, UInt8(ascii: ",")?):
        offset += 1
        if isObject { try scanKey() }
        needValue = true
      case (false, UInt8(ascii: "]")?), (true, UInt8(ascii: "}")?):
        offset += 1
        close()
      default:
        throw .syntax(offset: offset, expected: isObject ? "',' or '}'" : "',' or ']'")
      }
    }
    skipWhitespace()
    guard offset == bytes.count else { throw .syntax(offset: offset, expected: "the end of the document") }
  }

  // MARK: Values

  /// Reads a scalar whole, or opens a container. Returns `true` when a container was opened that has an element
  /// to read next (an object's first key and colon are already read).
  private mutating func scanValue() throws(WireJSONError) -> Bool {
    skipWhitespace()
    guard let byte = peek() else { throw .syntax(offset: offset, expected: "a value") }
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let isObject = byte == UInt8(ascii: "{")
      guard openObjects.count < maximumDepth else { throw .nestedTooDeep(offset: offset, limit: maximumDepth) }
      offset += 1
      openObjects.append(isObject)
      output.open(isObject: isObject)
      if isObject { objects.append(keys.open()) }
      skipWhitespace()
      if peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
        offset += 1
        close()
        return false
      }
      if isObject { try scanKey() }
      return true
    case UInt8(ascii: "\""):
      let text = try scanString(keeping: Output.keepsValues)
      output.string(text)
    case UInt8(ascii: "t"):
      try scanLiteral("true")
      output.literal(true)
    case UInt8(ascii: "f"):
      try scanLiteral("false")
      output.literal(false)
    case UInt8(ascii: "n"):
      try scanLiteral("null")
      output.literal(nil)
    case UInt8(ascii: "N"): try scanNonFinite("NaN")
    case UInt8(ascii: "I"): try scanNonFinite("Infinity")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
    default: throw .syntax(offset: offset, expected: "a value")
    }
    return false
  }

  private mutating func close() {
    if openObjects.removeLast() { keys.close(objects.removeLast()) }
    output.close()
  }

  /// A key, checked against the others of its object, and the colon after it.
  private mutating func scanKey() throws(WireJSONError) {
    skipWhitespace()
    let start = offset
    guard peek() == UInt8(ascii: "\"") else { throw .syntax(offset: offset, expected: "a string key") }
    let key = try scanString(keeping: true)
    let text = UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<(offset - 1)])
    let fingerprint = lastStringWasPlain ? KeySet.fingerprint(text) : nil
    guard keys.insert(key, fingerprint: fingerprint, into: &objects[objects.count - 1]) else {
      throw .duplicateKey(key, offset: start)
    }
    output.key(key)
    skipWhitespace()
    guard peek() == UInt8(ascii: ":") else { throw .syntax(offset: offset, expected: "':'") }
    offset += 1
  }

  private mutating func scanLiteral(_ word: StaticString) throws(WireJSONError) {
    let count = word.utf8CodeUnitCount
    guard bytes.count - offset >= count else { throw .syntax(offset: offset, expected: "\(word)") }
    let start = word.utf8Start
    for i in 0..<count where bytes[offset + i] != start[i] {
      throw .syntax(offset: offset, expected: "\(word)")
    }
    offset += count
  }

  private mutating func scanNonFinite(_ word: StaticString) throws(WireJSONError) {
    let start = offset
    try scanLiteral(word)
    throw .nonFiniteNumber("\(word)", offset: start)
  }

  // MARK: Numbers

  private mutating func scanNumber() throws(WireJSONError) {
    let start = offset
    if peek() == UInt8(ascii: "-") {
      offset += 1
      if peek() == UInt8(ascii: "I") {
        try scanLiteral("Infinity")
        throw .nonFiniteNumber("-Infinity", offset: start)
      }
    }
    let integerStart = offset
    guard let first = peek(), isDigit(first) else { throw .syntax(offset: offset, expected: "a digit") }
    offset += 1
    if first != UInt8(ascii: "0") { skipDigits() }
    let integerDigits = offset - integerStart
    var hasExponent = false
    let hasFraction = peek() == UInt8(ascii: ".")
    if hasFraction {
      offset += 1
      guard let d = peek(), isDigit(d) else { throw .syntax(offset: offset, expected: "a digit after '.'") }
      skipDigits()
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      hasExponent = true
      offset += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
      guard let d = peek(), isDigit(d) else { throw .syntax(offset: offset, expected: "a digit in the exponent") }
      skipDigits()
    }
    let number = UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
    // Only a long integer part or an exponent can overflow a Double; parse just those.
    if hasExponent || integerDigits > 308 {
      let text = String(decoding: number, as: UTF8.self)
      guard let value = Double(text), value.isFinite else { throw .numberOutOfRange(text, offset: start) }
    }
    output.number(number, isInteger: !hasFraction && !hasExponent)
  }

  private mutating func skipDigits() {
    while let d = peek(), isDigit(d) { offset += 1 }
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  // MARK: Strings

  /// Reads a string from its opening quote. With `keeping`, returns its decoded text; otherwise only checks it and
  /// returns "". Text without escapes (nearly all of it) is made a `String` once, straight from the bytes.
  private mutating func scanString(keeping: Bool) throws(WireJSONError) -> String {
    offset += 1  // the opening quote
    let start = offset
    var ascii = true
    while true {
      guard let byte = peek() else { throw .syntax(offset: offset, expected: "'\"' to end the string") }
      switch byte {
      case UInt8(ascii: "\""):
        let text =
          keeping ? String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self) : ""
        offset += 1
        lastStringWasPlain = ascii
        return text
      case UInt8(ascii: "\\"):
        lastStringWasPlain = false
        return try scanEscapedString(from: start, keeping: keeping)
      case 0..<0x20:
        throw .syntax(offset: offset, expected: "a control character to be escaped")
      case 0x20..<0x80:
        offset += 1
      default:
        ascii = false
        offset += try utf8SequenceLength()
      }
    }
  }

  /// The rest of a string from its first escape, at `offset`; `start` is where its text began.
  private mutating func scanEscapedString(from start: Int, keeping: Bool) throws(WireJSONError) -> String {
    var text: [UInt8] = keeping ? Array(bytes[start..<offset]) : []
    while true {
      guard let byte = peek() else { throw .syntax(offset: offset, expected: "'\"' to end the string") }
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        return keeping ? String(decoding: text, as: UTF8.self) : ""
      case UInt8(ascii: "\\"):
        let scalar = try scanEscape()
        if keeping { text.append(contentsOf: String(scalar).utf8) }
      case 0..<0x20:
        throw .syntax(offset: offset, expected: "a control character to be escaped")
      case 0x20..<0x80:
        if keeping { text.append(byte) }
        offset += 1
      default:
        let length = try utf8SequenceLength()
        if keeping { text.append(contentsOf: bytes[offset..<(offset + length)]) }
        offset += length
      }
    }
  }

  /// `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, or `\uXXXX` (a surrogate pair as two).
  private mutating func scanEscape() throws(WireJSONError) -> Unicode.Scalar {
    let start = offset
    offset += 1
    guard let byte = peek() else { throw .invalidEscape(offset: start) }
    offset += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let unit = try hex4(start)
      switch unit {
      case 0xD800...0xDBFF:
        guard peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
          throw .invalidEscape(offset: start)
        }
        offset += 2
        let low = try hex4(start)
        guard (0xDC00...0xDFFF).contains(low) else { throw .invalidEscape(offset: start) }
        let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        guard let scalar = Unicode.Scalar(value) else { throw .invalidEscape(offset: start) }
        return scalar
      case 0xDC00...0xDFFF:
        throw .invalidEscape(offset: start)
      default:
        guard let scalar = Unicode.Scalar(unit) else { throw .invalidEscape(offset: start) }
        return scalar
      }
    default:
      throw .invalidEscape(offset: start)
    }
  }

  private mutating func hex4(_ escapeStart: Int) throws(WireJSONError) -> UInt16 {
    guard bytes.count - offset >= 4 else { throw .invalidEscape(offset: escapeStart) }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw .invalidEscape(offset: escapeStart)
      }
      value = value << 4 | UInt16(digit)
      offset += 1
    }
    return value
  }

  /// The length of the well-formed UTF-8 sequence of two to four bytes at `offset` (Unicode table 3-7: no overlong
  /// forms, no surrogates, nothing past U+10FFFF).
  private func utf8SequenceLength() throws(WireJSONError) -> Int {
    let lead = bytes[offset]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    default: throw .invalidUTF8(offset: offset)
    }
    guard bytes.count - offset >= length, secondRange.contains(bytes[offset + 1]) else {
      throw .invalidUTF8(offset: offset)
    }
    for i in 2..<length where !(0x80...0xBF).contains(bytes[offset + i]) {
      throw .invalidUTF8(offset: offset)
    }
    return length
  }

  // MARK: Bytes

  private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

  private mutating func skipWhitespace() {
    while let b = peek(), b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { offset += 1 }
  }
}
