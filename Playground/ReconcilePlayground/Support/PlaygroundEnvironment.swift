public import Foundation

/// What the playground reads from the world besides its arguments: files, lines of input, whether a person is at a
/// terminal, and whether colour is wanted. The executable passes ``process``; tests pass their own.
public struct PlaygroundEnvironment: Sendable {
  /// Reads a file by path.
  public var readFile: @Sendable (String) throws -> Data
  /// Reads one line of input without its newline, or `nil` at the end.
  public var readLine: @Sendable () -> String?
  /// Whether input and output are a terminal: `repl` is then the default and prints a prompt.
  public var isInteractive: Bool
  /// Whether to colour output: only on a terminal, and never when `NO_COLOR` is set.
  public var usesColour: Bool

  /// Creates an environment.
  /// - Parameters:
  ///   - readFile: Reads a file; the real file system unless given.
  ///   - readLine: Reads a line of input; none unless given.
  ///   - isInteractive: Whether a person is at a terminal; `false` unless given.
  ///   - usesColour: Whether to colour output; `false` unless given.
  public init(
    readFile: @escaping @Sendable (String) throws -> Data = { try Data(contentsOf: URL(fileURLWithPath: $0)) },
    readLine: @escaping @Sendable () -> String? = { nil }, isInteractive: Bool = false, usesColour: Bool = false
  ) {
    self.readFile = readFile
    self.readLine = readLine
    self.isInteractive = isInteractive
    self.usesColour = usesColour
  }

  /// The running process's: its files, standard input, and whether standard input and output are terminals; colour
  /// only when standard output is a terminal and `NO_COLOR` is unset (https://no-color.org).
  public static var process: PlaygroundEnvironment {
    let outputIsTerminal = isatty(STDOUT_FILENO) == 1
    let noColour = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    return PlaygroundEnvironment(
      readLine: { Swift.readLine(strippingNewline: true) },
      isInteractive: outputIsTerminal && isatty(STDIN_FILENO) == 1,
      usesColour: outputIsTerminal && !noColour)
  }
}

/// ANSI colour for terminals, or plain text when colour is off.
struct Style: Sendable {
  var enabled: Bool

  func bold(_ text: String) -> String { wrap(text, "1") }
  func red(_ text: String) -> String { wrap(text, "31") }
  func green(_ text: String) -> String { wrap(text, "32") }
  func dim(_ text: String) -> String { wrap(text, "2") }

  private func wrap(_ text: String, _ code: String) -> String {
    enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// Colours a command's output: `ok:` green, `expectation failed` and `error:` red, the rest plain.
  func result(_ text: String) -> String {
    guard enabled else { return text }
    if text.hasPrefix("ok:") { return green(text) }
    if text.hasPrefix("expectation failed") || text.hasPrefix("error:") { return red(text) }
    return text
  }
}
