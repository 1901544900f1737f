import Reconcile

extension MergedEdits {
  /// The set elements users add and remove: a small pool, so adds and removes of one element race.
  static let setPool: [FieldValue] = ["a", "b", "c", "d", "e", "f"].map(FieldValue.string)

  /// The value a user's edit of the key leaves, drawn from the one the device shows: a new line (word, character)
  /// inserted at a position or an old one deleted, an increment of −2 to 5 (never 0), an element of the pool added or
  /// removed, or a new element inserted, an old one removed or moved. New pieces and elements are `label` (`d2.41`:
  /// the device and step), unique in the run, so the oracles can tell whose edit survived.
  /// - Parameters:
  ///   - current: The value the device shows (`nil`: none; a value of another kind counts as none).
  ///   - label: The run-unique name of this edit.
  ///   - random: The run's generator.
  func draw(from current: FieldValue?, label: String, random: inout SimulationRandom) -> FieldValue {
    switch self {
    case .text(let granularity): return .string(Self.editText(current, granularity, label: label, random: &random))
    case .counter:
      let delta = Int64([-2, -1, 1, 2, 3, 5][random.below(6)])
      guard case .int64(let have)? = current else { return .int64(delta) }
      return .int64(have &+ delta)
    case .set:
      var elements = current?.listValue ?? []
      let element = random.pick(Self.setPool) ?? "a"
      if let at = elements.firstIndex(of: element) { elements.remove(at: at) } else { elements.append(element) }
      return .list(elements)
    case .orderedList:
      var elements = current?.listValue ?? []
      switch elements.isEmpty ? 0 : random.below(3) {
      case 0:
        let held = Set(elements.compactMap { if case .string(let name) = $0 { name } else { nil } })
        elements.insert(.string(Self.fresh(label, among: held)), at: random.below(elements.count + 1))
      case 1: elements.remove(at: random.below(elements.count))
      default:
        let moved = elements.remove(at: random.below(elements.count))
        elements.insert(moved, at: random.below(elements.count + 1))
      }
      return .list(elements)
    }
  }

  /// `label`, or `label` with primes when a value already holds it (one step may edit a key twice): new pieces and
  /// elements stay unique.
  private static func fresh(_ label: String, among held: Set<String>) -> String {
    var name = label
    while held.contains(name) { name += "'" }
    return name
  }

  /// An edit such as users make to a note, on `granularity`'s pieces: a quarter of draws append a piece at the end
  /// (a line added to a list), a quarter change a piece in place (the first line's, half the time: a title fixed), a
  /// quarter insert one piece or, for lines, paste a paragraph of two or three anywhere, and a quarter delete one.
  /// A line text keeps whether it ends with a line break; a new one ends without one, as notes usually do, half the
  /// time, so merges meet both kinds.
  private static func editText(
    _ current: FieldValue?, _ granularity: FieldMerge.TextGranularity, label: String,
    random: inout SimulationRandom
  ) -> String {
    var pieces: [String]
    let text: String
    if case .string(let value)? = current { text = value } else { text = "" }
    let separator: String
    switch granularity {
    case .line:
      pieces = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if pieces.last == "" { pieces.removeLast() }
      separator = "\n"
    case .word:
      pieces = text.split(separator: " ").map(String.init)
      separator = " "
    case .character:
      pieces = text.map(String.init)
      separator = ""
    }
    let endsWithBreak = text.isEmpty ? random.below(2) == 0 : text.hasSuffix("\n")
    let piece = granularity == .character ? String(label.last ?? "x") : fresh(label, among: Set(pieces))
    switch pieces.isEmpty ? 0 : random.below(4) {
    case 0: pieces.append(piece)
    case 1:
      let index = random.below(2) == 0 ? 0 : random.below(pieces.count)
      let joiner = granularity == .line ? " " : "-"  // a word edited stays one word
      pieces[index] = granularity == .character ? piece : fresh(piece + joiner + pieces[index], among: Set(pieces))
    case 2:
      var inserted = [piece]
      if granularity == .line, random.below(2) == 0 {
        for number in 0..<(1 + random.below(2)) { inserted.append(fresh("\(piece)+\(number)", among: Set(pieces))) }
      }
      pieces.insert(contentsOf: inserted, at: random.below(pieces.count + 1))
    default: pieces.remove(at: random.below(pieces.count))
    }
    let joined = pieces.joined(separator: separator)
    return granularity == .line && endsWithBreak && !joined.isEmpty ? joined + "\n" : joined
  }
}
