/// The line diff `git diff` and `git merge-file` compute by default (libxdiff's Myers diff), step for step, so that the
/// text merge aligns lines exactly as git does — where a text has runs of equal lines, the alignment is a choice, and
/// two diffs that choose differently merge differently.
///
/// As in git: the common head and tail are set aside; tokens the other sequence lacks are changes outright, and so are
/// tokens found very often in the other sequence (at least about the square root of its length) when they stand among
/// such changes; the rest is split by the middle snake of Myers' O(ND) algorithm, searched from both corners. Past an
/// edit cost of 256 (git: at least 256, or the square root of the two lengths' sum where that is larger) or on a long
/// enough snake past it, a subproblem splits at the furthest point reached rather than at a shortest path's middle,
/// which bounds the work on repetitive text. The caller compacts the result (``ChangeCompaction``), as git does.
enum MyersDiff {
  /// Marks the tokens of `old` the diff removes and those of `new` it inserts (both all `false` on entry); the rest
  /// pair up in order (``ChangeCompaction/pair(removed:inserted:into:)``).
  /// - Complexity: O((*n* + *m*) · min(*d*, 256)) time and O(*n* + *m*) memory for sequences of lengths *n* and *m* that
  ///   differ by *d* insertions and removals.
  static func markChanges(
    old: UnsafeBufferPointer<Int32>, new: UnsafeBufferPointer<Int32>, removed: inout [Bool], inserted: inout [Bool]
  ) {
    var search = Search(old: old, new: new)
    search.markChanges(removed: &removed, inserted: &inserted)
  }

  /// An edit cost past which a split takes the furthest point reached (git's `XDL_MAX_COST_MIN`); git raises it to
  /// the square root of the lengths' sum past 65,536 tokens, this keeps it, so time grows linearly with length.
  static let costLimit = 256
  /// An edit cost past which a long snake is split at (git's `XDL_HEUR_MIN_COST`).
  private static let snakeCostLimit = 256
  /// How long a snake must be to be split at (git's `XDL_SNAKE_CNT`).
  private static let snakeLength = 20
  /// How far ahead of the cost a snake's progress must be (git's `XDL_K_HEUR`).
  private static let snakeProgress = 4
  /// How far on each side of a frequent token the run of changes around it is looked at (git's `XDL_SIMSCAN_WINDOW`).
  private static let scanWindow = 100
  /// A cap on how many matches make a token frequent (git's `XDL_MAX_EQLIMIT`).
  private static let frequentCap = 1_024

  /// git's `xdl_bogosqrt`: a power of two near the square root of `n`.
  static func roughSquareRoot(_ n: Int) -> Int {
    var root = 1
    var n = n
    while n > 0 {
      root <<= 1
      n >>= 2
    }
    return root
  }

  private struct Search {
    let old: UnsafeBufferPointer<Int32>
    let new: UnsafeBufferPointer<Int32>
    /// The tokens the search works on: those of `old` and `new` not set aside, and where each stands.
    var oldTokens: [Int32] = []
    var oldIndex: [Int] = []
    var newTokens: [Int32] = []
    var newIndex: [Int] = []
    /// Furthest-reaching points per diagonal, forward and backward; diagonal d at d + `diagonalOffset`.
    var forward: [Int] = []
    var backward: [Int] = []
    var diagonalOffset = 0

    init(old: UnsafeBufferPointer<Int32>, new: UnsafeBufferPointer<Int32>) {
      self.old = old
      self.new = new
    }

    mutating func markChanges(removed: inout [Bool], inserted: inout [Bool]) {
      // The common head and tail (git's xdl_trim_ends).
      var head = 0
      let shorter = min(old.count, new.count)
      while head < shorter, old[head] == new[head] { head += 1 }
      var tail = 0
      while tail < shorter - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
      let oldRange = head..<(old.count - tail)
      let newRange = head..<(new.count - tail)
      // How often each token occurs in each whole sequence.
      let tokens = Int(max(old.max() ?? -1, new.max() ?? -1)) + 1
      var inOld = [Int](repeating: 0, count: max(tokens, 0))
      var inNew = [Int](repeating: 0, count: max(tokens, 0))
      for token in old { inOld[Int(token)] += 1 }
      for token in new { inNew[Int(token)] += 1 }
      (oldTokens, oldIndex) = Self.kept(
        old, oldRange, counts: inNew, limit: min(roughSquareRoot(old.count), frequentCap), changed: &removed)
      (newTokens, newIndex) = Self.kept(
        new, newRange, counts: inOld, limit: min(roughSquareRoot(new.count), frequentCap), changed: &inserted)
      let diagonals = oldTokens.count + newTokens.count + 3
      forward = [Int](repeating: -1, count: diagonals)
      backward = [Int](repeating: -1, count: diagonals)
      diagonalOffset = newTokens.count + 1
      compare(
        oldLow: 0, oldHigh: oldTokens.count, newLow: 0, newHigh: newTokens.count, exact: false, removed: &removed,
        inserted: &inserted)
    }

    /// The tokens of `sequence[range]` the search keeps (git's xdl_cleanup_records): a token the other sequence lacks
    /// is a change outright, and so is one it holds `limit` times or more, when changes of either kind outnumber
    /// frequent tokens around it.
    private static func kept(
      _ sequence: UnsafeBufferPointer<Int32>, _ range: Range<Int>, counts: [Int], limit: Int, changed: inout [Bool]
    ) -> ([Int32], [Int]) {
      // 0: no match in the other sequence, 1: some, 2: frequent.
      var kind = [UInt8](repeating: 0, count: sequence.count)
      for index in range {
        let count = counts[Int(sequence[index])]
        kind[index] = count == 0 ? 0 : count >= limit ? 2 : 1
      }
      var tokens: [Int32] = []
      var indices: [Int] = []
      tokens.reserveCapacity(range.count)
      indices.reserveCapacity(range.count)
      for index in range {
        let keep =
          kind[index] == 1
          || (kind[index] == 2
            && !amongChanges(kind, index, low: range.lowerBound, high: range.upperBound - 1))
        if keep {
          tokens.append(sequence[index])
          indices.append(index)
        } else {
          changed[index] = true
        }
      }
      return (tokens, indices)
    }

    /// Whether the frequent token at `index` stands in a run of unmatched and frequent tokens with unmatched ones on
    /// both sides, outnumbering the frequent ones three to one (git's xdl_clean_mmatch).
    private static func amongChanges(_ kind: [UInt8], _ index: Int, low: Int, high: Int) -> Bool {
      let low = max(low, index - scanWindow)
      let high = min(high, index + scanWindow)
      var unmatchedBefore = 0
      var frequentBefore = 1
      var r = 1
      while index - r >= low {
        if kind[index - r] == 0 {
          unmatchedBefore += 1
        } else if kind[index - r] == 2 {
          frequentBefore += 1
        } else {
          break
        }
        r += 1
      }
      guard unmatchedBefore > 0 else { return false }
      var unmatchedAfter = 0
      var frequentAfter = 1
      r = 1
      while index + r <= high {
        if kind[index + r] == 0 {
          unmatchedAfter += 1
        } else if kind[index + r] == 2 {
          frequentAfter += 1
        } else {
          break
        }
        r += 1
      }
      guard unmatchedAfter > 0 else { return false }
      let unmatched = unmatchedBefore + unmatchedAfter
      let frequent = frequentBefore + frequentAfter
      return frequent * 4 < frequent + unmatched
    }

    /// Marks the changes between `oldTokens[oldLow..<oldHigh]` and `newTokens[newLow..<newHigh]` (git's
    /// xdl_recs_cmp): recurses on the lower half of each split and loops on the upper one.
    mutating func compare(
      oldLow: Int, oldHigh: Int, newLow: Int, newHigh: Int, exact: Bool, removed: inout [Bool],
      inserted: inout [Bool]
    ) {
      var (oldLow, oldHigh, newLow, newHigh, exact) = (oldLow, oldHigh, newLow, newHigh, exact)
      while true {
        while oldLow < oldHigh, newLow < newHigh, oldTokens[oldLow] == newTokens[newLow] {
          oldLow += 1
          newLow += 1
        }
        while oldLow < oldHigh, newLow < newHigh, oldTokens[oldHigh - 1] == newTokens[newHigh - 1] {
          oldHigh -= 1
          newHigh -= 1
        }
        if oldLow == oldHigh {
          for index in newLow..<newHigh { inserted[newIndex[index]] = true }
          return
        }
        if newLow == newHigh {
          for index in oldLow..<oldHigh { removed[oldIndex[index]] = true }
          return
        }
        let split = self.split(oldLow: oldLow, oldHigh: oldHigh, newLow: newLow, newHigh: newHigh, exact: exact)
        compare(
          oldLow: oldLow, oldHigh: split.x, newLow: newLow, newHigh: split.y, exact: split.lowExact,
          removed: &removed, inserted: &inserted)
        oldLow = split.x
        newLow = split.y
        exact = split.highExact
      }
    }

    struct Split {
      var x: Int
      var y: Int
      var lowExact: Bool
      var highExact: Bool
    }

    /// git's xdl_split: where to split the box, searching from both corners one edit cost at a time.
    mutating func split(oldLow: Int, oldHigh: Int, newLow: Int, newHigh: Int, exact: Bool) -> Split {
      let o = diagonalOffset
      let minDiagonal = oldLow - newHigh
      let maxDiagonal = oldHigh - newLow
      let forwardMiddle = oldLow - newLow
      let backwardMiddle = oldHigh - newHigh
      let odd = (forwardMiddle - backwardMiddle) & 1 != 0
      var (forwardMin, forwardMax) = (forwardMiddle, forwardMiddle)
      var (backwardMin, backwardMax) = (backwardMiddle, backwardMiddle)
      forward[o + forwardMiddle] = oldLow
      backward[o + backwardMiddle] = oldHigh
      var cost = 1
      while true {
        var gotSnake = false
        if forwardMin > minDiagonal {
          forwardMin -= 1
          forward[o + forwardMin - 1] = -1
        } else {
          forwardMin += 1
        }
        if forwardMax < maxDiagonal {
          forwardMax += 1
          forward[o + forwardMax + 1] = -1
        } else {
          forwardMax -= 1
        }
        var d = forwardMax
        while d >= forwardMin {
          var x = forward[o + d - 1] >= forward[o + d + 1] ? forward[o + d - 1] + 1 : forward[o + d + 1]
          let start = x
          var y = x - d
          while x < oldHigh, y < newHigh, oldTokens[x] == newTokens[y] {
            x += 1
            y += 1
          }
          if x - start > MyersDiff.snakeLength { gotSnake = true }
          forward[o + d] = x
          if odd, backwardMin <= d, d <= backwardMax, backward[o + d] <= x {
            return Split(x: x, y: y, lowExact: true, highExact: true)
          }
          d -= 2
        }
        if backwardMin > minDiagonal {
          backwardMin -= 1
          backward[o + backwardMin - 1] = Int.max
        } else {
          backwardMin += 1
        }
        if backwardMax < maxDiagonal {
          backwardMax += 1
          backward[o + backwardMax + 1] = Int.max
        } else {
          backwardMax -= 1
        }
        d = backwardMax
        while d >= backwardMin {
          var x = backward[o + d - 1] < backward[o + d + 1] ? backward[o + d - 1] : backward[o + d + 1] - 1
          let start = x
          var y = x - d
          while x > oldLow, y > newLow, oldTokens[x - 1] == newTokens[y - 1] {
            x -= 1
            y -= 1
          }
          if start - x > MyersDiff.snakeLength { gotSnake = true }
          backward[o + d] = x
          if !odd, forwardMin <= d, d <= forwardMax, x <= forward[o + d] {
            return Split(x: x, y: y, lowExact: true, highExact: true)
          }
          d -= 2
        }
        defer { cost += 1 }
        if exact { continue }
        if gotSnake, cost > MyersDiff.snakeCostLimit {
          if let split = forwardSnake(
            oldLow: oldLow, oldHigh: oldHigh, newLow: newLow, newHigh: newHigh, cost: cost,
            range: forwardMin...forwardMax, middle: forwardMiddle)
          {
            return split
          }
          if let split = backwardSnake(
            oldLow: oldLow, oldHigh: oldHigh, newLow: newLow, newHigh: newHigh, cost: cost,
            range: backwardMin...backwardMax, middle: backwardMiddle)
          {
            return split
          }
        }
        if cost >= MyersDiff.costLimit {
          var forwardBest = (sum: -1, x: -1)
          d = forwardMax
          while d >= forwardMin {
            var x = min(forward[o + d], oldHigh)
            var y = x - d
            if newHigh < y {
              x = newHigh + d
              y = newHigh
            }
            if forwardBest.sum < x + y { forwardBest = (x + y, x) }
            d -= 2
          }
          var backwardBest = (sum: Int.max, x: Int.max)
          d = backwardMax
          while d >= backwardMin {
            var x = max(oldLow, backward[o + d])
            var y = x - d
            if y < newLow {
              x = newLow + d
              y = newLow
            }
            if x + y < backwardBest.sum { backwardBest = (x + y, x) }
            d -= 2
          }
          if (oldHigh + newHigh) - backwardBest.sum < forwardBest.sum - (oldLow + newLow) {
            return Split(
              x: forwardBest.x, y: forwardBest.sum - forwardBest.x, lowExact: true, highExact: false)
          }
          return Split(
            x: backwardBest.x, y: backwardBest.sum - backwardBest.x, lowExact: false, highExact: true)
        }
      }
    }

    /// A forward diagonal whose last `snakeLength` steps were a snake and whose progress, less its distance from the
    /// middle diagonal, is well ahead of the cost: the best such point, if any.
    private func forwardSnake(
      oldLow: Int, oldHigh: Int, newLow: Int, newHigh: Int, cost: Int, range: ClosedRange<Int>, middle: Int
    ) -> Split? {
      var best = 0
      var found: Split?
      for d in stride(from: range.upperBound, through: range.lowerBound, by: -2) {
        let x = forward[diagonalOffset + d]
        let y = x - d
        let value = (x - oldLow) + (y - newLow) - abs(d - middle)
        guard value > MyersDiff.snakeProgress * cost, value > best,
          oldLow + MyersDiff.snakeLength <= x, x < oldHigh, newLow + MyersDiff.snakeLength <= y, y < newHigh
        else { continue }
        var k = 1
        while oldTokens[x - k] == newTokens[y - k] {
          if k == MyersDiff.snakeLength {
            best = value
            found = Split(x: x, y: y, lowExact: true, highExact: false)
            break
          }
          k += 1
        }
      }
      return found
    }

    /// The same from the backward search.
    private func backwardSnake(
      oldLow: Int, oldHigh: Int, newLow: Int, newHigh: Int, cost: Int, range: ClosedRange<Int>, middle: Int
    ) -> Split? {
      var best = 0
      var found: Split?
      for d in stride(from: range.upperBound, through: range.lowerBound, by: -2) {
        let x = backward[diagonalOffset + d]
        let y = x - d
        let value = (oldHigh - x) + (newHigh - y) - abs(d - middle)
        guard value > MyersDiff.snakeProgress * cost, value > best,
          oldLow < x, x <= oldHigh - MyersDiff.snakeLength, newLow < y, y <= newHigh - MyersDiff.snakeLength
        else { continue }
        var k = 0
        while oldTokens[x + k] == newTokens[y + k] {
          if k == MyersDiff.snakeLength - 1 {
            best = value
            found = Split(x: x, y: y, lowExact: false, highExact: true)
            break
          }
          k += 1
        }
      }
      return found
    }
  }
}
