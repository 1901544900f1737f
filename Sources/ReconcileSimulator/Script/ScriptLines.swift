/// A script's lines: split at `\n` or `\r\n` (a script saved on Windows reads as the same script; in a Swift string
/// `\r\n` is one character, which a split at `\n` alone never meets).
package enum ScriptLines {
  /// The lines of `text`, without their line breaks; a last empty line is kept, as a split keeps it.
  package static func split(_ text: some StringProtocol) -> [Substring] {
    Substring(text).split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
  }
}
