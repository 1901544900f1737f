import Foundation
import Reconcile

/// What is wrong with a line of the script language (REPL, `run`, replay scripts), or with carrying it out: the message names the offending token. Where
/// the line came from is the caller's to say (`run` prefixes `FILE:LINE:`).
package struct ScriptError: Error, Sendable, Hashable, DescribedError {
  /// What is wrong, naming the token and, for a misspelling, the nearest correct word.
  package var message: String
  /// The word the parser was reading when it found the problem, when there was one: what a replay script's
  /// ``SimulationScript/ParseError`` names.
  package var token: String?

  /// The longest message kept whole; a longer one (quoting a huge token) keeps its start and says how long it was.
  package static let longestMessage = 400

  /// Creates an error.
  /// - Parameters:
  ///   - message: What is wrong. Past ``longestMessage`` characters it is cut short.
  ///   - token: The offending word, when there is one.
  package init(_ message: String, token: String? = nil) {
    self.token = token
    let length = message.count
    self.message =
      length <= Self.longestMessage
      ? message : "\(message.prefix(Self.longestMessage - 40))… (\(length) characters in all)"
  }

  /// The message.
  package var description: String { message }

  /// The message as printed: a failed `expect` says so itself; anything else is prefixed `error: `.
  package var report: String { isFailedExpectation ? message : "error: \(message)" }

  /// Whether this is a failed `expect` rather than a command that could not be carried out.
  package var isFailedExpectation: Bool { message.hasPrefix("expectation failed") }

  /// The same error with `text` added to its message.
  package func adding(_ text: String) -> ScriptError { ScriptError(message + text, token: token) }

  /// An "unknown WORD" error that lists the nearest of `choices` when one is close.
  package static func unknown(_ what: String, _ word: String, choices: [String]) -> ScriptError {
    var message = "unknown \(what) '\(word)'"
    if let guess = Suggestion.closest(to: word, in: choices) {
      message += "; did you mean '\(guess)'?"
    } else {
      // Nothing close: the valid words (each once), so the reader need not look them up.
      var unique: [String] = []
      for choice in choices where !unique.contains(choice) { unique.append(choice) }
      if !unique.isEmpty, unique.count <= 16 {
        message += "; expected \(unique.count == 1 ? "" : "one of ")\(unique.joined(separator: ", "))"
      }
    }
    return ScriptError(message, token: word)
  }
}
