public import Reconcile

/// What a resolver promises about one key when writes of it race: the rule ``Invariant/oneSidedChangesKept`` judges
/// the key's final value by. ``ResolverUnderTest/keyContracts`` names the contract of each key; a key without one is
/// held to ``oneOfTheWrites``, today's rule for every built-in resolver.
///
/// A contract has two parts. ``accepts`` says whether the value the key ended with keeps the promise, given the values
/// of the latest writes (those no other write saw; `nil` for a removal). ``carries`` says whether a value stored on the
/// server carries a write's value: how the judge finds where a write landed, when a merge stores it combined with
/// others rather than as written.
///
/// ```swift
/// let keepBoth = ResolverUnderTest(
///   name: "keep-both-bodies",
///   resolver: FieldMerge(.server, overrides: ["body": .custom { .string("\($0.server) ‖ \($0.client)") }]),
///   lostWriteContract: .oneSidedChangesKept, keyContracts: ["body": .keepsEveryWrite(separator: " ‖ ")])
/// ```
public struct KeyContract: Sendable, CustomStringConvertible {
  /// A short name for messages: `one of the writes`.
  public var name: String
  /// Whether the final value (`nil`: the key is absent) keeps the promise for these latest writes.
  public var accepts: @Sendable (_ latest: [FieldValue?], _ ended: FieldValue?) -> Bool
  /// Whether a value stored on the server carries the value a write wrote.
  public var carries: @Sendable (_ stored: FieldValue, _ written: FieldValue) -> Bool

  /// A contract.
  /// - Parameters:
  ///   - name: A short name for messages.
  ///   - accepts: Whether the final value keeps the promise for the latest writes' values.
  ///   - carries: Whether a stored value carries a written one; equality unless given.
  public init(
    name: String, accepts: @escaping @Sendable (_ latest: [FieldValue?], _ ended: FieldValue?) -> Bool,
    carries: @escaping @Sendable (_ stored: FieldValue, _ written: FieldValue) -> Bool = { $0 == $1 }
  ) {
    self.name = name
    self.accepts = accepts
    self.carries = carries
  }

  /// The key ends with the value of one of the latest writes, or absent when one of them removed it.
  public static let oneOfTheWrites = KeyContract(name: "one of the writes") { latest, ended in latest.contains(ended) }

  /// The key keeps every latest write's string value, joined by `separator` in any order (a keep-both merge that
  /// writes `server + separator + client`); it is absent only when every latest write removed it. A stored value
  /// carries a write when one of its parts is the written string.
  /// - Parameter separator: What the merge puts between the values it keeps.
  public static func keepsEveryWrite(separator: String) -> KeyContract {
    @Sendable func parts(_ value: FieldValue) -> [String] {
      guard case .string(let text) = value else { return [] }
      return text.components(separatedBy: separator)
    }
    @Sendable func carried(_ stored: FieldValue, _ written: FieldValue) -> Bool {
      guard stored != written else { return true }
      guard case .string(let text) = written else { return false }
      return parts(stored).contains(text)
    }
    return KeyContract(
      name: "every write kept, joined by \"\(separator)\"",
      accepts: { latest, ended in
        let values = latest.compactMap { $0 }
        guard let ended else { return values.isEmpty }
        return !values.isEmpty && values.allSatisfy { carried(ended, $0) }
      }, carries: carried)
  }

  /// One write of a key as a merge contract reads it: the value the device showed before, and the value it wrote
  /// (`nil`: none).
  package typealias Edit = (before: FieldValue?, after: FieldValue?)

  /// Every write of a key in the record's life, as a merging policy's contract reads them.
  package struct Writes {
    /// Every write, in order.
    package var all: [Edit]
    /// The latest writes: those no other write saw.
    package var latest: [Edit]
    /// Whether `all[later]` saw `all[earlier]`.
    package var sees: (_ later: Int, _ earlier: Int) -> Bool
  }

  /// For a key a merging policy settles, whether the value it ended with keeps the writes' edits. When set, the judge
  /// asks it instead of ``accepts``.
  package var acceptsEdits: (@Sendable (_ writes: Writes, _ ended: FieldValue?) -> Bool)?

  /// For a key a merging policy settles, whether a value stored on the server carries a write's edit (the merged value
  /// is rarely the one written): how the model finds where the edit landed. When set, it is asked instead of
  /// ``carries``.
  package var carriesEdit: (@Sendable (_ stored: FieldValue?, _ edit: Edit) -> Bool)?

  /// Whether the contract judges edits, so each write must keep the value it started from.
  package var judgesEdits: Bool { acceptsEdits != nil }

  /// For a key a merging policy settles, the edits its values take: how a seeded run's users change it in place
  /// (insert and delete lines, increment, add and remove elements, move them), so the policy has something to merge.
  package var edits: MergedEdits?

  /// A contract over edits.
  package init(
    name: String, edits: MergedEdits,
    carriesEdit: @escaping @Sendable (_ stored: FieldValue?, _ edit: Edit) -> Bool,
    acceptsEdits: @escaping @Sendable (_ writes: Writes, _ ended: FieldValue?) -> Bool
  ) {
    self.init(name: name, accepts: { _, _ in true })
    self.acceptsEdits = acceptsEdits
    self.carriesEdit = carriesEdit
    self.edits = edits
  }

  /// A list merged by union (`FieldMerge.Policy.listUnion`): the value the key ends with holds every element of every
  /// write that survived; a removal may come back, an element never goes.
  public static let everyElementKept = KeyContract(
    name: "every element of every write kept",
    accepts: { latest, ended in
      let written = latest.compactMap { $0 }
      guard let ended else { return written.isEmpty }
      return written.allSatisfy { elementsContained($0, in: ended) }
    }, carries: { stored, written in elementsContained(written, in: stored) })

  @Sendable private static func elementsContained(_ written: FieldValue, in stored: FieldValue) -> Bool {
    guard written != stored else { return true }
    guard case .list(let have) = stored, case .list(let wrote) = written else { return false }
    return wrote.allSatisfy(have.contains)
  }

  /// The name.
  public var description: String { name }
}
