/// Documents and seeded random edits to them, for the text merge's tests and benchmark: every line unique, so a
/// merge's alignment is never ambiguous and two correct merges agree line for line.
public enum RandomTextEdits {
  /// A document of `lines` unique lines of about `width` characters each, each ending with a line break.
  public static func document(lines: Int, width: Int) -> [String] {
    let filler = String(repeating: "lorem ipsum dolor sit amet ", count: width / 27 + 1)
    return (0..<lines).map { index in
      let head = "line \(index): "
      return head + filler.prefix(max(0, width - head.count - 1)) + "\n"
    }
  }

  /// `lines` after `count` random edits at lines in `within` (clamped to the document): a line replaced, removed,
  /// or a new one inserted before it. New lines carry `tag`, so two sides never write the same new line.
  public static func edited(
    _ lines: [String], edits count: Int, within: Range<Int>, tag: String, random: inout SeededRandom
  ) -> [String] {
    var result = lines
    // Positions are drawn in the original's numbering and applied from the end, so earlier edits do not move them.
    let low = max(0, within.lowerBound)
    let high = min(lines.count, within.upperBound)
    guard low < high else { return result }
    var positions = Set<Int>()
    for _ in 0..<count { positions.insert(Int.random(in: low..<high, using: &random)) }
    for (number, position) in positions.sorted(by: >).enumerated() {
      switch Int.random(in: 0..<3, using: &random) {
      case 0: result[position] = "\(tag) replaced \(position).\(number)\n"
      case 1: result.remove(at: position)
      default: result.insert("\(tag) inserted \(position).\(number)\n", at: position)
      }
    }
    return result
  }
}
