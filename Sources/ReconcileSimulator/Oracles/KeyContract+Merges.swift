import Foundation
package import Reconcile

// The contracts of FieldMerge's merging policies, judged on each write's edit: what the device showed before it and
// what it wrote. A merged key ends with a value no device wrote, so "one of the writes" cannot judge it; these say
// what must survive of each write.
extension KeyContract {
  /// The contract of a `FieldMerge` policy that merges, or `nil` for one that keeps one side's value (judged as
  /// ``oneOfTheWrites``): `.text` keeps every piece a write added (``textEditsKept(_:overlapKeepsBoth:)``),
  /// `.counter` counts every increment once (``incrementsCounted``), `.set` and `.orderedList` keep every element
  /// added and drop every one removed (``listEditsKept(ordered:)``), `.listUnion` keeps every element
  /// (``everyElementKept``). `.keepBoth` keeps the server's value in the key, so it is one of the writes.
  /// - Parameter policy: The policy a key is merged by.
  package static func merged(by policy: FieldMerge.Policy) -> KeyContract? {
    switch policy {
    case .text(let granularity, let overlap):
      textEditsKept(granularity, overlapKeepsBoth: overlap == .both || overlap == .markers)
    case .counter: incrementsCounted
    case .set: listEditsKept()
    case .orderedList: listEditsKept(ordered: true)
    case .listUnion: everyElementKept
    case .server, .client, .localClock, .editCount, .custom, .keepBoth: nil
    }
  }

  /// `.text`: every piece (line, word or character) a latest write added (one of what it wrote that was not in what it
  /// showed) is in the text the key ends with. Where two edits overlap, `.both` keeps both versions of the stretch, so
  /// this holds for every latest write; a side-picking overlap loses the other side's version, so then it holds for a
  /// write no other write raced. The pieces a write removed are judged only for a write no other raced: they are
  /// gone. Where writes race, an edit next to another's removal overlaps it, and `.both` keeps the other side's version
  /// of the stretch, removed pieces and all — what a removal leaves depends on where the other edits fell, which the
  /// contract does not model.
  /// - Parameters:
  ///   - granularity: The pieces the merge splits text into.
  ///   - overlapKeepsBoth: Whether the policy's overlap is `.both`.
  package static func textEditsKept(_ granularity: FieldMerge.TextGranularity, overlapKeepsBoth: Bool) -> KeyContract {
    let name =
      overlapKeepsBoth
      ? "every \(granularity) a write added kept (text merge)"
      : "an unraced write's \(granularity)s kept (text merge)"
    let carries: @Sendable (FieldValue?, Edit) -> Bool = { stored, edit in
      carried(stored, edit, split: { Set(pieces($0, granularity)) })
    }
    return KeyContract(name: name, edits: .text(granularity), carriesEdit: carries) { writes, ended in
      let latest = writes.latest
      if removedByOne(of: latest, ended) { return true }
      let final = Set(pieces(ended, granularity))
      let alone = latest.count == 1
      return latest.allSatisfy { edit in
        let before = Set(pieces(edit.before, granularity))
        let after = Set(pieces(edit.after, granularity))
        let addedKept = !(overlapKeepsBoth || alone) || after.allSatisfy { before.contains($0) || final.contains($0) }
        let removedGone = !alone || before.subtracting(after).isDisjoint(with: final)
        return addedKept && removedGone
      }
    }
  }

  /// `.counter`: the key ends with the sum of every write's increment, `after − before`, a missing value counting as
  /// zero: each increment counted once, none lost, none repeated.
  /// An increment leaves no trace of its own in a sum, so the first save of the record by its device after it that
  /// holds the key carries it. (One sent before the edit may land after it; the judge needs no more, as it sums every
  /// write, and tries the writes a device withdrew both ways.)
  package static let incrementsCounted = KeyContract(
    name: "every increment counted once (counter)", edits: .counter, carriesEdit: { stored, _ in stored != nil },
    acceptsEdits: countsEveryIncrement)

  /// The rule of ``incrementsCounted``.
  private static func countsEveryIncrement(_ writes: Writes, _ ended: FieldValue?) -> Bool {
    var total: Double = 0
    var integer: Int64 = 0
    var integers = true
    for edit in writes.all {
      switch (edit.before ?? .int64(0), edit.after ?? .int64(0)) {
      case (.int64(let before), .int64(let after)):
        integer &+= after &- before
        total += Double(after) - Double(before)
      case (let before, let after):
        integers = false
        total += (number(after) ?? 0) - (number(before) ?? 0)
      }
    }
    switch ended ?? .int64(0) {
    case .int64(let value): return integers ? value == integer : abs(Double(value) - total) < 1e-9
    case .double(let value): return abs(value - total) <= 1e-9 * max(1, abs(total))
    default: return false
    }
  }

  /// `.set` and `.orderedList`: each element ends as the latest writes that touched it left it — those that added or
  /// removed it, and that no other write touching it saw: present when they all added it, gone when they all removed
  /// it. When some added it and some removed it, it ends either way: each save merges three ways against its own
  /// device's ancestor, so a removal removes what the ancestor held, an addition of the same element included, when it
  /// lands after the addition, and the addition stands when it lands after the removal (`SetRule` decides only where
  /// there is no ancestor). Order is not judged.
  /// - Parameter ordered: Whether the list is ordered, so its users also move elements.
  package static func listEditsKept(ordered: Bool = false) -> KeyContract {
    let carries: @Sendable (FieldValue?, Edit) -> Bool = { stored, edit in
      carried(stored, edit, split: { Set(elements($0)) })
    }
    return KeyContract(
      name: "every element added kept, every element removed gone", edits: ordered ? .orderedList : .set,
      carriesEdit: carries
    ) { writes, ended in
      if removedByOne(of: writes.latest, ended) { return true }
      let final = Set(elements(ended))
      // Per element, the writes that added it (true) or removed it (false).
      var touched: [FieldValue: [(write: Int, added: Bool)]] = [:]
      for (index, edit) in writes.all.enumerated() {
        let before = Set(elements(edit.before))
        let after = Set(elements(edit.after))
        for element in after.subtracting(before) { touched[element, default: []].append((index, true)) }
        for element in before.subtracting(after) { touched[element, default: []].append((index, false)) }
      }
      return touched.allSatisfy { element, ops in
        let latest = ops.filter { op in !ops.contains { $0.write != op.write && writes.sees($0.write, op.write) } }
        if latest.allSatisfy(\.added) { return final.contains(element) }
        if latest.allSatisfy({ !$0.added }) { return !final.contains(element) }
        return true
      }
    }
  }

  /// Whether the key ended absent with a latest write that removed it: one of the writes, as for any key. A merge keeps
  /// a value over a removal, but a record created again after a deletion replaces the one on the server whole.
  private static func removedByOne(of latest: [Edit], _ ended: FieldValue?) -> Bool {
    ended == nil && latest.contains { $0.after == nil }
  }

  /// Whether `stored` carries an edit, split into parts (pieces, elements): it holds every part the edit added, or,
  /// for an edit that added none, holds none it removed. (A part it removed may come back by another device's
  /// concurrent edit, so only what it added proves its landing where it added something.)
  private static func carried<Part: Hashable>(
    _ stored: FieldValue?, _ edit: Edit, split: (FieldValue?) -> Set<Part>
  ) -> Bool {
    let have = split(stored)
    let before = split(edit.before)
    let after = split(edit.after)
    let added = after.subtracting(before)
    guard added.isEmpty else { return added.isSubset(of: have) }
    return before.subtracting(after).isDisjoint(with: have)
  }

  /// The pieces of a text value at `granularity`: lines without their breaks, words without the space between
  /// them, or characters. Empty for a value that is not text.
  private static func pieces(_ value: FieldValue?, _ granularity: FieldMerge.TextGranularity) -> [Substring] {
    guard case .string(let text)? = value else { return [] }
    switch granularity {
    case .line: return text.split(separator: "\n")
    case .word: return text.split(whereSeparator: { $0.isWhitespace })
    case .character: return text.indices.map { text[$0...$0] }
    }
  }

  private static func elements(_ value: FieldValue?) -> [FieldValue] { value?.listValue ?? [] }

  private static func number(_ value: FieldValue) -> Double? {
    switch value {
    case .int64(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }
}
