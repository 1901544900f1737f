import Foundation

extension FieldMerge {
  /// The pieces ``Policy/text(_:overlap:)`` splits text into before merging: an edit is kept or lost whole, so the
  /// finer the pieces, the closer two edits may be and both survive.
  public enum TextGranularity: String, Sendable, Hashable, CaseIterable {
    /// Lines, each with its line break (`\n`, as `diff3` splits): `diff3`'s unit. Two edits to one line overlap.
    case line
    /// Words and the runs of white space between them. Two edits to one word overlap.
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
    case both
    /// The version of the side whose device-written `TIMESTAMP` field `key` is later (ties keep the server's).
    case localClock(key: String)
    /// The version of the side whose `INT64` edit counter `key` is higher (ties keep the server's).
    case editCount(key: String)
  }
}

/// The three-way text merge behind ``FieldMerge/Policy/text(_:overlap:)``: the three texts split into pieces at the
/// chosen granularity, merged as `diff3 -m` merges lines (``ThreeWayMerge``), each overlap settled by the policy.
enum TextMerge {
  /// The merged text.
  /// - Parameter clientWins: Whether an overlap keeps the client's version, for the side-picking overlaps; asked at
  ///   most once, at the first overlap.
  static func merge(
    ancestor: String, client: String, server: String, granularity: FieldMerge.TextGranularity,
    overlap: FieldMerge.TextOverlap, clientWins: () throws -> Bool
  ) rethrows -> String {
    let ancestorPieces = split(ancestor, granularity)
    let clientPieces = split(client, granularity)
    let serverPieces = split(server, granularity)
    var table = TokenTable<Substring>()
    let pieces = ThreeWayMerge.merge(
      ancestor: table.number(ancestorPieces), client: table.number(clientPieces), server: table.number(serverPieces))
    var result = ""
    result.reserveCapacity(max(client.utf8.count, server.utf8.count))
    var decided: Bool?
    func append(_ source: [Substring], _ range: Range<Int>) {
      for piece in source[range] { result += piece }
    }
    for piece in pieces {
      switch piece {
      case .ancestor(let range): append(ancestorPieces, range)
      case .client(let range): append(clientPieces, range)
      case .server(let range): append(serverPieces, range)
      case .overlap(_, let clientRange, let serverRange):
        switch overlap {
        case .server: append(serverPieces, serverRange)
        case .client: append(clientPieces, clientRange)
        case .both:
          append(serverPieces, serverRange)
          append(clientPieces, clientRange)
        case .localClock, .editCount:
          let client = try decided ?? clientWins()
          decided = client
          if client { append(clientPieces, clientRange) } else { append(serverPieces, serverRange) }
        }
      }
    }
    return result
  }

  /// The text's pieces at `granularity`; joined, they give the text back.
  static func split(_ text: String, _ granularity: FieldMerge.TextGranularity) -> [Substring] {
    switch granularity {
    case .character:
      return text.indices.map { text[$0...$0] }
    case .line:
      // Lines end at "\n", as diff3's do ("\r\n" stays whole); the bytes are scanned, not the characters.
      var pieces: [Substring] = []
      let utf8 = text.utf8
      var start = utf8.startIndex
      var index = start
      while index < utf8.endIndex {
        let next = utf8.index(after: index)
        if utf8[index] == 0x0A {
          pieces.append(text[start..<next])
          start = next
        }
        index = next
      }
      if start < utf8.endIndex { pieces.append(text[start...]) }
      return pieces
    case .word:
      var pieces: [Substring] = []
      var start = text.startIndex
      var inSpace: Bool?
      for index in text.indices {
        let space = text[index].isWhitespace
        if let inSpace, inSpace != space {
          pieces.append(text[start..<index])
          start = index
        }
        inSpace = space
      }
      if start < text.endIndex { pieces.append(text[start...]) }
      return pieces
    }
  }
}
