import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a line from a terminal with ``LineEditor``'s editing and history: it puts the terminal in raw mode for the
/// line (no echo, key by key, Ctrl-C as a key) and restores it before returning, so what the REPL prints in between
/// looks as usual. Switching keeps what was typed or pasted ahead (`TCSADRAIN`, not `TCSAFLUSH`), so a counterexample
/// pasted line by line arrives whole. Where the terminal cannot be put in raw mode it reads a plain line instead.
final class TerminalLineReader: @unchecked Sendable {
  // @unchecked: the REPL reads one line at a time; the lock keeps the editor to one reader anyway.
  private var editor = LineEditor()
  private let lock = NSLock()

  /// Reads one line after `prompt`; `nil` at the end of input (Ctrl-D on an empty line, or standard input closed).
  func readLine(prompt: String) -> String? {
    lock.lock()
    defer { lock.unlock() }
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else {
      write(prompt)
      return Swift.readLine(strippingNewline: true)
    }
    var raw = original
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) == 0 else {
      write(prompt)
      return Swift.readLine(strippingNewline: true)
    }
    defer { _ = tcsetattr(STDIN_FILENO, TCSADRAIN, &original) }
    editor.begin()
    write(editor.rendering(prompt: prompt))
    var byte: UInt8 = 0
    while Foundation.read(STDIN_FILENO, &byte, 1) == 1 {
      let outcome = editor.feed(CollectionOfOne(byte))
      if editor.takeClearScreenRequest() { write("\u{1B}[H\u{1B}[2J") }
      switch outcome {
      case .editing:
        write(editor.rendering(prompt: prompt))
      case .line(let line):
        write("\r\n")
        return line
      case .endOfInput:
        write("\r\n")
        return nil
      }
    }
    return nil
  }

  private func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
