import ReconcilePlayground
import Testing

/// The REPL's line editing, fed the bytes a terminal in raw mode sends.
@Suite("REPL line editing")
struct LineEditorTests {
  static let left: [UInt8] = [0x1B, 0x5B, 0x44]
  static let right: [UInt8] = [0x1B, 0x5B, 0x43]
  static let up: [UInt8] = [0x1B, 0x5B, 0x41]
  static let down: [UInt8] = [0x1B, 0x5B, 0x42]
  static let enter: [UInt8] = [0x0D]

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test("typed text ends at Enter as the line, and the editor starts afresh")
  func typingAndEnter() {
    var editor = LineEditor()
    #expect(editor.feed(Self.bytes("phone sync")) == .editing)
    #expect(editor.line == "phone sync")
    #expect(editor.feed(Self.enter) == .line("phone sync"))
    #expect(editor.line.isEmpty)
    #expect(editor.history == ["phone sync"])
  }

  @Test("arrows move the cursor, text goes in at it, Backspace and Delete erase around it")
  func cursorMovesAndEdits() {
    var editor = LineEditor()
    _ = editor.feed(Self.bytes("phne sync"))
    for _ in 0..<7 { _ = editor.feed(Self.left) }
    _ = editor.feed(Self.bytes("o"))
    #expect(editor.line == "phone sync")
    _ = editor.feed(Self.right)
    _ = editor.feed([0x7F])  // Backspace erases the "n" before the cursor.
    #expect(editor.line == "phoe sync")
    _ = editor.feed([0x1B, 0x5B, 0x33, 0x7E])  // Delete erases the "e" under it.
    #expect(editor.line == "pho sync")
    _ = editor.feed([0x1B, 0x5B, 0x48])  // Home.
    #expect(editor.cursor == 0)
    _ = editor.feed([0x1B, 0x5B, 0x34, 0x7E])  // End, as some terminals send it.
    #expect(editor.cursor == editor.text.count)
  }

  @Test("Ctrl-A and Ctrl-E jump, Ctrl-U and Ctrl-K erase to either end, Ctrl-W erases a word")
  func emacsKeys() {
    var editor = LineEditor()
    _ = editor.feed(Self.bytes("phone create Note/1 title=a"))
    _ = editor.feed([0x17])  // Ctrl-W
    #expect(editor.line == "phone create Note/1 ")
    _ = editor.feed([0x01])  // Ctrl-A
    #expect(editor.cursor == 0)
    _ = editor.feed([0x05])  // Ctrl-E
    #expect(editor.cursor == editor.text.count)
    for _ in 0..<8 { _ = editor.feed(Self.left) }
    _ = editor.feed([0x0B])  // Ctrl-K
    #expect(editor.line == "phone create")
    _ = editor.feed(Self.left)
    _ = editor.feed([0x15])  // Ctrl-U
    #expect(editor.line == "e")
    #expect(editor.cursor == 0)
  }

  @Test("↑ and ↓ walk the history and come back to the line being written")
  func history() {
    var editor = LineEditor(history: ["device add phone", "phone sync"])
    _ = editor.feed(Self.bytes("sho"))
    _ = editor.feed(Self.up)
    #expect(editor.line == "phone sync")
    _ = editor.feed(Self.up)
    #expect(editor.line == "device add phone")
    _ = editor.feed(Self.up)  // Nothing older: stays.
    #expect(editor.line == "device add phone")
    _ = editor.feed(Self.down)
    _ = editor.feed(Self.down)
    #expect(editor.line == "sho", "the draft comes back")
    _ = editor.feed(Self.up)
    #expect(editor.feed(Self.enter) == .line("phone sync"))
    #expect(editor.history == ["device add phone", "phone sync"], "a repeated line is kept once")
  }

  @Test("the history keeps its newest lines up to its limit, and blank lines are not kept")
  func historyLimit() {
    var editor = LineEditor(historyLimit: 2)
    for line in ["a", "  ", "b", "c"] { _ = editor.feed(Self.bytes(line) + Self.enter) }
    #expect(editor.history == ["b", "c"])
  }

  @Test("Ctrl-D ends the input only on an empty line; Ctrl-C drops the line")
  func endAndCancel() {
    var editor = LineEditor()
    _ = editor.feed(Self.bytes("ab"))
    _ = editor.feed(Self.left)
    #expect(editor.feed([0x04]) == .editing)  // Ctrl-D deletes under the cursor on a line with text.
    #expect(editor.line == "a")
    _ = editor.feed([0x03])
    #expect(editor.line.isEmpty)
    #expect(editor.feed([0x04]) == .endOfInput)
  }

  @Test("characters of several UTF-8 bytes go in whole, even split across reads")
  func utf8() {
    var editor = LineEditor()
    let text = Self.bytes("title=\"café ✓\"")
    for byte in text { _ = editor.feed([byte]) }
    #expect(editor.line == "title=\"café ✓\"")
    _ = editor.feed(Self.left)
    _ = editor.feed(Self.left)
    _ = editor.feed([0x7F])
    #expect(editor.line == "title=\"café✓\"", "Backspace erases one character, not one byte")
  }

  @Test("the rendering redraws the prompt and the line and puts the cursor back; Ctrl-L asks to clear the screen")
  func rendering() {
    var editor = LineEditor()
    _ = editor.feed(Self.bytes("sync"))
    _ = editor.feed(Self.left)
    #expect(editor.rendering(prompt: "> ") == "\r> sync\u{1B}[K\u{1B}[1D")
    let before = editor.takeClearScreenRequest()
    #expect(!before)
    _ = editor.feed([0x0C])
    let asked = editor.takeClearScreenRequest()
    let again = editor.takeClearScreenRequest()
    #expect(asked)
    #expect(!again, "asked once")
  }

  @Test("unknown escape sequences and lone control keys change nothing")
  func unknownKeys() {
    var editor = LineEditor()
    _ = editor.feed(Self.bytes("ok"))
    _ = editor.feed([0x1B, 0x5B, 0x31, 0x35, 0x7E])  // F5
    _ = editor.feed([0x1B, 0x62])  // Alt-b
    _ = editor.feed([0x07, 0x1A])  // Ctrl-G, Ctrl-Z
    #expect(editor.line == "ok")
    #expect(editor.cursor == 2)
  }
}
