package import Foundation
package import ReconcileSimulator

/// What the playground reads from the world besides its arguments: files, lines of input, whether a person is at a
/// terminal, and whether colour is wanted. The executable passes ``process``; tests pass their own.
package struct PlaygroundEnvironment: Sendable {
  /// Reads a file by path.
  package var readFile: @Sendable (String) throws -> Data
  /// Reads one line of input without its newline, or `nil` at the end.
  package var readLine: @Sendable () -> String?
  /// Reads one line after a prompt with line editing and history (a terminal's); `nil` where input is not a
  /// terminal, and the REPL then prints its prompt and uses ``readLine``.
  package var editLine: (@Sendable (_ prompt: String) -> String?)?
  /// Whether input and output are a terminal: `repl` is then the default and prints a prompt.
  package var isInteractive: Bool
  /// Whether to colour output: only on a terminal, and never when `NO_COLOR` is set.
  package var usesColour: Bool
  /// Writes a file by path, creating its folder.
  package var writeFile: @Sendable (String, Data) throws -> Void
  /// The wall clock, for progress lines and time limits (never for what a simulation does).
  package var now: @Sendable () -> Date
  /// Whether standard error is a terminal: progress is then one line rewritten in place.
  package var progressIsTerminal: Bool
  /// How many seeds run at once by default: the machine's active processors.
  package var processorCount: Int
  /// Your own sync clients, which `--client NAME` and a script's `client NAME` may name besides the built-ins.
  package var clients: [ClientUnderTest] = []
  /// Your own resolvers, which `--resolver NAME` and a script's `resolver NAME` may name besides the built-ins.
  package var resolvers: [ResolverUnderTest] = []
  /// The command's name where the playground tells the user what to run next (`replay it: NAME replay FILE`):
  /// `reconcile-playground`, or your own executable's.
  package var commandName = "reconcile-playground"

  /// Creates an environment.
  /// - Parameters:
  ///   - readFile: Reads a file; the real file system unless given.
  ///   - readLine: Reads a line of input; none unless given.
  ///   - isInteractive: Whether a person is at a terminal; `false` unless given.
  ///   - usesColour: Whether to colour output; `false` unless given.
  ///   - writeFile: Writes a file; the real file system unless given.
  ///   - now: The wall clock; `Date()` unless given.
  ///   - progressIsTerminal: Whether standard error is a terminal; `false` unless given.
  ///   - processorCount: Seeds to run at once by default; 1 unless given.
  package init(
    readFile: @escaping @Sendable (String) throws -> Data = { try Data(contentsOf: URL(fileURLWithPath: $0)) },
    readLine: @escaping @Sendable () -> String? = { nil }, isInteractive: Bool = false, usesColour: Bool = false,
    writeFile: @escaping @Sendable (String, Data) throws -> Void = PlaygroundEnvironment.writeToDisk,
    now: @escaping @Sendable () -> Date = { Date() }, progressIsTerminal: Bool = false, processorCount: Int = 1
  ) {
    self.readFile = readFile
    self.readLine = readLine
    self.isInteractive = isInteractive
    self.usesColour = usesColour
    self.writeFile = writeFile
    self.now = now
    self.progressIsTerminal = progressIsTerminal
    self.processorCount = processorCount
  }

  /// Writes `data` to `path`, creating the folder it is in.
  /// - Parameters:
  ///   - path: The file.
  ///   - data: The bytes.
  /// - Throws: What the file system throws.
  @Sendable public static func writeToDisk(_ path: String, _ data: Data) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
  }

  /// The running process's: its files, standard input, and whether standard input and output are terminals; colour
  /// only when standard output is a terminal and `NO_COLOR` is unset (https://no-color.org).
  package static var process: PlaygroundEnvironment {
    let outputIsTerminal = isatty(STDOUT_FILENO) == 1
    let noColour = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    let interactive = outputIsTerminal && isatty(STDIN_FILENO) == 1
    var environment = PlaygroundEnvironment(
      readLine: { Swift.readLine(strippingNewline: true) }, isInteractive: interactive,
      usesColour: outputIsTerminal && !noColour, progressIsTerminal: isatty(STDERR_FILENO) == 1,
      processorCount: ProcessInfo.processInfo.activeProcessorCount)
    if interactive {
      let terminal = TerminalLineReader()
      environment.editLine = { terminal.readLine(prompt: $0) }
    }
    return environment
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
