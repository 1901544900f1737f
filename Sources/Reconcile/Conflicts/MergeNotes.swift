/// What a merge tells beyond the record it returns, for whoever explains it: how many stretches of each text key both
/// sides changed differently, and how the policy settled them. A sync core listens around its call to a resolver
/// (``listening(_:)``), so the notes reach it through any wrapper (a resolver set, a schema guard, an app's own); a
/// resolver called with no one listening writes nothing.
package final class MergeNotes: @unchecked Sendable {
  /// One text key's merge.
  package struct Text: Sendable, Hashable {
    /// Stretches both sides changed differently.
    package var overlaps: Int
    /// How the policy settled them.
    package var settledBy: FieldMerge.TextOverlap
  }

  /// Each text key merged, by key.
  package private(set) var texts: [String: Text] = [:]

  /// The notes the merge under way writes to: set only for the duration of one synchronous ``listening(_:)`` call,
  /// and written only from inside it (so the class needs no lock).
  @TaskLocal private static var current: MergeNotes?

  private init() {}

  /// Runs `body` (a call to a resolver) with notes listening, and returns what it returned with what was noted.
  package static func listening<Result>(_ body: () throws -> Result) rethrows -> (Result, MergeNotes) {
    let notes = MergeNotes()
    let result = try $current.withValue(notes) { try body() }
    return (result, notes)
  }

  /// Notes a text key's merge, when someone listens.
  static func noteText(_ key: String, overlaps: Int, settledBy: FieldMerge.TextOverlap) {
    current?.texts[key] = Text(overlaps: overlaps, settledBy: settledBy)
  }
}
