import Foundation

extension FieldMerge {
  /// The pieces ``Policy/text(_:overlap:)`` splits text into before merging: an edit is kept or lost whole, so the
  /// finer the pieces, the closer two edits may be and both survive.
  public enum TextGranularity: String, Sendable, Hashable, CaseIterable {
    /// Lines, each with its line break (`\n`, as `diff3` splits): `diff3`'s unit. Two edits to one line overlap.
    case line
    /// Words and the runs of white space between them (ASCII white space: spaces, tabs, line breaks). Two edits to
    /// one word overlap.
    case word
    /// Characters (extended grapheme clusters, so an emoji or an accented letter is never split).
    case character
  }

  /// What ``Policy/text(_:overlap:)`` keeps where both sides changed the same stretch of text differently.
  public enum TextOverlap: Sendable, Hashable {
    /// The server's version of the stretch; the client's edit there is lost.
    case server
    /// The client's version of the stretch; the server's edit there is lost.
    case client
    /// Both versions, the server's first: nothing is lost, and the reader sees both edits side by side.
    ///
    /// The two versions never run into one piece: at line granularity the server's ends with a line break before the
    /// client's begins, at word granularity a space stands between two words that would touch. At character
    /// granularity an overlap is merged again by words, so each side's edit is kept as whole words, a space between
    /// them, rather than letters of two spellings interleaved.
    case both
    /// Both versions between conflict markers, as `git merge-file` writes them: `<<<<<<< server`, the server's version,
    /// `=======`, the client's, `>>>>>>> client`, each marker on a line of its own. For apps that show the conflict
    /// and let the user settle it; nothing is lost.
    case markers
    /// The version of the side whose device-written `TIMESTAMP` field `key` is later (ties keep the server's).
    case localClock(key: String)
    /// The version of the side whose `INT64` edit counter `key` is higher (ties keep the server's).
    case editCount(key: String)
  }
}

/// The three-way text merge behind ``FieldMerge/Policy/text(_:overlap:)``: the three texts split into pieces at the
/// chosen granularity, merged as `git merge-file` merges lines (``ThreeWayMerge`` at its zealous refinement: compacted
/// diffs, overlaps refined to where the sides differ), each overlap settled by the policy.
///
/// It works on the texts' bytes, copied once into one buffer: pieces are byte ranges of it, numbered by hashing their
/// bytes, and the result is copied together range by range. Lines and words end at ASCII bytes and characters at
/// grapheme boundaries, so every piece of UTF-8 text, and the result, is valid UTF-8; text in another encoding that
/// keeps ASCII's line breaks and spaces (Latin-1, Windows-1252, Shift JIS) merges by lines and words the same way.
///
/// **Line endings.** A text's line ending is that of its first line break (`\r\n` or `\n`; the server's text first,
/// then the client's, then the ancestor's). Lines end at `\n`, so a `\r\n` line stays whole, and what the merge writes
/// itself — the line break a text without a final one is read with, the break between two versions kept by
/// ``FieldMerge/TextOverlap/both``, conflict markers' lines — uses that ending.
///
/// **The final line break.** A line merge reads a text without a final line break as if it had one, so appending a
/// line to a note that ends without a line break does not overlap an edit of the line before, as it does in `diff3`,
/// where the unterminated last line is a different line once another follows it. The missing break belongs to that
/// last line: the merge ends without a final break when the three texts' final breaks merge to none (each side's is a
/// change only where it differs from the ancestor's) and the merge's last line is the last line of a text that had
/// none. A line that ended with a break keeps it, so an empty last line never vanishes.
enum TextMerge {
  /// One version of the text: a string, or bytes (UTF-8 or not).
  enum Text {
    case string(String)
    case bytes(Data)
  }

  /// The merged text's bytes: UTF-8 when every version was.
  /// - Parameters:
  ///   - isUTF8: Whether every version is UTF-8; character granularity needs it, and merges other text by words.
  ///   - overlaps: Counts the overlaps the merge settled.
  ///   - clientWins: Whether an overlap keeps the client's version, for the side-picking overlaps; asked at most
  ///     once, at the first overlap.
  static func merge(
    ancestor: Text, client: Text, server: Text, isUTF8: Bool = true, granularity: FieldMerge.TextGranularity,
    overlap: FieldMerge.TextOverlap, overlaps: inout Int, clientWins: () throws -> Bool
  ) rethrows -> [UInt8] {
    if granularity == .character && !isUTF8 {
      return try merge(
        ancestor: ancestor, client: client, server: server, isUTF8: false, granularity: .word, overlap: overlap,
        overlaps: &overlaps, clientWins: clientWins)
    }
    let texts = [ancestor, client, server]
    let ending = lineEnding(of: [server, client, ancestor])
    guard granularity == .line else {
      // Finer pieces are merged only where lines overlap: a line no side changed, or only one side, is settled by
      // lines, so the finer diff runs over the overlapping stretches alone (short, wherever the edits are).
      var decided: Bool?
      func decide() throws -> Bool {
        if let decided { return decided }
        let client = try clientWins()
        decided = client
        return client
      }
      let lines = Layout(texts, granularity: .line, ending: ending, addsBreaks: false, refinement: .compacted)
      var found = 0
      let merged = try lines.compose { ancestor, client, server in
        let (bytes, count) = try finer(
          ancestor, client, server, granularity: granularity, ending: ending, overlap: overlap, decide)
        found += count
        return bytes
      }
      overlaps += found
      return merged
    }
    if texts.contains(where: { !$0.endsWithLineBreak }) {
      // Read as git reads them first, an unterminated last line a line of its own: where that merges cleanly, the
      // result is git's, byte for byte. Only where it overlaps does the rule of the missing final break step in.
      let asGit = Layout(texts, granularity: .line, ending: ending, addsBreaks: false)
      if asGit.overlaps == 0 { return try asGit.compose(overlap: overlap, clientWins: clientWins) }
    }
    let layout = Layout(texts, granularity: .line, ending: ending, addsBreaks: true)
    overlaps += layout.overlaps
    return try layout.compose(overlap: overlap, clientWins: clientWins)
  }

  /// The merge by words or characters of one stretch where lines overlapped, and how many overlaps it settled.
  private static func finer(
    _ ancestor: ArraySlice<UInt8>, _ client: ArraySlice<UInt8>, _ server: ArraySlice<UInt8>,
    granularity: FieldMerge.TextGranularity, ending: [UInt8], overlap: FieldMerge.TextOverlap,
    _ clientWins: () throws -> Bool
  ) rethrows -> ([UInt8], Int) {
    let texts: [Text] = [.bytes(Data(ancestor)), .bytes(Data(client)), .bytes(Data(server))]
    let layout = Layout(texts, granularity: granularity, ending: ending, addsBreaks: false)
    if granularity == .character && overlap == .both && layout.overlaps > 0 {
      // Letters of two spellings side by side read as neither: the overlapping edits are kept as whole words.
      return try finer(
        ancestor, client, server, granularity: .word, ending: ending, overlap: overlap, clientWins)
    }
    return (try layout.compose(overlap: overlap, clientWins: clientWins), layout.overlaps)
  }

  /// The three texts in one buffer, split into numbered pieces, and their merge as pieces.
  struct Layout {
    let granularity: FieldMerge.TextGranularity
    let ending: [UInt8]
    /// The three texts' bytes, one after the other (with a line break after an unterminated one, when added).
    var bytes: [UInt8] = []
    /// Piece boundaries of each text, as offsets into `bytes`: text t's piece i is starts[t][i]..<starts[t][i + 1].
    var starts: [[Int]] = []
    /// Whether each text ends with a line break (an empty text counts as ending with one).
    var endsWithBreak: [Bool] = []
    /// Where the line break added to an unterminated text ends (its last line's end), when one was added.
    var addedBreakEnds: [Int?] = []
    /// The merge, in pieces.
    var pieces: [ThreeWayMerge.Piece] = []
    /// How many of the pieces are overlaps.
    var overlaps = 0

    /// - Parameters:
    ///   - addsBreaks: Whether to read an unterminated text as if it ended with `ending`.
    ///   - refinement: How far the merge refines its overlaps.
    init(
      _ texts: [Text], granularity: FieldMerge.TextGranularity, ending: [UInt8], addsBreaks: Bool,
      refinement: ThreeWayMerge.Refinement = .zealous
    ) {
      self.granularity = granularity
      self.ending = ending
      bytes.reserveCapacity(texts.reduce(0) { $0 + $1.count } + 6)
      for text in texts {
        let from = bytes.count
        text.append(to: &bytes)
        let terminated = bytes.count == from || bytes.last == newline
        endsWithBreak.append(terminated)
        if addsBreaks && !terminated {
          bytes.append(contentsOf: ending)
          addedBreakEnds.append(bytes.count)
        } else {
          addedBreakEnds.append(nil)
        }
        starts.append(boundaries(in: bytes, from: from, granularity))
      }
      let numbers = bytes.withUnsafeBufferPointer { buffer in
        var table = PieceTable(capacity: starts.reduce(0) { $0 + $1.count })
        return starts.map { table.number($0, in: buffer) }
      }
      pieces = ThreeWayMerge.merge(
        ancestor: numbers[0], client: numbers[1], server: numbers[2], refinement: refinement)
      overlaps = pieces.reduce(0) { count, piece in if case .overlap = piece { count + 1 } else { count } }
    }

    /// The merged bytes, each overlap's three stretches (ancestor, client, server) handed to `settle`.
    func compose(
      settle: (ArraySlice<UInt8>, ArraySlice<UInt8>, ArraySlice<UInt8>) throws -> [UInt8]
    ) rethrows -> [UInt8] {
      var result: [UInt8] = []
      result.reserveCapacity(max(bytes.count / 2, 16) + 64)
      func slice(_ text: Int, _ range: Range<Int>) -> ArraySlice<UInt8> {
        bytes[starts[text][range.lowerBound]..<starts[text][range.upperBound]]
      }
      for piece in pieces {
        switch piece {
        case .ancestor(let range): result.append(contentsOf: slice(0, range))
        case .client(let range): result.append(contentsOf: slice(1, range))
        case .server(let range), .same(let range): result.append(contentsOf: slice(2, range))
        case .overlap(let ancestorRange, let clientRange, let serverRange):
          result.append(
            contentsOf: try settle(slice(0, ancestorRange), slice(1, clientRange), slice(2, serverRange)))
        }
      }
      return result
    }

    /// The merged bytes, each overlap settled by `overlap`.
    func compose(overlap: FieldMerge.TextOverlap, clientWins: () throws -> Bool) rethrows -> [UInt8] {
      var result: [UInt8] = []
      result.reserveCapacity(max(bytes.count / 2, 16) + 64)
      var decided: Bool?
      func append(_ text: Int, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        result.append(contentsOf: bytes[starts[text][range.lowerBound]..<starts[text][range.upperBound]])
      }
      func write(_ line: String) {
        result.append(contentsOf: line.utf8)
        result.append(contentsOf: ending)
      }
      /// Starts a new line unless the result is empty or already at a line's start.
      func breakLine() {
        if let last = result.last, last != newline { result.append(contentsOf: ending) }
      }
      var index = 0
      while index < pieces.count {
        let piece = pieces[index]
        index += 1
        switch piece {
        case .ancestor(let range): append(0, range)
        case .client(let range): append(1, range)
        case .server(let range), .same(let range): append(2, range)
        case .overlap(_, let clientRange, let serverRange):
          switch overlap {
          case .server: append(2, serverRange)
          case .client: append(1, clientRange)
          case .both:
            append(2, serverRange)
            if !serverRange.isEmpty && !clientRange.isEmpty {
              separate(from: bytes[starts[1][clientRange.lowerBound]], granularity, ending, in: &result)
            }
            append(1, clientRange)
          case .markers:
            var block = [piece]
            if granularity == .line { index = joinNearby(from: index, into: &block) }
            breakLine()
            write("<<<<<<< server")
            for part in block { appendSide(part, client: false) }
            breakLine()
            write("=======")
            for part in block { appendSide(part, client: true) }
            breakLine()
            write(">>>>>>> client")
          case .localClock, .editCount:
            let client = try decided ?? clientWins()
            decided = client
            if client { append(1, clientRange) } else { append(2, serverRange) }
          }
        }
      }
      /// One side of a conflict block: an overlap's side, or lines between two overlaps the block joined.
      func appendSide(_ part: ThreeWayMerge.Piece, client: Bool) {
        switch part {
        case .overlap(_, let clientRange, let serverRange):
          if client { append(1, clientRange) } else { append(2, serverRange) }
        case .ancestor(let range): append(0, range)
        case .same(let range), .server(let range): append(2, range)
        case .client(let range): append(1, range)
        }
      }
      // The final line break merges three ways (a side that changed it from the ancestor's decides), and a missing
      // one belongs to a last line that lacked it.
      if addedBreakEnds.contains(where: { $0 != nil }) {
        let ends = endsWithBreak[1] == endsWithBreak[0] ? endsWithBreak[2] : endsWithBreak[1]
        if !ends, endsWithUnterminatedLine(result) { result.removeLast(ending.count) }
      }
      return result
    }

    /// Adds to `block` the overlaps after it that git writes in one conflict block with it, and the lines between: an
    /// overlap at most three lines on, or further on past lines with no ASCII letter or digit, with nothing but lines
    /// no side changed (or both changed alike) between. Returns the index of the first piece not taken.
    private func joinNearby(from start: Int, into block: inout [ThreeWayMerge.Piece]) -> Int {
      var next = start
      while true {
        var gap = next
        var lines = 0
        var alphanumeric = false
        scan: while gap < pieces.count {
          let text: Int
          let range: Range<Int>
          switch pieces[gap] {
          case .ancestor(let stretch): (text, range) = (0, stretch)
          case .same(let stretch): (text, range) = (2, stretch)
          default: break scan
          }
          lines += range.count
          alphanumeric =
            alphanumeric
            || bytes[starts[text][range.lowerBound]..<starts[text][range.upperBound]].contains { byte in
              (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            }
          gap += 1
        }
        guard gap < pieces.count, case .overlap = pieces[gap], lines <= 3 || !alphanumeric else { return next }
        block.append(contentsOf: pieces[next...gap])
        next = gap + 1
      }
    }

    /// Whether the merge's last line is the last line of a text that had no final line break (as the line merge read
    /// it, with the break added).
    private func endsWithUnterminatedLine(_ result: [UInt8]) -> Bool {
      for (text, end) in addedBreakEnds.enumerated() {
        guard let end, let last = starts[text].dropLast().last else { continue }
        let line = bytes[last..<end]
        guard result.count >= line.count, result.suffix(line.count).elementsEqual(line) else { continue }
        if result.count == line.count || result[result.count - line.count - 1] == newline { return true }
      }
      return false
    }
  }

  private static let newline: UInt8 = 0x0A
  private static let carriageReturn: UInt8 = 0x0D

  /// The line ending of the first of `texts` that has a line break: `\r\n` where that break is one, else `\n`.
  static func lineEnding(of texts: [Text]) -> [UInt8] {
    for text in texts {
      let found: Bool? = text.withBytes { bytes in
        guard let index = bytes.firstIndex(of: newline) else { return nil }
        return index > bytes.startIndex && bytes[index - 1] == carriageReturn
      }
      if let found { return found ? [carriageReturn, newline] : [newline] }
    }
    return [newline]
  }

  /// Puts what keeps two versions of one stretch apart between them, when the first (already in `result`) would run
  /// into the second, which begins with `next`: a line break between lines, a space between words.
  private static func separate(
    from next: UInt8, _ granularity: FieldMerge.TextGranularity, _ ending: [UInt8], in result: inout [UInt8]
  ) {
    guard let last = result.last else { return }
    switch granularity {
    case .line:
      if last != newline { result.append(contentsOf: ending) }
    case .word, .character:
      if !isSpace(last) && !isSpace(next) { result.append(0x20) }
    }
  }

  /// ASCII white space, where words end: spaces, tabs, line breaks.
  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

  /// Where the pieces of the text `bytes[from...]` start, and where the last ends.
  static func boundaries(in bytes: [UInt8], from: Int, _ granularity: FieldMerge.TextGranularity) -> [Int] {
    let end = bytes.count
    var starts = [from]
    switch granularity {
    case .line:
      // Lines end at "\n", as diff3's do ("\r\n" stays whole); memchr finds them a word at a time.
      bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        var offset = from
        while offset < end, let found = memchr(base + offset, 0x0A, end - offset) {
          offset = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base + 1
          starts.append(offset)
        }
      }
    case .word:
      var previous: Bool?
      for offset in from..<end {
        let space = isSpace(bytes[offset])
        if let previous, previous != space { starts.append(offset) }
        previous = space
      }
    case .character:
      // Valid UTF-8 (the caller merges other text by words), so decoding changes no byte count.
      var offset = from
      for character in String(decoding: bytes[from..<end], as: UTF8.self) {
        offset += character.utf8.count
        starts.append(offset)
      }
    }
    if starts.last != end { starts.append(end) }
    return starts
  }

  /// Numbers pieces by their bytes: equal pieces, in any of the three texts, get equal numbers. An open-addressing
  /// table of numbers keyed by a fast hash of the bytes (a collision is told apart by comparing bytes), so numbering
  /// allocates nothing per piece.
  struct PieceTable {
    /// Each slot holds a number plus one, or 0 when empty; its size is a power of two at least twice the pieces.
    private var slots: [Int32]
    /// Each number's hash, and the byte range of its first piece.
    private var hashes: [UInt64] = []
    private var ranges: [Range<Int>] = []

    init(capacity: Int) {
      var size = 16
      while size < capacity * 2 { size <<= 1 }
      slots = [Int32](repeating: 0, count: size)
      hashes.reserveCapacity(capacity)
      ranges.reserveCapacity(capacity)
    }

    /// The numbers of the pieces that `starts` bounds in `bytes`.
    mutating func number(_ starts: [Int], in bytes: UnsafeBufferPointer<UInt8>) -> [Int32] {
      let count = starts.count - 1
      var numbers = [Int32](repeating: 0, count: max(0, count))
      let mask = slots.count - 1
      slots.withUnsafeMutableBufferPointer { slots in
        for index in 0..<max(0, count) {
          let range = starts[index]..<starts[index + 1]
          let hash = Self.hash(UnsafeBufferPointer(rebasing: bytes[range]))
          var slot = Int(truncatingIfNeeded: hash) & mask
          while true {
            let stored = slots[slot]
            if stored == 0 {
              let number = Int32(truncatingIfNeeded: hashes.count)
              hashes.append(hash)
              ranges.append(range)
              slots[slot] = number + 1
              numbers[index] = number
              break
            }
            let number = Int(stored - 1)
            if hashes[number] == hash, Self.same(ranges[number], range, in: bytes) {
              numbers[index] = Int32(number)
              break
            }
            slot = (slot + 1) & mask
          }
        }
      }
      return numbers
    }

    /// Whether two byte ranges of `bytes` hold the same bytes.
    private static func same(_ first: Range<Int>, _ second: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      guard first.count == second.count else { return false }
      guard let base = bytes.baseAddress, !first.isEmpty else { return true }
      return memcmp(base + first.lowerBound, base + second.lowerBound, first.count) == 0
    }

    /// A fast 64-bit hash of a piece's bytes, eight at a time (not for hostile keys: collisions only cost a compare).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
      var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
      let raw = UnsafeRawBufferPointer(bytes)
      var offset = 0
      while offset + 8 <= raw.count {
        let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        offset += 8
      }
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while offset < raw.count {
        tail |= UInt64(raw[offset]) << shift
        shift += 8
        offset += 1
      }
      hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
      return hash ^ (hash >> 29)
    }
  }
}

extension TextMerge.Text {
  /// Whether it is empty or ends with a line break.
  var endsWithLineBreak: Bool {
    switch self {
    case .string(let text): text.utf8.last.map { $0 == 0x0A } ?? true
    case .bytes(let data): data.last.map { $0 == 0x0A } ?? true
    }
  }

  /// Its length in bytes.
  var count: Int {
    switch self {
    case .string(let text): text.utf8.count
    case .bytes(let data): data.count
    }
  }

  /// Appends its bytes.
  func append(to bytes: inout [UInt8]) {
    switch self {
    case .string(let text): bytes.append(contentsOf: text.utf8)
    case .bytes(let data): bytes.append(contentsOf: data)
    }
  }

  /// `body` over its bytes, contiguous.
  func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    switch self {
    case .string(var text):
      return text.withUTF8 { body($0) }
    case .bytes(let data):
      return data.withUnsafeBytes { body($0.bindMemory(to: UInt8.self)) }
    }
  }
}
