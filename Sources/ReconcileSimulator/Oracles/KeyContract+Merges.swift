import Foundation
import Reconcile

// The contracts of FieldMerge's merging policies, judged on each write's edit: what the device showed before it and
// what it wrote. A merged key ends with a value no device wrote, so "one of the writes" cannot judge it; these say
// what must survive of each write.
extension KeyContract {
  /// `.text` with `overlap: .both`: every line a latest write added (a line of what it wrote that was not in what it
  /// showed) is in the text the key ends with. Lines the writes removed are not judged: where two edits overlap,
  /// `.both` keeps the other side's version of the stretch, removed lines and all.
  package static let textInsertionsKept = KeyContract(name: "every line a write added kept (text merge)") {
    _, latest, ended in
    let final = Set(lines(ended))
    return latest.allSatisfy { edit in
      let before = Set(lines(edit.before))
      return lines(edit.after).allSatisfy { before.contains($0) || final.contains($0) }
    }
  }

  /// `.counter`: the key ends with the sum of every write's increment, `after − before`, a missing value counting as
  /// zero: each increment counted once, none lost, none repeated.
  package static let incrementsCounted = KeyContract(name: "every increment counted once (counter)") {
    all, _, ended in
    var total: Double = 0
    var integer: Int64 = 0
    var integers = true
    for edit in all {
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

  /// `.set` and `.orderedList`: every element a latest write added is in the list the key ends with, and every
  /// element a latest write removed is not, unless another latest write added it.
  package static let listEditsKept = KeyContract(name: "every element added kept, every element removed gone") {
    _, latest, ended in
    let final = elements(ended)
    var added = Set<FieldValue>()
    var removed = Set<FieldValue>()
    for edit in latest {
      let before = Set(elements(edit.before))
      let after = Set(elements(edit.after))
      added.formUnion(after.subtracting(before))
      removed.formUnion(before.subtracting(after))
    }
    return added.allSatisfy(final.contains) && removed.subtracting(added).allSatisfy { !final.contains($0) }
  }

  private static func lines(_ value: FieldValue?) -> [Substring] {
    guard case .string(let text)? = value else { return [] }
    return text.split(separator: "\n")
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
