import Foundation

/// Why bytes could not be read as a CloudKit Web Services document; see ``WireJSON/check(_:maximumDepth:)`` and
/// ``Record/init(wireJSON:)``. Offsets count bytes from the start of the data.
public enum WireJSONError: Error, Sendable, Hashable, DescribedError {
  /// The bytes at `offset` are not valid UTF-8.
  case invalidUTF8(offset: Int)
  /// The text is not JSON at `offset`: `expected` says what the grammar wanted there.
  case syntax(offset: Int, expected: String)
  /// An object repeats `key` (at `offset`). JSON parsers disagree on which copy wins, so the document is refused
  /// rather than read one way here and another way elsewhere.
  case duplicateKey(String, offset: Int)
  /// Arrays and objects nest deeper than `limit` at `offset`. A CloudKit record needs about six levels.
  case nestedTooDeep(offset: Int, limit: Int)
  /// `NaN`, `Infinity` or `-Infinity` at `offset`: JSON has no such numbers, and CloudKit stores none.
  case nonFiniteNumber(String, offset: Int)
  /// The number at `offset` is too large for a `Double`.
  case numberOutOfRange(String, offset: Int)
  /// An escape at `offset` is malformed or names half a surrogate pair.
  case invalidEscape(offset: Int)
  /// The JSON is well formed but is not a valid record: `path` is the field path, `reason` what is wrong there.
  case invalidRecord(path: String, reason: String)
  /// The JSON is well formed but is not a valid Web Services body of the kind named by `subject` (such as
  /// `records/modify response`): `path` is where in the body, `reason` what is wrong there.
  case invalidBody(String, path: String, reason: String)

  /// A sentence naming what is wrong and where.
  public var description: String {
    switch self {
    case .invalidUTF8(let offset): return "JSON is not valid UTF-8 at byte \(offset)"
    case .syntax(let offset, let expected): return "JSON syntax error at byte \(offset): expected \(expected)"
    case .duplicateKey(let key, let offset): return "JSON object repeats the key \"\(key)\" at byte \(offset)"
    case .nestedTooDeep(let offset, let limit):
      return "JSON nests arrays and objects deeper than \(limit) levels at byte \(offset)"
    case .nonFiniteNumber(let text, let offset): return "JSON has the non-finite number \(text) at byte \(offset)"
    case .numberOutOfRange(let text, let offset):
      return "JSON number \(text.prefix(40)) at byte \(offset) is out of range for a double"
    case .invalidEscape(let offset): return "JSON string has a malformed escape at byte \(offset)"
    case .invalidRecord(let path, let reason):
      return "record JSON is invalid at \(path.isEmpty ? "top level" : path): \(reason)"
    case .invalidBody(let subject, let path, let reason):
      return "\(subject) is invalid at \(path.isEmpty ? "top level" : path): \(reason)"
    }
  }
}
