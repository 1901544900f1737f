/// A common subsequence of two token sequences — unique tokens anchored first (patience diff), the gaps by Myers' O(ND)
/// difference algorithm in linear space (the middle-snake bisection of Myers 1986, section 4b): the three-way merges
/// (``ThreeWayMerge``) build on it.
///
/// Tokens are small integers (the merges intern lines, words, characters or list elements first), so comparing two is
/// one instruction. Each subproblem first strips its common prefix and suffix, which is where every match is recorded.
/// - Complexity: O((*n* + *m*) · *d*) time at worst and O(*n* + *m*) memory for sequences of lengths *n* and *m* that
///   differ by *d* insertions and removals; with unique anchors, each gap costs its own length times its own edits.
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
      worker.diff(aLow: aLow, aHigh: x, bLow: bLow, bHigh: y, into: matched)
      matched[x] = y
      aLow = x + 1
      bLow = y + 1
    }
    worker.diff(aLow: aLow, aHigh: a.count, bLow: bLow, bHigh: b.count, into: matched)
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

    /// Matches `a[aLow..<aHigh]` against `b[bLow..<bHigh]`, recursing on both sides of a middle snake. The recursion
    /// is on halves of the edit distance, so it is O(log d) deep.
    mutating func diff(aLow: Int, aHigh: Int, bLow: Int, bHigh: Int, into matched: UnsafeMutableBufferPointer<Int>) {
      var aLow = aLow
      var bLow = bLow
      var aHigh = aHigh
      var bHigh = bHigh
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
      // A split at a corner would recur on the same problem; the bisection never gives one, and if it did, the rest
      // is left unmatched rather than looping.
      guard let (x, y) = middle(aLow: aLow, aHigh: aHigh, bLow: bLow, bHigh: bHigh),
        (x, y) != (aLow, bLow), (x, y) != (aHigh, bHigh)
      else { return }
      diff(aLow: aLow, aHigh: x, bLow: bLow, bHigh: y, into: matched)
      diff(aLow: x, aHigh: aHigh, bLow: y, bHigh: bHigh, into: matched)
    }

    /// A point on an optimal edit path through the middle of the edit graph, found by searching from both corners
    /// until the paths meet; `nil` when the two ranges share nothing.
    mutating func middle(aLow: Int, aHigh: Int, bLow: Int, bHigh: Int) -> (Int, Int)? {
      let n = aHigh - aLow
      let m = bHigh - bLow
      let maximum = (n + m + 1) / 2
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
              return (aLow + x, bLow + y)
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
              if forwardX >= n - x { return (aLow + forwardX, bLow + forwardY) }
            }
          }
          k += 2
        }
      }
      return nil
    }
  }
}
