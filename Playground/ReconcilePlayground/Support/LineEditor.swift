import Foundation

/// The REPL's line editing, as a state machine over the bytes a terminal in raw mode sends: it keeps the line, the
/// cursor and the history, and says what to write back. The terminal itself (raw mode, reading bytes) is
/// ``TerminalLineReader``'s; everything here runs without one, so tests feed it bytes.
///
/// Keys: printable text inserts at the cursor; ←/→ (or Ctrl-B/F) move; Home/End (or Ctrl-A/E) jump; ↑/↓ (or
/// Ctrl-P/N) walk the history; Backspace and Delete erase; Ctrl-U erases to the start, Ctrl-K to the end, Ctrl-W the
/// word before the cursor; Ctrl-L clears the screen; Enter ends the line; Ctrl-C drops it; Ctrl-D on an empty line
/// ends the input.
package struct LineEditor: Sendable {
  /// What a key did.
  package enum Outcome: Sendable, Equatable {
    /// The line is still being edited.
    case editing
    /// Enter: the line is done.
    case line(String)
    /// Ctrl-D on an empty line: no more input.
    case endOfInput
  }

  /// The line so far, as characters (the cursor moves by character).
  package private(set) var text: [Character] = []
  /// Where the cursor is: an index into ``text``.
  package private(set) var cursor = 0
  /// Earlier lines, oldest first.
  package private(set) var history: [String] = []
  /// The most history entries kept.
  package let historyLimit: Int
  /// Where ↑/↓ is in the history: `history.count` is the line being written.
  private var historyIndex = 0
  /// The line being written when ↑ left it, to come back to.
  private var draft: [Character] = []
  /// Bytes of an escape sequence or a multi-byte character not yet complete.
  private var pending: [UInt8] = []

  package init(history: [String] = [], historyLimit: Int = 500) {
    self.historyLimit = historyLimit
    self.history = Array(history.suffix(historyLimit))
    historyIndex = self.history.count
  }

  /// Starts a new line (the history stays).
  package mutating func begin() {
    text = []
    cursor = 0
    draft = []
    pending = []
    historyIndex = history.count
  }

  /// The line as it reads now.
  package var line: String { String(text) }

  /// Feeds bytes; returns what the last complete key did, and the first key that ended the line (bytes after it are
  /// dropped: a terminal sends one line at a time).
  package mutating func feed(_ bytes: some Sequence<UInt8>) -> Outcome {
    for byte in bytes {
      let outcome = feed(byte)
      if outcome != .editing { return outcome }
    }
    return .editing
  }

  /// Whether the last key asked for the screen to be cleared (Ctrl-L).
  private var clearScreenRequested = false

  /// Whether a key asked for the screen to be cleared (Ctrl-L) since the last call.
  package mutating func takeClearScreenRequest() -> Bool {
    defer { clearScreenRequested = false }
    return clearScreenRequested
  }

  private mutating func feed(_ byte: UInt8) -> Outcome {
    if !pending.isEmpty || byte == 0x1B || byte >= 0x80 {
      pending.append(byte)
      return completePending()
    }
    switch byte {
    case 0x0D, 0x0A: return finish()
    case 0x01: cursor = 0
    case 0x05: cursor = text.count
    case 0x02: cursor = max(0, cursor - 1)
    case 0x06: cursor = min(text.count, cursor + 1)
    case 0x10: recall(-1)
    case 0x0E: recall(+1)
    case 0x08, 0x7F:
      if cursor > 0 {
        text.remove(at: cursor - 1)
        cursor -= 1
      }
    case 0x04:
      if text.isEmpty { return .endOfInput }
      if cursor < text.count { text.remove(at: cursor) }
    case 0x15:
      text.removeSubrange(0..<cursor)
      cursor = 0
    case 0x0B: text.removeSubrange(cursor..<text.count)
    case 0x17: eraseWordBeforeCursor()
    case 0x0C: clearScreenRequested = true
    case 0x03: begin()
    case 0x20...0x7E: insert(Character(Unicode.Scalar(byte)))
    default: break  // Other control keys do nothing.
    }
    return .editing
  }

  /// Reads an escape sequence (`ESC [ X`, `ESC O X`, `ESC [ n ~`) or a UTF-8 character once its bytes are all in.
  private mutating func completePending() -> Outcome {
    if pending[0] == 0x1B {
      guard pending.count >= 2 else { return .editing }
      guard pending[1] == UInt8(ascii: "[") || pending[1] == UInt8(ascii: "O") else {
        pending = []  // Alt-key or a lone Escape: ignored.
        return .editing
      }
      guard pending.count >= 3, let last = pending.last, (0x40...0x7E).contains(last) else {
        if pending.count > 8 { pending = [] }  // Not a sequence this editor knows: drop it.
        return .editing
      }
      let sequence = pending
      pending = []
      switch (last, sequence.count) {
      case (UInt8(ascii: "A"), _): recall(-1)
      case (UInt8(ascii: "B"), _): recall(+1)
      case (UInt8(ascii: "C"), _): cursor = min(text.count, cursor + 1)
      case (UInt8(ascii: "D"), _): cursor = max(0, cursor - 1)
      case (UInt8(ascii: "H"), _): cursor = 0
      case (UInt8(ascii: "F"), _): cursor = text.count
      case (UInt8(ascii: "~"), 4):
        switch sequence[2] {
        case UInt8(ascii: "1"), UInt8(ascii: "7"): cursor = 0
        case UInt8(ascii: "4"), UInt8(ascii: "8"): cursor = text.count
        case UInt8(ascii: "3"): if cursor < text.count { text.remove(at: cursor) }
        default: break
        }
      default: break
      }
      return .editing
    }
    // A UTF-8 character: its first byte says how many follow.
    let lead = pending[0]
    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    guard pending.count >= length else { return .editing }
    let bytes = pending
    pending = []
    if let decoded = String(validating: bytes, as: UTF8.self) {
      for character in decoded { insert(character) }
    }
    return .editing
  }

  private mutating func insert(_ character: Character) {
    text.insert(character, at: cursor)
    cursor += 1
  }

  private mutating func eraseWordBeforeCursor() {
    var start = cursor
    while start > 0, text[start - 1] == " " { start -= 1 }
    while start > 0, text[start - 1] != " " { start -= 1 }
    text.removeSubrange(start..<cursor)
    cursor = start
  }

  /// Moves through the history: -1 older, +1 newer; past the newest comes back to the line being written.
  private mutating func recall(_ step: Int) {
    let target = historyIndex + step
    guard target >= 0, target <= history.count else { return }
    if historyIndex == history.count { draft = text }
    historyIndex = target
    text = target == history.count ? draft : Array(history[target])
    cursor = text.count
  }

  private mutating func finish() -> Outcome {
    let finished = line
    if !finished.trimmingCharacters(in: .whitespaces).isEmpty, history.last != finished {
      history.append(finished)
      if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
    }
    begin()
    return .line(finished)
  }

  /// What to write to show the line after `prompt`: back to the line's start, the prompt and the text, the rest of
  /// the old line cleared, and the cursor put back (in columns, one per character: the playground's lines are ASCII
  /// but for values).
  package func rendering(prompt: String) -> String {
    var out = "\r" + prompt + String(text) + "\u{1B}[K"
    let back = text.count - cursor
    if back > 0 { out += "\u{1B}[\(back)D" }
    return out
  }
}
