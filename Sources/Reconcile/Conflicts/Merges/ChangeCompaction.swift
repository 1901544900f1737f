/// Slides each run of changes in a diff to one canonical place, as `git diff` and GNU `diff` compact theirs: where a
/// run of removed (or inserted) tokens could stand one token earlier or later because the token it would swap with is
/// equal, the diff is the same edit either way, but two diffs of one ancestor that put the run in different places
/// can make a three-way merge see two edits that touch where none do.
///
/// Each run moves as far down as it can (swallowing runs it meets), unless somewhere on the way it stood against a
/// change of the other sequence, where it then goes back to the lowest such place, so a removal and an insertion there
/// form one replacement. The diff stays a common subsequence of the same length.
enum ChangeCompaction {
  /// Compacts a diff given as the tokens of `old` it removes and those of `new` it inserts.
  /// - Complexity: O(*n* + *m*) plus the length of every slide.
  static func compact(
    old: UnsafeBufferPointer<Int32>, new: UnsafeBufferPointer<Int32>, removed: inout [Bool], inserted: inout [Bool]
  ) {
    removed.withUnsafeMutableBufferPointer { removed in
      inserted.withUnsafeMutableBufferPointer { inserted in
        slide(removed, tokens: old, other: inserted)
        slide(inserted, tokens: new, other: removed)
      }
    }
  }

  /// Writes, for each token of the old sequence, the index of the new one's it is matched to, or -1: the tokens
  /// neither removed nor inserted pair up in order.
  static func pair(removed: [Bool], inserted: [Bool], into matched: UnsafeMutableBufferPointer<Int>) {
    var j = 0
    for index in removed.indices {
      guard !removed[index] else {
        matched[index] = -1
        continue
      }
      while j < inserted.count, inserted[j] { j += 1 }
      matched[index] = j
      j += 1
    }
  }

  /// A run of changed tokens `start..<end` of one sequence; an empty run is the place between two unchanged tokens.
  private struct Run {
    var start: Int
    var end: Int
    var isEmpty: Bool { start == end }
  }

  /// Compacts the runs of `changed` (one flag per token of `tokens`), keeping `other`'s runs in step: sliding a run by
  /// one token moves one unchanged token across it, so the other sequence's run facing it moves by one run.
  private static func slide(
    _ changed: UnsafeMutableBufferPointer<Bool>, tokens: UnsafeBufferPointer<Int32>,
    other: UnsafeMutableBufferPointer<Bool>
  ) {
    let count = tokens.count
    var run = firstRun(changed)
    var facing = firstRun(other)
    while true {
      if !run.isEmpty {
        var length = 0
        var earliestEnd = 0
        var endFacingChange = -1
        repeat {
          length = run.end - run.start
          endFacingChange = -1
          while slideUp(&run, changed, tokens) { facing = previousRun(facing, other) }
          earliestEnd = run.end
          if !facing.isEmpty { endFacingChange = run.end }
          while slideDown(&run, changed, tokens) {
            facing = nextRun(facing, other)
            if !facing.isEmpty { endFacingChange = run.end }
          }
        } while length != run.end - run.start  // it swallowed a neighbour: slide the whole again
        if run.end != earliestEnd, endFacingChange != -1 {
          // Back up to the lowest place that faces a change of the other sequence.
          while facing.isEmpty, slideUp(&run, changed, tokens) { facing = previousRun(facing, other) }
        }
      }
      guard run.end < count else { return }
      run = nextRun(run, changed)
      facing = nextRun(facing, other)
    }
  }

  private static func firstRun(_ changed: UnsafeMutableBufferPointer<Bool>) -> Run {
    var end = 0
    while end < changed.count, changed[end] { end += 1 }
    return Run(start: 0, end: end)
  }

  /// The run after the unchanged token that ends `run`.
  private static func nextRun(_ run: Run, _ changed: UnsafeMutableBufferPointer<Bool>) -> Run {
    guard run.end < changed.count else { return run }
    var next = Run(start: run.end + 1, end: run.end + 1)
    while next.end < changed.count, changed[next.end] { next.end += 1 }
    return next
  }

  /// The run before the unchanged token that starts `run`.
  private static func previousRun(_ run: Run, _ changed: UnsafeMutableBufferPointer<Bool>) -> Run {
    guard run.start > 0 else { return run }
    var previous = Run(start: run.start - 1, end: run.start - 1)
    while previous.start > 0, changed[previous.start - 1] { previous.start -= 1 }
    return previous
  }

  /// Moves `run` one token up when the token before it equals its last, joining a run it then touches.
  private static func slideUp(
    _ run: inout Run, _ changed: UnsafeMutableBufferPointer<Bool>, _ tokens: UnsafeBufferPointer<Int32>
  ) -> Bool {
    guard run.start > 0, tokens[run.start - 1] == tokens[run.end - 1] else { return false }
    run.start -= 1
    changed[run.start] = true
    run.end -= 1
    changed[run.end] = false
    while run.start > 0, changed[run.start - 1] { run.start -= 1 }
    return true
  }

  /// Moves `run` one token down when the token after it equals its first, joining a run it then touches.
  private static func slideDown(
    _ run: inout Run, _ changed: UnsafeMutableBufferPointer<Bool>, _ tokens: UnsafeBufferPointer<Int32>
  ) -> Bool {
    guard run.end < changed.count, tokens[run.start] == tokens[run.end] else { return false }
    changed[run.start] = false
    run.start += 1
    changed[run.end] = true
    run.end += 1
    while run.end < changed.count, changed[run.end] { run.end += 1 }
    return true
  }
}
