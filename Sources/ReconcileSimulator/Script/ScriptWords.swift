/// A cursor over a line's tokens.
struct Words {
  private var tokens: [ScriptToken]
  private var index = 0

  init(_ tokens: [ScriptToken]) { self.tokens = tokens }

  /// The last word read, for messages.
  var previous: String { index > 0 ? tokens[index - 1].text : "" }

  /// Whether words are left.
  var hasMore: Bool { index < tokens.count }

  mutating func next() -> String? {
    guard index < tokens.count else { return nil }
    index += 1
    return tokens[index - 1].text
  }

  /// The next word. Throws: ``ScriptError`` saying what was expected after the last word.
  mutating func required(_ what: String) throws(ScriptError) -> String {
    guard let word = next() else { throw ScriptError("expected \(what) after '\(previous)'") }
    return word
  }

  mutating func expect(_ word: String, after: String) throws(ScriptError) {
    let found = try required("'\(word)'")
    guard found == word else { throw ScriptError("expected '\(word)' after '\(after)', found '\(found)'") }
  }

  /// Throws: ``ScriptError`` naming the first word left over.
  func finish() throws(ScriptError) {
    guard index < tokens.count else { return }
    throw ScriptError("unexpected '\(tokens[index].text)' at column \(tokens[index].column)")
  }
}
