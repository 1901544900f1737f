/// The diff3 merge of two sequences that each changed a common ancestor, as GNU `diff3 -m` does: matched against the
/// ancestor (``SequenceDiff``), the sequences split into stable runs — the same in all three — and the hunks between
/// them. A hunk only one side changed takes that side; a hunk both changed the same way takes it once; a hunk both
/// changed differently is an overlap, settled by the caller.
///
/// Edits that touch (a change right after the other side's, with no unchanged token between) overlap, as in `diff3`.
/// A ``Refinement/zealous`` merge is `git merge-file`'s: git's own diff (``MyersDiff``) with its runs of changes slid to
/// one canonical place (``ChangeCompaction``), so two diffs of a run of equal tokens cannot touch where the edits do
/// not, and an overlap diffed side against side, so what both sides wrote alike leaves it and is kept once.
enum ThreeWayMerge {
  /// Where each piece of the merge comes from, in order.
  enum Piece: Equatable {
    /// Tokens of the ancestor that both sides kept (or changed the same way: then the server's).
    case ancestor(Range<Int>)
    case client(Range<Int>)
    case server(Range<Int>)
    /// Tokens of the server's that the client changed the same way, as a whole hunk or, inside a refined overlap, as
    /// a stretch both sides wrote alike.
    case same(server: Range<Int>)
    /// An overlap for the caller to settle; `ancestor` is the stretch the whole overlap replaced, before refinement.
    case overlap(ancestor: Range<Int>, client: Range<Int>, server: Range<Int>)
  }

  /// How far the merge goes past `diff3 -m` to tell edits apart.
  enum Refinement {
    /// As `diff3 -m`: the diffs as found, every overlap whole.
    case none
    /// git's compacted diffs, every overlap whole (with the ancestor's stretch it replaced, for a finer merge).
    case compacted
    /// As `git merge-file` (its "zealous" level): git's compacted diffs, and overlaps refined down to where the sides
    /// differ.
    case zealous
  }

  /// The merge of `client` and `server` against `ancestor`, as pieces in order.
  /// - Complexity: two ``SequenceDiff`` runs, then one pass over the three sequences (and a diff of each overlap's two
  ///   sides when zealous).
  static func merge(ancestor: [Int32], client: [Int32], server: [Int32], refinement: Refinement = .none) -> [Piece] {
    var pieces: [Piece] = []
    ancestor.withUnsafeBufferPointer { ancestor in
      client.withUnsafeBufferPointer { client in
        server.withUnsafeBufferPointer { server in
          forEachPiece(ancestor: ancestor, client: client, server: server, refinement: refinement) {
            pieces.append($0)
          }
        }
      }
    }
    return pieces
  }

  /// The pieces of the merge handed to `body` in order, with the matches kept in temporary buffers (on the stack for
  /// short sequences), so a merge of short lists allocates nothing here.
  static func forEachPiece(
    ancestor: UnsafeBufferPointer<Int32>, client: UnsafeBufferPointer<Int32>, server: UnsafeBufferPointer<Int32>,
    refinement: Refinement = .none, _ body: (Piece) -> Void
  ) {
    let count = ancestor.count
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * count) { matches in
      let toClient = UnsafeMutableBufferPointer(rebasing: matches[0..<count])
      let toServer = UnsafeMutableBufferPointer(rebasing: matches[count...])
      switch refinement {
      case .none:
        SequenceDiff.matches(old: ancestor, new: client, into: toClient)
        SequenceDiff.matches(old: ancestor, new: server, into: toServer)
      case .compacted, .zealous:
        gitDiff(old: ancestor, new: client, into: toClient)
        gitDiff(old: ancestor, new: server, into: toServer)
      }
      var a = 0
      var c = 0
      var s = 0
      while a < count || c < client.count || s < server.count {
        // A stable run: ancestor tokens both sides kept, right where each side stands.
        var end = a
        while end < count, toClient[end] == c + (end - a), toServer[end] == s + (end - a) { end += 1 }
        if end > a {
          body(.ancestor(a..<end))
          c += end - a
          s += end - a
          a = end
          continue
        }
        // The hunk runs to the next ancestor token both sides kept, or to the end.
        var next = a
        while next < count, toClient[next] < 0 || toServer[next] < 0 { next += 1 }
        let clientEnd = next < count ? toClient[next] : client.count
        let serverEnd = next < count ? toServer[next] : server.count
        let base = a..<next
        let clientRange = c..<clientEnd
        let serverRange = s..<serverEnd
        if equal(ancestor, base, client, clientRange) {
          if !serverRange.isEmpty { body(.server(serverRange)) }
        } else if equal(ancestor, base, server, serverRange) {
          if !clientRange.isEmpty { body(.client(clientRange)) }
        } else if equal(client, clientRange, server, serverRange) {
          if !serverRange.isEmpty { body(.same(server: serverRange)) }
        } else if refinement == .zealous, !clientRange.isEmpty, !serverRange.isEmpty {
          refine(base, client: client, clientRange, server: server, serverRange, body)
        } else {
          body(.overlap(ancestor: base, client: clientRange, server: serverRange))
        }
        a = next
        c = clientEnd
        s = serverEnd
      }
    }
  }

  /// An overlap split where its two sides differ: the sides diffed against each other (compacted), each run both wrote
  /// alike handed on once (``Piece/same(server:)``), each stretch between an overlap of its own. As in
  /// git, a stretch only one side holds stays an overlap: without the ancestor's say, it may be that side's insertion
  /// or the other's removal.
  private static func refine(
    _ base: Range<Int>, client: UnsafeBufferPointer<Int32>, _ clientRange: Range<Int>,
    server: UnsafeBufferPointer<Int32>, _ serverRange: Range<Int>, _ body: (Piece) -> Void
  ) {
    let clientPart = UnsafeBufferPointer(rebasing: client[clientRange])
    let serverPart = UnsafeBufferPointer(rebasing: server[serverRange])
    withUnsafeTemporaryAllocation(of: Int.self, capacity: clientPart.count) { matched in
      gitDiff(old: clientPart, new: serverPart, into: matched)
      var c = 0
      var s = 0
      var index = 0
      while index <= clientPart.count {
        // The next token both wrote alike, or the end.
        var next = index
        while next < clientPart.count, matched[next] < 0 { next += 1 }
        let serverNext = next < clientPart.count ? matched[next] : serverPart.count
        if next > c || serverNext > s {
          body(
            .overlap(
              ancestor: base, client: (clientRange.lowerBound + c)..<(clientRange.lowerBound + next),
              server: (serverRange.lowerBound + s)..<(serverRange.lowerBound + serverNext)))
        }
        guard next < clientPart.count else { return }
        // The run both wrote alike.
        var end = next
        while end < clientPart.count, matched[end] == serverNext + (end - next) { end += 1 }
        let alike = serverRange.lowerBound + serverNext
        body(.same(server: alike..<(alike + end - next)))
        c = end
        s = serverNext + (end - next)
        index = end
      }
    }
  }

  /// The diff git would make: its Myers diff, compacted.
  private static func gitDiff(
    old: UnsafeBufferPointer<Int32>, new: UnsafeBufferPointer<Int32>, into matched: UnsafeMutableBufferPointer<Int>
  ) {
    var removed = [Bool](repeating: false, count: old.count)
    var inserted = [Bool](repeating: false, count: new.count)
    MyersDiff.markChanges(old: old, new: new, removed: &removed, inserted: &inserted)
    ChangeCompaction.compact(old: old, new: new, removed: &removed, inserted: &inserted)
    ChangeCompaction.pair(removed: removed, inserted: inserted, into: matched)
  }

  private static func equal(
    _ x: UnsafeBufferPointer<Int32>, _ xRange: Range<Int>, _ y: UnsafeBufferPointer<Int32>, _ yRange: Range<Int>
  ) -> Bool {
    xRange.count == yRange.count && x[xRange].elementsEqual(y[yRange])
  }
}

/// Numbers tokens: equal tokens get equal numbers, so the diff compares integers.
struct TokenTable<Token: Hashable> {
  private var numbers: [Token: Int32] = [:]

  /// How many distinct tokens have been numbered.
  var count: Int { numbers.count }

  /// The numbers of `tokens`, in order.
  mutating func number(_ tokens: [Token]) -> [Int32] {
    tokens.map { number($0) }
  }

  /// The number of `token`: the one it was given before, or the next.
  mutating func number(_ token: Token) -> Int32 {
    let next = Int32(truncatingIfNeeded: numbers.count)
    // One hash lookup: the defaulted subscript's access stores `next` only when the token is new.
    return Self.read(&numbers[token, default: next])
  }

  private static func read(_ value: inout Int32) -> Int32 { value }
}
