/// The longest common subsequence of two token sequences, by Myers' O(ND) difference algorithm in linear space (the
/// middle-snake bisection of Myers 1986, section 4b): the three-way merges (``ThreeWayMerge``) build on it.
///
/// Tokens are small integers (the merges intern lines, words, characters or list elements first), so comparing two is
/// one instruction. Each subproblem first strips its common prefix and suffix, which is where every match is recorded.
/// - Complexity: O((*n* + *m*) · *d*) time and O(*n* + *m*) memory for sequences of lengths *n* and *m* that differ by
///   *d* insertions and removals; near-identical inputs, the common case of a sync conflict, cost little more than
///   one pass.
enum SequenceDiff {
  /// For each index of `old`, the index of `new` it is matched to in a longest common subsequence, or -1.
  static func matches(old: [Int32], new: [Int32]) -> [Int] {
    var matched = [Int](repeating: -1, count: old.count)
    old.withUnsafeBufferPointer { a in
      new.withUnsafeBufferPointer { b in
        var worker = Worker(a: a, b: b)
        worker.diff(aLow: 0, aHigh: a.count, bLow: 0, bHigh: b.count, into: &matched)
      }
    }
    return matched
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
    mutating func diff(aLow: Int, aHigh: Int, bLow: Int, bHigh: Int, into matched: inout [Int]) {
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
      diff(aLow: aLow, aHigh: x, bLow: bLow, bHigh: y, into: &matched)
      diff(aLow: x, aHigh: aHigh, bLow: y, bHigh: bHigh, into: &matched)
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
