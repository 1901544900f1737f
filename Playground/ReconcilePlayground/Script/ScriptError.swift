/// What is wrong with a script or REPL line, or with carrying it out: the message names the offending token, and the
/// line number (1-based, 0 when unknown) says where it was.
public struct ScriptError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The 1-based line the problem is on; 0 for a line typed at the REPL or not known.
  public var line: Int
  /// What is wrong, naming the token and, for a misspelling, the nearest correct word.
  public var message: String

  /// Creates an error.
  /// - Parameters:
  ///   - message: What is wrong.
  ///   - line: The 1-based line, 0 unless given.
  public init(_ message: String, line: Int = 0) {
    self.message = message
    self.line = line
  }

  /// The message.
  public var description: String { message }

  /// An "unknown WORD" error that lists the nearest of `choices` when one is close.
  static func unknown(_ what: String, _ word: String, choices: [String]) -> ScriptError {
    var message = "unknown \(what) '\(word)'"
    if let guess = Suggestion.closest(to: word, in: choices) { message += "; did you mean '\(guess)'?" }
    return ScriptError(message)
  }
}
