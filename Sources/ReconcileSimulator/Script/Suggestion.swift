/// "Did you mean …?" for misspelt commands.
package enum Suggestion {
  /// The candidate nearest to `word` by edit distance, if it is close enough to be a plausible typo.
  /// Words longer than this are not typos of a command word, and the O(*m*·*n*) distance would be slow on them.
  package static let longestWord = 64

  package static func closest(to word: String, in candidates: [String]) -> String? {
    guard word.utf8.count <= longestWord else { return nil }
    let scored = candidates.map { ($0, distance(word, $0)) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    return best.1 <= max(2, word.count / 3) ? best.0 : nil
  }

  /// Levenshtein distance, O(*m*·*n*).
  package static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in stride(from: 1, through: b.count, by: 1) {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
