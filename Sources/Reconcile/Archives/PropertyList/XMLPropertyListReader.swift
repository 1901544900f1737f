import Foundation

/// Reads XML property lists, including keyed-archive UIDs written as `<dict><key>CF$UID</key><integer>n</integer></dict>`.
///
/// A small recursive-descent parser over the plist vocabulary (`plist dict key array string integer real true false date
/// data`), with the five XML entities and numeric character references. Nesting deeper than
/// ``PropertyListLimits/maximumDepth`` is an error; no input traps.
struct XMLPropertyListReader {
  private let bytes: [UInt8]
  private var position = 0

  static func looksLikeXML(_ data: Data) -> Bool {
    let head = String(decoding: data.prefix(256), as: UTF8.self)
    return head.contains("<?xml") || head.contains("<plist")
  }

  static func parse(_ data: Data) throws(PropertyListFailure) -> PropertyList {
    var reader = XMLPropertyListReader(bytes: Array(data))
    return try reader.document()
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private func fail(_ reason: String) -> PropertyListFailure { PropertyListFailure(offset: position, reason: reason) }

  private mutating func document() throws(PropertyListFailure) -> PropertyList {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    try skipMisc()
    guard case .open(let name, let selfClosing) = try tag(), name == "plist", !selfClosing else {
      throw fail("expected <plist>")
    }
    let value = try self.value(depth: 0)
    try skipMisc()
    guard case .close("plist") = try tag() else { throw fail("expected </plist>") }
    try skipMisc()
    guard position == bytes.count else { throw fail("unexpected content after </plist>") }
    return value
  }

  private enum Tag: Equatable {
    case open(String, selfClosing: Bool)
    case close(String)
  }

  /// Skips whitespace, comments, processing instructions and the DOCTYPE.
  private mutating func skipMisc() throws(PropertyListFailure) {
    while true {
      while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
      guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "<") else { return }
      let next = bytes[position + 1]
      if next == UInt8(ascii: "?") {
        try skip(past: Self.piEnd)
      } else if next == UInt8(ascii: "!") {
        try skip(past: starts(with: Self.commentStart) ? Self.commentEnd : Self.declarationEnd)
      } else {
        return
      }
    }
  }

  private static let piEnd = Array("?>".utf8)
  private static let commentStart = Array("<!--".utf8)
  private static let commentEnd = Array("-->".utf8)
  private static let declarationEnd = Array(">".utf8)
  private static let closingTagStart = Array("</".utf8)

  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  private static func endsTagName(_ byte: UInt8) -> Bool {
    isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
  }

  private func starts(with needle: [UInt8]) -> Bool {
    return position + needle.count <= bytes.count && bytes[position..<(position + needle.count)].elementsEqual(needle)
  }

  private mutating func skip(past needle: [UInt8]) throws(PropertyListFailure) {
    while position + needle.count <= bytes.count {
      if bytes[position..<(position + needle.count)].elementsEqual(needle) {
        position += needle.count
        return
      }
      position += 1
    }
    throw fail("unterminated markup, expected \(String(decoding: needle, as: UTF8.self))")
  }

  private mutating func tag() throws(PropertyListFailure) -> Tag {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else { throw fail("expected a tag") }
    position += 1
    let closing = position < bytes.count && bytes[position] == UInt8(ascii: "/")
    if closing { position += 1 }
    let nameStart = position
    while position < bytes.count, !Self.endsTagName(bytes[position]) { position += 1 }
    let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
    guard !name.isEmpty else { throw fail("empty tag name") }
    // Attributes (such as plist's version) are skipped.
    var selfClosing = false
    while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
      selfClosing = bytes[position] == UInt8(ascii: "/")
      position += 1
    }
    guard position < bytes.count else { throw fail("unterminated tag <\(name)") }
    position += 1
    return closing ? .close(name) : .open(name, selfClosing: selfClosing)
  }

  private mutating func value(depth: Int) throws(PropertyListFailure) -> PropertyList {
    guard depth <= PropertyListLimits.maximumDepth else {
      throw fail("nesting deeper than \(PropertyListLimits.maximumDepth) levels")
    }
    try skipMisc()
    let start = position
    guard case .open(let name, let selfClosing) = try tag() else { throw fail("expected a value, found a closing tag") }
    switch name {
    case "true", "false":
      if !selfClosing { try close(name) }
      return .bool(name == "true")
    case "dict":
      var dict: [String: PropertyList] = [:]
      if selfClosing { return .dictionary(dict) }
      while true {
        try skipMisc()
        if starts(with: Self.closingTagStart) {
          try close("dict")
          break
        }
        guard case .open("key", let emptyKey) = try tag() else { throw fail("expected <key> in <dict>") }
        let key = emptyKey ? "" : try text(closing: "key")
        dict[key] = try value(depth: depth + 1)
      }
      if dict.count == 1, case .integer(let uid)? = dict["CF$UID"], uid >= 0 { return .uid(UInt64(uid)) }
      return .dictionary(dict)
    case "array":
      var items: [PropertyList] = []
      if selfClosing { return .array(items) }
      while true {
        try skipMisc()
        if starts(with: Self.closingTagStart) {
          try close("array")
          break
        }
        items.append(try value(depth: depth + 1))
      }
      return .array(items)
    case "string", "key":
      return .string(selfClosing ? "" : try text(closing: name))
    case "integer":
      let text = selfClosing ? "" : try text(closing: name).trimmingCharacters(in: .whitespacesAndNewlines)
      guard let v = Int64(text) else {
        throw PropertyListFailure(offset: start, reason: "invalid integer \"\(text.prefix(40))\"")
      }
      return .integer(v)
    case "real":
      let text = selfClosing ? "" : try text(closing: name).trimmingCharacters(in: .whitespacesAndNewlines)
      guard let v = Double(text) else {
        throw PropertyListFailure(offset: start, reason: "invalid real \"\(text.prefix(40))\"")
      }
      return .real(v)
    case "date":
      let text = selfClosing ? "" : try text(closing: name).trimmingCharacters(in: .whitespacesAndNewlines)
      guard let date = try? Date(text, strategy: .iso8601) else {
        throw PropertyListFailure(offset: start, reason: "invalid date \"\(text.prefix(40))\"")
      }
      return .date(date)
    case "data":
      let text = selfClosing ? "" : try text(closing: name)
      let compact = text.filter { !$0.isWhitespace }
      guard let data = Data(base64Encoded: compact) else {
        throw PropertyListFailure(offset: start, reason: "invalid base64 data")
      }
      return .data(data)
    default:
      throw PropertyListFailure(offset: start, reason: "unknown element <\(name)>")
    }
  }

  private mutating func close(_ name: String) throws(PropertyListFailure) {
    try skipMisc()
    guard case .close(let found) = try tag(), found == name else { throw fail("expected </\(name)>") }
  }

  /// Character data up to `</name>`, with entities decoded.
  private mutating func text(closing name: String) throws(PropertyListFailure) -> String {
    var out: [UInt8] = []
    while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
      if bytes[position] == UInt8(ascii: "&") {
        out.append(contentsOf: try entity())
      } else {
        out.append(bytes[position])
        position += 1
      }
    }
    guard let text = UTF8Text.string(validating: out) else { throw fail("text is not valid UTF-8") }
    guard case .close(let found) = try tag(), found == name else { throw fail("expected </\(name)>") }
    return text
  }

  private mutating func entity() throws(PropertyListFailure) -> [UInt8] {
    let start = position
    var end = position
    while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
    guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { throw fail("unterminated entity") }
    let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
    position = end + 1
    switch name {
    case "amp": return Array("&".utf8)
    case "lt": return Array("<".utf8)
    case "gt": return Array(">".utf8)
    case "quot": return Array("\"".utf8)
    case "apos": return Array("'".utf8)
    default:
      let number: UInt32?
      if name.hasPrefix("#x") {
        number = UInt32(name.dropFirst(2), radix: 16)
      } else if name.hasPrefix("#") {
        number = UInt32(name.dropFirst(1))
      } else {
        number = nil
      }
      guard let number, let scalar = Unicode.Scalar(number) else {
        throw PropertyListFailure(offset: start, reason: "unknown entity &\(name);")
      }
      return Array(String(Character(scalar)).utf8)
    }
  }
}
