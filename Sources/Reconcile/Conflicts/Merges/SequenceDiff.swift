/// A common subsequence of two token sequences — unique tokens anchored first (patience diff), the gaps by Myers' O(ND)
/// difference algorithm in linear space (the middle-snake bisection of Myers 1986, section 4b): the three-way merges
/// (``ThreeWayMerge``) build on it.
///
/// Tokens are small integers (the merges intern lines, words, characters or list elements first), so comparing two is
/// one instruction. Each subproblem first strips its common prefix and suffix, which is where every match is recorded.
/// - Complexity: O((*n* + *m*) · min(*d*, ``costLimit``)) time and O(*n* + *m*) memory for sequences of lengths *n*
///   and *m* that differ by *d* insertions and removals; with unique anchors, each gap costs its own length times its
///   own edits. The limit keeps the worst case (repetitive text, no unique token) from growing with the square of the
///   length, at the price of a diff that may be longer than the shortest there.
package enum SequenceDiff {
  /// For each index of `old`, the index of `new` it is matched to in a common subsequence, or -1.
  ///
  /// Tokens that occur exactly once in each sequence are matched first, as patience diff does: the longest run of
  /// them in the same order in both becomes a chain of anchors, and Myers' algorithm matches only the gaps between
  /// anchors. Text is mostly unique lines, so the gaps are short and the whole costs little more than a pass, however
  /// the edits are spread; where every token is unique, the anchors are a longest common subsequence themselves.
  /// Tokens must be small non-negative numbers (``TokenTable`` and the text merge's table number them densely).
  static func matches(old: [Int32], new: [Int32]) -> [Int] {
    old.withUnsafeBufferPointer { a in
      new.withUnsafeBufferPointer { b in
        [Int](unsafeUninitializedCapacity: a.count) { matched, count in
          matches(old: a, new: b, into: matched)
          count = a.count
        }
      }
    }
  }

  /// ``matches(old:new:)`` written into `matched`, which holds one entry per token of `old`: the merges of short lists
  /// keep everything in buffers on the stack.
  static func matches(
    old a: UnsafeBufferPointer<Int32>, new b: UnsafeBufferPointer<Int32>, into matched: UnsafeMutableBufferPointer<Int>
  ) {
    _ = matched.initialize(from: repeatElement(-1, count: a.count))
    if a.count * b.count <= 1_024 {
      // A common prefix is what the walk of the small paths would match first, pair by pair: matched here, it is not
      // compared again per token of the rest.
      var prefix = 0
      while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] {
        matched[prefix] = prefix
        prefix += 1
      }
      // The rest's matches land past the prefix, shifted by it.
      return smallMatches(
        old: UnsafeBufferPointer(rebasing: a[prefix...]), new: UnsafeBufferPointer(rebasing: b[prefix...]),
        into: UnsafeMutableBufferPointer(rebasing: matched[prefix...]), shift: prefix)
    }
    var worker = Worker(a: a, b: b)
    var aLow = 0
    var bLow = 0
    for (x, y) in uniqueAnchors(old: a, new: b) {
      worker.diff(aLow: aLow, aHigh: x, bLow: bLow, bHigh: y, exact: false, into: matched)
      matched[x] = y
      aLow = x + 1
      bLow = y + 1
    }
    worker.diff(aLow: aLow, aHigh: a.count, bLow: bLow, bHigh: b.count, exact: false, into: matched)
  }

  /// A longest common subsequence of two short sequences (a list a person edits). Where `old` fits in a machine word,
  /// the LCS lengths are kept as bit vectors, one word per token of `new` (``bitParallelMatches(old:new:into:shift:)``);
  /// otherwise by the textbook dynamic program in a table on the stack. Both walk the same way, so they match the same
  /// pairs.
  private static func smallMatches(
    old: UnsafeBufferPointer<Int32>, new: UnsafeBufferPointer<Int32>, into matched: UnsafeMutableBufferPointer<Int>,
    shift: Int = 0
  ) {
    guard !old.isEmpty, !new.isEmpty else { return }
    if old.count <= 64 { return bitParallelMatches(old: old, new: new, into: matched, shift: shift) }
    tableMatches(old: old, new: new, into: matched, shift: shift)
  }

  /// The dynamic program: `table[i * width + j]` is the LCS length of `old[i...]` and `new[j...]`; the walk from the
  /// front takes a pair of equal tokens, else steps past the token whose skipping keeps the longer rest (`old`'s on a
  /// tie). `shift` is added to each index of `new` written: the sequences are what follows a prefix matched already.
  package static func tableMatches(
    old: UnsafeBufferPointer<Int32>, new: UnsafeBufferPointer<Int32>, into matched: UnsafeMutableBufferPointer<Int>,
    shift: Int = 0
  ) {
    let width = new.count + 1
    withUnsafeTemporaryAllocation(of: Int16.self, capacity: (old.count + 1) * width) { table in
      for j in 0...new.count { table[old.count * width + j] = 0 }
      for i in stride(from: old.count - 1, through: 0, by: -1) {
        table[i * width + new.count] = 0
        for j in stride(from: new.count - 1, through: 0, by: -1) {
          table[i * width + j] =
            old[i] == new[j]
            ? table[(i + 1) * width + j + 1] + 1 : max(table[(i + 1) * width + j], table[i * width + j + 1])
        }
      }
      var i = 0
      var j = 0
      while i < old.count, j < new.count {
        if old[i] == new[j] {
          matched[i] = j + shift
          i += 1
          j += 1
        } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
          i += 1
        } else {
          j += 1
        }
      }
    }
  }

  /// The same walk as ``tableMatches(old:new:into:shift:)`` for an `old` of at most 64 tokens (and the same `shift`),
  /// with each column of the table kept as one word (the bit-vector LCS of Allison and Dix, as Hyyrö writes it):
  /// `rows[j]` is built from the end of `new`, over `old` reversed (token `i` at bit `n - 1 - i`), so the LCS length of
  /// `old[i...]` and `new[j...]` is the number of zero bits of `rows[j]` below bit `n - i`. O(*n* · *m*)
  /// one-instruction comparisons and no table.
  package static func bitParallelMatches(
    old: UnsafeBufferPointer<Int32>, new: UnsafeBufferPointer<Int32>, into matched: UnsafeMutableBufferPointer<Int>,
    shift: Int = 0
  ) {
    let n = old.count
    let m = new.count
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: m + 1) { rows in
      var v = UInt64.max
      rows[m] = v
      for j in stride(from: m - 1, through: 0, by: -1) {
        let token = new[j]
        var equal: UInt64 = 0
        for i in 0..<n where old[i] == token { equal |= 1 &<< UInt64(n - 1 - i) }
        let u = v & equal
        v = (v &+ u) | (v &- u)
        rows[j] = v
      }
      // The LCS length of old[i...] and new[j...].
      func length(_ i: Int, _ j: Int) -> Int {
        let below = n - i
        let mask = below >= 64 ? UInt64.max : (1 &<< UInt64(below)) &- 1
        return (~rows[j] & mask).nonzeroBitCount
      }
      var i = 0
      var j = 0
      while i < n, j < m {
        if old[i] == new[j] {
          matched[i] = j + shift
          i += 1
          j += 1
        } else if length(i + 1, j) >= length(i, j + 1) {
          i += 1
        } else {
          j += 1
        }
      }
    }
  }

  /// The pairs of positions of tokens that occur once in `old` and once in `new`, longest chain increasing in both.
  /// - Complexity: O(*n* + *m* + *u* log *u*) for *u* such tokens.
  static func uniqueAnchors(old: UnsafeBufferPointer<Int32>, new: UnsafeBufferPointer<Int32>) -> [(Int, Int)] {
    let tokens = Int(max(old.max() ?? -1, new.max() ?? -1)) + 1
    guard tokens > 0 else { return [] }
    // Per token: how often it occurs in old (0, 1, or 2 for more), and where in new (-1: nowhere, -2: more than once).
    var oldCount = [UInt8](repeating: 0, count: tokens)
    var newPosition = [Int](repeating: -1, count: tokens)
    var pairs: [(Int, Int)] = []
    oldCount.withUnsafeMutableBufferPointer { oldCount in
      newPosition.withUnsafeMutableBufferPointer { newPosition in
        for token in old where token >= 0 && oldCount[Int(token)] < 2 { oldCount[Int(token)] += 1 }
        for (position, token) in new.enumerated() where token >= 0 {
          newPosition[Int(token)] = newPosition[Int(token)] == -1 ? position : -2
        }
        for (position, token) in old.enumerated()
        where token >= 0 && oldCount[Int(token)] == 1 && newPosition[Int(token)] >= 0 {
          pairs.append((position, newPosition[Int(token)]))
        }
      }
    }
    guard !pairs.isEmpty else { return [] }
    // The longest subsequence increasing in new's positions (pairs are in old's order), by patience sorting.
    var tails: [Int] = []  // indices into pairs: the smallest tail of each length
    var previous = [Int](repeating: -1, count: pairs.count)
    for index in pairs.indices {
      let value = pairs[index].1
      // Anchors usually come in order: try the end before searching.
      var low = tails.count
      if let last = tails.last, pairs[last].1 >= value {
        low = 0
        var high = tails.count
        while low < high {
          let middle = (low + high) / 2
          if pairs[tails[middle]].1 < value { low = middle + 1 } else { high = middle }
        }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var chain: [(Int, Int)] = []
    chain.reserveCapacity(tails.count)
    var index = tails.last ?? -1
    while index >= 0 {
      chain.append(pairs[index])
      index = previous[index]
    }
    return chain.reversed()
  }

  /// An edit distance past which a subproblem stops searching for the middle of a shortest edit path and splits at
  /// the point its search reached furthest (the text merge's diff's limit, ``MyersDiff/costLimit``). The diff may then
  /// hold more edits than the fewest, but no input costs more than about this many diagonals per token: a repetitive
  /// list, where no element is unique and the sides differ in most places, would otherwise cost the square of its
  /// length.
  static let costLimit = MyersDiff.costLimit

  private struct Worker {
    let a: UnsafeBufferPointer<Int32>
    let b: UnsafeBufferPointer<Int32>
    /// The forward and backward furthest-reaching x per diagonal, reused across subproblems.
    var forward: [Int] = []
    var backward: [Int] = []

    init(a: UnsafeBufferPointer<Int32>, b: UnsafeBufferPointer<Int32>) {
      self.a = a
      self.b = b
    }

    /// Where a subproblem splits, and whether each half must be diffed exactly (the half whose whole search the split
    /// came from costs at most the limit, so exact is cheap and matches what an unbounded search would).
    struct Split {
      var x: Int
      var y: Int
      var lowExact: Bool
      var highExact: Bool
    }

    /// Matches `a[aLow..<aHigh]` against `b[bLow..<bHigh]`: splits at a middle snake, recurses on the lower half and
    /// loops on the upper one, so the recursion is O(log d) deep however many bounded splits a long text takes.
    /// - Parameter exact: Whether to find a shortest edit path whatever it costs (no ``SequenceDiff/costLimit``).
    mutating func diff(
      aLow: Int, aHigh: Int, bLow: Int, bHigh: Int, exact: Bool, into matched: UnsafeMutableBufferPointer<Int>
    ) {
      var aLow = aLow
      var bLow = bLow
      var aHigh = aHigh
      var bHigh = bHigh
      var exact = exact
      while true {
        while aLow < aHigh, bLow < bHigh, a[aLow] == b[bLow] {
          matched[aLow] = bLow
          aLow += 1
          bLow += 1
        }
        while aLow < aHigh, bLow < bHigh, a[aHigh - 1] == b[bHigh - 1] {
          aHigh -= 1
          bHigh -= 1
          matched[aHigh] = bHigh
        }
        guard aLow < aHigh, bLow < bHigh else { return }
        // A split at a corner would recur on the same problem; the bisection never gives one, and if it did, the
        // rest is left unmatched rather than looping.
        guard let split = middle(aLow: aLow, aHigh: aHigh, bLow: bLow, bHigh: bHigh, exact: exact),
          (split.x, split.y) != (aLow, bLow), (split.x, split.y) != (aHigh, bHigh)
        else { return }
        diff(aLow: aLow, aHigh: split.x, bLow: bLow, bHigh: split.y, exact: exact || split.lowExact, into: matched)
        aLow = split.x
        bLow = split.y
        exact = exact || split.highExact
      }
    }

    /// A point on an optimal edit path through the middle of the edit graph, found by searching from both corners
    /// until the paths meet; past ``SequenceDiff/costLimit`` (unless `exact`), the point either search reached
    /// furthest. `nil` when the two ranges share nothing.
    mutating func middle(aLow: Int, aHigh: Int, bLow: Int, bHigh: Int, exact: Bool) -> Split? {
      let n = aHigh - aLow
      let m = bHigh - bLow
      let unbounded = (n + m + 1) / 2
      let maximum = exact ? unbounded : min(unbounded, SequenceDiff.costLimit)
      let offset = maximum + 1
      let width = 2 * maximum + 3
      if forward.count < width {
        forward = [Int](repeating: -1, count: width)
        backward = [Int](repeating: -1, count: width)
      } else {
        for index in 0..<width {
          forward[index] = -1
          backward[index] = -1
        }
      }
      forward[offset + 1] = 0
      backward[offset + 1] = 0
      let delta = n - m
      let checksForward = delta & 1 != 0
      // Diagonals that ran off the graph's edge are skipped from then on.
      var forwardStart = 0
      var forwardEnd = 0
      var backwardStart = 0
      var backwardEnd = 0
      for d in 0..<maximum {
        var k = -d + forwardStart
        while k <= d - forwardEnd {
          let index = offset + k
          var x =
            k == -d || (k != d && forward[index - 1] < forward[index + 1])
            ? forward[index + 1] : forward[index - 1] + 1
          var y = x - k
          while x < n, y < m, a[aLow + x] == b[bLow + y] {
            x += 1
            y += 1
          }
          forward[index] = x
          if x > n {
            forwardEnd += 2
          } else if y > m {
            forwardStart += 2
          } else if checksForward {
            let other = offset + delta - k
            if other >= 0, other < width, backward[other] != -1, x >= n - backward[other] {
              return Split(x: aLow + x, y: bLow + y, lowExact: false, highExact: false)
            }
          }
          k += 2
        }
        k = -d + backwardStart
        while k <= d - backwardEnd {
          let index = offset + k
          var x =
            k == -d || (k != d && backward[index - 1] < backward[index + 1])
            ? backward[index + 1] : backward[index - 1] + 1
          var y = x - k
          while x < n, y < m, a[aHigh - 1 - x] == b[bHigh - 1 - y] {
            x += 1
            y += 1
          }
          backward[index] = x
          if x > n {
            backwardEnd += 2
          } else if y > m {
            backwardStart += 2
          } else if !checksForward {
            let other = offset + delta - k
            if other >= 0, other < width, forward[other] != -1 {
              let forwardX = forward[other]
              let forwardY = forwardX - (other - offset)
              if forwardX >= n - x {
                return Split(x: aLow + forwardX, y: bLow + forwardY, lowExact: false, highExact: false)
              }
            }
          }
          k += 2
        }
      }
      guard maximum < unbounded else { return nil }
      return furthest(n: n, m: m, d: maximum - 1, offset: offset, aLow: aLow, bLow: bLow)
    }

    /// The split once the searches have spent the cost limit: the point on a forward diagonal with the most of both
    /// sequences behind it, or the point on a backward one with the most ahead of it, whichever went further.
    private func furthest(n: Int, m: Int, d: Int, offset: Int, aLow: Int, bLow: Int) -> Split? {
      var forwardBest = (sum: -1, x: 0, y: 0)
      var backwardBest = (sum: -1, x: 0, y: 0)
      for k in stride(from: -d, through: d, by: 2) {
        let x = forward[offset + k]
        let y = x - k
        if x >= 0, x <= n, y >= 0, y <= m, x + y > forwardBest.sum { forwardBest = (x + y, x, y) }
        let backX = backward[offset + k]
        let backY = backX - k
        if backX >= 0, backX <= n, backY >= 0, backY <= m, backX + backY > backwardBest.sum {
          backwardBest = (backX + backY, n - backX, m - backY)
        }
      }
      guard forwardBest.sum > 0 || backwardBest.sum > 0 else { return nil }
      if forwardBest.sum >= backwardBest.sum {
        return Split(x: aLow + forwardBest.x, y: bLow + forwardBest.y, lowExact: true, highExact: false)
      }
      return Split(x: aLow + backwardBest.x, y: bLow + backwardBest.y, lowExact: false, highExact: true)
    }
  }
}
