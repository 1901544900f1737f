import Foundation

/// Where the playground writes: standard output in the executable, a buffer in tests.
public protocol TextOutput: AnyObject {
  /// Writes `text` followed by nothing; callers add their own newlines.
  func write(_ text: String)
}

/// Writes to the process's standard output.
public final class StandardOutput: TextOutput {
  /// Creates a writer for standard output.
  public init() {}

  /// Writes `text` to standard output.
  public func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}

/// Collects everything written, for tests.
public final class BufferedOutput: TextOutput {
  /// Everything written so far.
  public private(set) var text = ""

  /// Creates an empty buffer.
  public init() {}

  /// Appends `text` to the buffer.
  public func write(_ text: String) { self.text += text }
}
