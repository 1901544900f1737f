import Foundation

/// Where the playground writes: standard output in the executable, a buffer in tests.
package protocol TextOutput: AnyObject {
  /// Writes a result: `text` followed by nothing; callers add their own newlines.
  func write(_ text: String)
  /// Writes an error or a usage message, which go to standard error.
  func writeError(_ text: String)
}

/// Writes to the process's standard output.
package final class StandardOutput: TextOutput {
  /// Creates a writer for standard output.
  package init() {}

  /// Writes `text` to standard output.
  package func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// Writes `text` to standard error.
  package func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}

/// Collects everything written, for tests: results and errors apart, and both in the order written.
package final class BufferedOutput: TextOutput {
  /// Everything written so far, results and errors interleaved as a terminal shows them.
  package private(set) var text = ""
  /// The results: what went to standard output.
  package private(set) var standardOutput = ""
  /// The errors and usage messages: what went to standard error.
  package private(set) var standardError = ""

  /// Creates an empty buffer.
  package init() {}

  /// Appends a result.
  package func write(_ text: String) {
    self.text += text
    standardOutput += text
  }

  /// Appends an error.
  package func writeError(_ text: String) {
    self.text += text
    standardError += text
  }
}
