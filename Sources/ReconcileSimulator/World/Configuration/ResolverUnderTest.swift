public import Reconcile

/// Your own resolver, plugged into the simulation in place of a built-in one.
///
/// ```swift
/// let mine = ResolverUnderTest(name: "notes-merge", resolver: NotesResolver(),
///                              bookkeeping: EditBookkeeping(editCountKey: "editCount"),
///                              lostWriteContract: .oneSidedChangesKept)
/// let report = PropertyRunner(configuration: SimulationConfiguration(resolver: mine, faults: .flaky),
///                             seeds: 0..<500).run()
/// ```
///
/// Two resolvers under test are equal when their names are: the name stands for the resolver in replay scripts
/// (`resolver NAME`), and ``Simulation/replay(_:resolvers:clients:)`` maps it back.
public struct ResolverUnderTest: Sendable, Hashable, CustomStringConvertible {
  /// The name scripts use; it must not be a built-in's name.
  public var name: String
  /// The resolver.
  public var resolver: any ConflictResolver
  /// The fields each edit writes for it.
  public var bookkeeping: EditBookkeeping
  /// The lost-write invariant it promises, if any: ``Invariant/oneSidedChangesKept``,
  /// ``Invariant/highestEditCountKept`` (with an edit-count field) or ``Invariant/latestStampKept`` (with a stamps
  /// field).
  public var lostWriteContract: Invariant?
  /// Under ``Invariant/oneSidedChangesKept``, what the merge promises for particular keys (a key not named is held to
  /// ``KeyContract/oneOfTheWrites``): a keep-both merge, say, keeps every concurrent value.
  public var keyContracts: [String: KeyContract] = [:]

  /// Describes a resolver under test.
  /// - Parameters:
  ///   - name: Its script name.
  ///   - resolver: The resolver.
  ///   - bookkeeping: The fields each edit writes for it; none unless given.
  ///   - lostWriteContract: The lost-write invariant it promises; none unless given.
  ///   - keyContracts: What it promises for particular keys under ``Invariant/oneSidedChangesKept``; for a key not
  ///     named, ``KeyContract/oneOfTheWrites``.
  public init(
    name: String,
    resolver: any ConflictResolver,
    bookkeeping: EditBookkeeping = .none,
    lostWriteContract: Invariant? = nil,
    keyContracts: [String: KeyContract] = [:]
  ) {
    self.name = name
    self.resolver = resolver
    self.bookkeeping = bookkeeping
    self.lostWriteContract = lostWriteContract
    self.keyContracts = keyContracts
  }

  /// A built-in resolver described the same way.
  /// - Parameter choice: The built-in.
  public init(_ choice: ResolverChoice) {
    self.init(
      name: choice.rawValue, resolver: choice.resolver, bookkeeping: choice.bookkeeping,
      lostWriteContract: choice.lostWriteContract,
      keyContracts: (choice.resolver as? FieldMerge).map(Self.contracts(of:)) ?? [:])
  }

  /// Your own `FieldMerge`, with the contract of each key it merges: `.text` with `overlap: .both` keeps every line
  /// (word, character) a write added and drops every one a write removed, `.counter` counts every increment once,
  /// `.set` and `.orderedList` keep every element added and drop every one removed, `.listUnion` keeps every
  /// element; every other key ends with one of the writes. Seeded runs edit the merged keys in place.
  /// - Parameters:
  ///   - name: Its script name.
  ///   - merge: The resolver.
  ///   - bookkeeping: The fields each edit writes for it (a stamp its same-field policy reads); none unless given.
  public init(name: String, fieldMerge merge: FieldMerge, bookkeeping: EditBookkeeping = .none) {
    self.init(
      name: name, resolver: merge, bookkeeping: bookkeeping, lostWriteContract: .oneSidedChangesKept,
      keyContracts: Self.contracts(of: merge))
  }

  /// The contract of each key a FieldMerge merges (``KeyContract/merged(by:)``).
  private static func contracts(of merge: FieldMerge) -> [String: KeyContract] {
    merge.overrides.compactMapValues(KeyContract.merged(by:))
  }

  /// Equal when the names are.
  public static func == (lhs: ResolverUnderTest, rhs: ResolverUnderTest) -> Bool { lhs.name == rhs.name }

  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// The name.
  public var description: String { name }
}
