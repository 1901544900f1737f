import ReconcileSimulator

/// A subcommand's arguments: `--name value` options, `--flag` switches and positional words, with errors that name the
/// offending token.
struct CommandLineOptions {
  /// A usage error: what is wrong, naming the token.
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  private(set) var values: [String: String] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positional: [String] = []

  /// Reads `arguments`.
  /// - Parameters:
  ///   - arguments: The words after the subcommand.
  ///   - valued: Options that take a value, with their dashes (`--seed`).
  ///   - switches: Options that take none (`--json`).
  /// - Throws: ``Problem`` for an unknown option (with a suggestion) or a missing value.
  init(_ arguments: [String], valued: Set<String>, switches: Set<String>) throws(Problem) {
    var rest = arguments[...]
    while let word = rest.popFirst() {
      if valued.contains(word) {
        guard let value = rest.popFirst() else { throw Problem(description: "\(word) needs a value") }
        values[word] = value
      } else if switches.contains(word) {
        flags.insert(word)
      } else if word.hasPrefix("--") {
        var message = "unknown option \(word)"
        if let guess = Suggestion.closest(to: word, in: Array(valued.union(switches)).sorted()) {
          message += "; did you mean \(guess)?"
        }
        throw Problem(description: message)
      } else {
        positional.append(word)
      }
    }
  }

  /// The integer value of `option`, `fallback` when absent.
  /// - Throws: ``Problem`` naming the option and the value when it is not an integer in `range`.
  func integer(_ option: String, default fallback: Int, in range: ClosedRange<Int>) throws(Problem) -> Int {
    guard let text = values[option] else { return fallback }
    guard let number = Int(text), range.contains(number) else {
      throw Problem(
        description: "\(option) \(text): expected an integer from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }
}
