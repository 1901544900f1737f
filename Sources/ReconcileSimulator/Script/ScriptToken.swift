/// One word of a script line: quoted text and bracketed lists stay whole, so `title="a b"` and `tags=[a, b]` are one
/// token each.
package struct ScriptToken: Sendable, Hashable, CustomStringConvertible {
  /// The token as written, quotes and brackets included.
  package var text: String
  /// Its 1-based column in the line, for error messages.
  package var column: Int

  /// The token as written.
  package var description: String { text }

  /// Splits `line` into tokens at whitespace outside quotes and brackets; `#` outside quotes starts a comment.
  /// - Parameter line: One line of a script, without its newline.
  /// - Returns: The tokens, empty for a blank or comment-only line.
  /// - Throws: ``ScriptError`` for an unterminated quote or an unbalanced bracket, naming the column.
  /// - Complexity: O(*n*) in the line's length.
  package static func split(_ line: String) throws(ScriptError) -> [ScriptToken] {
    var tokens: [ScriptToken] = []
    var current = ""
    var start = 0
    var depth = 0
    var quoteStart: Int?
    var escaped = false
    var bracketStart: [Int] = []
    for (offset, character) in line.enumerated() {
      let column = offset + 1
      if quoteStart != nil {
        current.append(character)
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          quoteStart = nil
        }
        continue
      }
      switch character {
      case "#" where depth == 0:
        return try finish(tokens, current, start, depth: depth, bracketStart: bracketStart)
      case "\"":
        if current.isEmpty { start = column }
        quoteStart = column
        current.append(character)
      case "[":
        if current.isEmpty { start = column }
        depth += 1
        bracketStart.append(column)
        current.append(character)
      case "]":
        guard depth > 0 else { throw ScriptError("unbalanced ']' at column \(column)", token: current + "]") }
        depth -= 1
        bracketStart.removeLast()
        current.append(character)
      case _ where character.isWhitespace && depth == 0:
        if !current.isEmpty { tokens.append(ScriptToken(text: current, column: start)) }
        current = ""
      default:
        if current.isEmpty { start = column }
        current.append(character)
      }
    }
    if let quoteStart { throw ScriptError("unterminated quote starting at column \(quoteStart)", token: current) }
    return try finish(tokens, current, start, depth: depth, bracketStart: bracketStart)
  }

  private static func finish(
    _ tokens: [ScriptToken], _ current: String, _ start: Int, depth: Int, bracketStart: [Int]
  ) throws(ScriptError) -> [ScriptToken] {
    if depth > 0, let open = bracketStart.last { throw ScriptError("unclosed '[' at column \(open)", token: current) }
    var tokens = tokens
    if !current.isEmpty { tokens.append(ScriptToken(text: current, column: start)) }
    return tokens
  }
}
