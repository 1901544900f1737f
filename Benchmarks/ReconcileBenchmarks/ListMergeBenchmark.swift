import Reconcile

/// The list policies' merges (``FieldMerge/Policy/set(_:)`` and ``FieldMerge/Policy/orderedList``) against what an app
/// developer would write by hand for the same three lists: set algebra over `Set`, and a three-way merge over a longest
/// common subsequence found by the textbook dynamic program. Both are timed in alternating rounds on the same lists.
enum ListMergeBenchmark {
  enum Policy: String, CaseIterable {
    case set = ".set(.addWins)"
    case orderedList = ".orderedList"
  }

  struct Row {
    var policy: Policy
    var elements: Int
    var reconcileNanoseconds: Double
    var handWrittenNanoseconds: Double
  }

  /// Each policy at each size in `sizes`, best of `rounds` alternating rounds.
  static func run(sizes: [Int], budget: Int, rounds: Int = 9) -> [Row] {
    var rows: [Row] = []
    for policy in Policy.allCases {
      for elements in sizes {
        let lists = Self.lists(elements: elements)
        // About the same work per size, fewer calls on longer lists, and at most about 20 ms a round for the
        // hand-written ordered merge, whose table grows with the square of the length.
        let once = nanosecondsPerCall(iterations: 1, rounds: 1) { Self.handWritten(policy, lists).count }.ns
        let iterations = max(min(budget / max(elements, 1), Int(20_000_000 / max(once, 1))), 3)
        var best = (reconcile: Double.infinity, handWritten: Double.infinity)
        for _ in 0..<rounds {
          let handWritten = nanosecondsPerCall(iterations: iterations, rounds: 1) {
            Self.handWritten(policy, lists).count
          }
          let reconcile = nanosecondsPerCall(iterations: iterations, rounds: 1) { Self.reconcile(policy, lists).count }
          best = (min(best.reconcile, reconcile.ns), min(best.handWritten, handWritten.ns))
        }
        rows.append(
          Row(
            policy: policy, elements: elements, reconcileNanoseconds: best.reconcile,
            handWrittenNanoseconds: best.handWritten))
      }
    }
    return rows
  }

  typealias Lists = (ancestor: [FieldValue], server: [FieldValue], client: [FieldValue])

  /// Three versions of a list of `elements` distinct strings: the server inserts one element in twenty and removes one
  /// in twenty-five; the client inserts one in thirty, removes one in forty and moves one in fifty to the front.
  static func lists(elements: Int) -> Lists {
    let ancestor = (0..<elements).map { FieldValue.string("item \($0)") }
    var server: [FieldValue] = []
    var client: [FieldValue] = []
    var moved: [FieldValue] = []
    for (index, element) in ancestor.enumerated() {
      if index % 20 == 7 { server.append(.string("server \(index)")) }
      if index % 25 != 3 { server.append(element) }
      if index % 30 == 11 { client.append(.string("client \(index)")) }
      if index % 50 == 17 {
        moved.append(element)
      } else if index % 40 != 5 {
        client.append(element)
      }
    }
    return (ancestor, server, moved + client)
  }

  static func reconcile(_ policy: Policy, _ lists: Lists) -> [FieldValue] {
    switch policy {
    case .set:
      SetMerge.merge(ancestor: lists.ancestor, server: lists.server, client: lists.client, rule: .addWins)
    case .orderedList:
      OrderedListMerge.merge(ancestor: lists.ancestor, server: lists.server, client: lists.client)
    }
  }

  static func handWritten(_ policy: Policy, _ lists: Lists) -> [FieldValue] {
    switch policy {
    case .set: HandWritten.setMerge(lists)
    case .orderedList: HandWritten.orderedMerge(lists)
    }
  }

  /// The merges as an app developer would write them, kept plain on purpose: the baseline is the obvious code, not
  /// tuned code.
  enum HandWritten {
    /// Keep what both sides hold or a side added; drop what a side removed.
    static func setMerge(_ lists: Lists) -> [FieldValue] {
      let ancestor = Set(lists.ancestor)
      let server = Set(lists.server)
      let client = Set(lists.client)
      var seen = Set<FieldValue>()
      var result: [FieldValue] = []
      for element in lists.server where client.contains(element) || !ancestor.contains(element) {
        if seen.insert(element).inserted { result.append(element) }
      }
      for element in lists.client where !server.contains(element) && !ancestor.contains(element) {
        if seen.insert(element).inserted { result.append(element) }
      }
      return result
    }

    /// A three-way merge over the ancestor's elements both sides kept (an LCS with each side): between two such
    /// elements, take the side that changed the stretch, or the server's then the client's when both did.
    static func orderedMerge(_ lists: Lists) -> [FieldValue] {
      let toServer = matches(lists.ancestor, lists.server)
      let toClient = matches(lists.ancestor, lists.client)
      var result: [FieldValue] = []
      var (o, s, c) = (0, 0, 0)
      for index in 0...lists.ancestor.count {
        let stable: (server: Int, client: Int)
        if index == lists.ancestor.count {
          stable = (lists.server.count, lists.client.count)
        } else if toServer[index] >= 0, toClient[index] >= 0 {
          stable = (toServer[index], toClient[index])
        } else {
          continue
        }
        let base = lists.ancestor[o..<index]
        let server = lists.server[s..<stable.server]
        let client = lists.client[c..<stable.client]
        if server.elementsEqual(base) {
          result += client
        } else if client.elementsEqual(base) || client.elementsEqual(server) {
          result += server
        } else {
          result += server
          result += client
        }
        if index < lists.ancestor.count { result.append(lists.ancestor[index]) }
        (o, s, c) = (index + 1, stable.server + 1, stable.client + 1)
      }
      return result
    }

    /// For each element of `a`, the index of `b` it is matched to in a longest common subsequence, or -1: the
    /// textbook O(n·m) table, then a walk from the start.
    static func matches(_ a: [FieldValue], _ b: [FieldValue]) -> [Int] {
      let width = b.count + 1
      var length = [Int](repeating: 0, count: (a.count + 1) * width)
      for i in stride(from: a.count - 1, through: 0, by: -1) {
        for j in stride(from: b.count - 1, through: 0, by: -1) {
          length[i * width + j] =
            a[i] == b[j]
            ? length[(i + 1) * width + j + 1] + 1 : max(length[(i + 1) * width + j], length[i * width + j + 1])
        }
      }
      var matched = [Int](repeating: -1, count: a.count)
      var (i, j) = (0, 0)
      while i < a.count, j < b.count {
        if a[i] == b[j] {
          matched[i] = j
          (i, j) = (i + 1, j + 1)
        } else if length[(i + 1) * width + j] >= length[i * width + j + 1] {
          i += 1
        } else {
          j += 1
        }
      }
      return matched
    }
  }
}
