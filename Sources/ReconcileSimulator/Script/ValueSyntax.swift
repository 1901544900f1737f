import Foundation
package import Reconcile

/// How a field value is written in a script, both ways: `"quoted"` or bare strings, integers, doubles, ISO 8601 dates,
/// `true`/`false` (stored as 1/0), `0x…` bytes, lists `[a, b]`, references `@Note/2` (`@!Note/2` deletes itself with its
/// target), and `nil` for "no value".
package enum ValueSyntax {
  /// The deepest list nesting a value may have; deeper input is refused rather than recursed into.
  package static let maximumDepth = 8

  /// Reads a value.
  /// - Parameter text: The text after `key=`.
  /// - Returns: The value, or `nil` for `nil` (remove the field).
  /// - Throws: ``ScriptError`` naming the text: a bad escape, an integer out of range, a date that is not ISO 8601, a
  ///   bad reference, odd hex digits, or lists nested too deep.
  /// - Complexity: O(*n*) in the text's length.
  package static func parse(_ text: String) throws(ScriptError) -> FieldValue? {
    if text == "nil" { return nil }
    return try value(Substring(text), depth: 0)
  }

  /// Writes `value` so that ``parse(_:)`` reads it back; `nil` is written `nil`.
  /// - Parameter value: A value, or `nil`.
  /// - Returns: Its script text.
  package static func render(_ value: FieldValue?) -> String {
    guard let value else { return "nil" }
    switch value {
    case .string(let string): return quoted(string)
    case .int64(let number): return String(number)
    case .double(let number): return String(number)
    case .timestamp(let date): return date.formatted(.iso8601)
    case .bytes(let data): return "0x" + data.map { String(format: "%02x", $0) }.joined()
    case .reference(let reference):
      return (reference.action == .deleteSelf ? "@!" : "@") + reference.recordID.recordName
    case .asset(let asset): return asset.description
    case .location(let location): return location.description
    case .list(let elements): return "[" + elements.map { render($0) }.joined(separator: ", ") + "]"
    }
  }

  /// `text` in double quotes with `"`, `\` and control characters escaped.
  package static func quoted(_ text: String) -> String {
    var result = "\""
    for character in text {
      switch character {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r\n": result += "\\r\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default: result.append(character)
      }
    }
    return result + "\""
  }

  private static func value(_ text: Substring, depth: Int) throws(ScriptError) -> FieldValue {
    guard let first = text.first else { throw ScriptError("empty value; write \"\" for an empty string") }
    switch first {
    case "\"": return .string(try unquote(text))
    case "[": return try list(text, depth: depth)
    case "@": return .reference(try reference(text))
    case "<": if let standIn = try EncryptedStandIn.parse(text) { return standIn }
    default: break
    }
    if text == "true" { return .int64(1) }
    if text == "false" { return .int64(0) }
    if isInteger(text) {
      guard let number = Int64(text) else { throw ScriptError("\(text): integer out of the 64-bit range") }
      return .int64(number)
    }
    if isDecimal(text), let number = Double(text) { return .double(number) }
    if text.hasPrefix("0x") { return .bytes(try bytes(text)) }
    if looksLikeDate(text) {
      guard let date = try? Date(String(text), strategy: .iso8601) else {
        throw ScriptError("\(text): not an ISO 8601 date such as 2026-11-21T09:30:00Z")
      }
      return .timestamp(date)
    }
    if let bad = text.first(where: { "\"[]".contains($0) }) {
      throw ScriptError("\(text): '\(bad)' in a bare string; put the string in double quotes")
    }
    if looksNumeric(text) {
      throw ScriptError("\(text): not a number; write \"\(text)\" to store it as text")
    }
    return .string(String(text))
  }

  /// Whether a bare word starts as a number does (a digit, or a sign or point before one): such a word that is not one
  /// is a typo more often than text, so it must be quoted to be text.
  private static func looksNumeric(_ text: Substring) -> Bool {
    let body = text.drop { $0 == "-" || $0 == "+" || $0 == "." }
    return body.first?.isASCII == true && body.first?.isNumber == true
  }

  private static func unquote(_ text: Substring) throws(ScriptError) -> String {
    guard text.count >= 2, text.last == "\"" else { throw ScriptError("\(text): unterminated quote") }
    var result = ""
    var escaped = false
    for character in text.dropFirst().dropLast() {
      if escaped {
        switch character {
        case "n": result.append("\n")
        case "r": result.append("\r")
        case "t": result.append("\t")
        case "\"", "\\": result.append(character)
        default: throw ScriptError("\(text): unknown escape '\\\(character)'; use \\\", \\\\, \\n, \\r or \\t")
        }
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        throw ScriptError("\(text): text after the closing quote")
      } else {
        result.append(character)
      }
    }
    if escaped { throw ScriptError("\(text): unterminated quote") }
    return result
  }

  private static func list(_ text: Substring, depth: Int) throws(ScriptError) -> FieldValue {
    guard depth < maximumDepth else { throw ScriptError("lists nested more than \(maximumDepth) deep") }
    guard text.last == "]" else { throw ScriptError("\(text): a list ends with ']'") }
    let inner = text.dropFirst().dropLast()
    guard inner.contains(where: { !$0.isWhitespace }) else { return .list([]) }
    var elements: [FieldValue] = []
    for part in try splitElements(inner) {
      let trimmed = part.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
      guard !trimmed.isEmpty else { throw ScriptError("\(text): empty list element") }
      let element = Substring(String(trimmed))
      guard element != "nil" else { throw ScriptError("\(text): nil cannot be a list element") }
      elements.append(try value(element, depth: depth + 1))
    }
    return .list(elements)
  }

  /// Splits a list's inside at commas that are outside quotes and nested brackets.
  private static func splitElements(_ inner: Substring) throws(ScriptError) -> [Substring] {
    var parts: [Substring] = []
    var depth = 0
    var inQuote = false
    var escaped = false
    var start = inner.startIndex
    var index = inner.startIndex
    while index < inner.endIndex {
      let character = inner[index]
      if inQuote {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inQuote = false
        }
      } else if character == "\"" {
        inQuote = true
      } else if character == "[" {
        depth += 1
      } else if character == "]" {
        depth -= 1
      } else if character == "," && depth == 0 {
        parts.append(inner[start..<index])
        start = inner.index(after: index)
      }
      index = inner.index(after: index)
    }
    parts.append(inner[start..<inner.endIndex])
    return parts
  }

  private static func reference(_ text: Substring) throws(ScriptError) -> Reference {
    var rest = text.dropFirst()
    var action = Reference.Action.none
    if rest.first == "!" {
      action = .deleteSelf
      rest = rest.dropFirst()
    }
    // `@Note/2` names the type for the reader; a reference holds only the record name.
    let name = rest.contains("/") ? String(rest.drop(while: { $0 != "/" }).dropFirst()) : String(rest)
    do {
      return Reference(recordID: try RecordID(recordName: name, zoneID: Simulation.zoneID), action: action)
    } catch {
      throw ScriptError("\(text): not a reference (write @Type/name): \(error)")
    }
  }

  private static func bytes(_ text: Substring) throws(ScriptError) -> Data {
    let digits = Array(text.dropFirst(2).utf8)
    guard digits.count % 2 == 0 else { throw ScriptError("\(text): bytes need an even number of hex digits") }
    var data = Data(capacity: digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = hexDigit(digits[index]), let low = hexDigit(digits[index + 1]) else {
        throw ScriptError("\(text): not hex digits")
      }
      data.append(high << 4 | low)
      index += 2
    }
    return data
  }

  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x61...0x66: byte - 0x61 + 10
    case 0x41...0x46: byte - 0x41 + 10
    default: nil
    }
  }

  private static func isInteger(_ text: Substring) -> Bool {
    let digits = text.first == "-" ? text.dropFirst() : text
    return !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit)
  }

  /// Digits with a point or an exponent: `1.5`, `-2e3`. Version-like text such as `1.0.0` is not a decimal.
  private static func isDecimal(_ text: Substring) -> Bool {
    let body = text.first == "-" ? text.dropFirst() : text
    guard let first = body.first, first.isASCIIDigit else { return false }
    guard body.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else { return false }
    return body.filter { $0 == "." }.count <= 1 && body.allSatisfy { $0.isASCIIDigit || ".eE+-".contains($0) }
  }

  /// Four digits and a dash, then a `T`: the shape of an ISO 8601 date and time.
  private static func looksLikeDate(_ text: Substring) -> Bool {
    let head = Array(text.prefix(5))
    return head.count == 5 && head[0..<4].allSatisfy(\.isASCIIDigit) && head[4] == "-" && text.contains("T")
  }
}

extension Character {
  /// Whether this is one of `0`…`9`.
  var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
