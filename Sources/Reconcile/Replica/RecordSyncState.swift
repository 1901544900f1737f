/// Where one record stands in its sync: the last server version known, the saves whose answers are not in, what the
/// user did locally that the server has not confirmed, and why the record waits. A ``ZoneReplica`` keeps one per
/// record it knows (``ReplicaMetadata/recordStates``); a record with no entry has nothing known about it.
///
/// Print it (``description``) to see a record's state in one line, as the playground's `show` of a device does.
public struct RecordSyncState: Sendable, Hashable, CustomStringConvertible {
  /// Yes-or-no facts of a record's sync, each set by one rule and cleared by the event that settles it.
  public struct Flags: OptionSet, Sendable, Hashable, Codable {
    /// The bits.
    public let rawValue: Int
    /// Flags from their bits.
    /// - Parameter rawValue: The bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A new record (no system fields) handed to the engine, not yet confirmed or refused: one of its saves may have
    /// landed, so deleting it must reach the server.
    public static let createHandedOut = Flags(rawValue: 1 << 0)
    /// A save of the new record went unanswered (`networkFailure`, `serverResponseLost`): it may have landed,
    /// whatever later answers say.
    public static let createInDoubt = Flags(rawValue: 1 << 1)
    /// The record's create went unanswered once (or a crash struck while it was handed out): a copy of it may land at
    /// any time, even after a later copy was answered.
    public static let lateCreateMayLand = Flags(rawValue: 1 << 2)
    /// The deletion owed waits for a fetch that starts after it (a deletion carries no change tag).
    public static let deletionAwaitsFetch = Flags(rawValue: 1 << 3)
    /// A save refused by `serverRecordChanged` without the server's record waits for a fetch to bring that version.
    public static let saveAwaitsFetch = Flags(rawValue: 1 << 4)
    /// Uploaded again after its zone went, not yet saved or merged since: the server version known before is still
    /// the ancestor of its first merge.
    public static let reuploaded = Flags(rawValue: 1 << 5)
    /// A copy from an older zone uploaded again after a deletion that did not stand for the user's, until the
    /// database feed shows no deletion since: a later deletion that does stand takes it from the server too.
    public static let uploadedAfterZoneLoss = Flags(rawValue: 1 << 6)
  }

  /// A record the user created again while its deletion was unsent: the new record replaces the deleted one whole.
  public struct Replacement: Sendable, Hashable, Codable {
    /// The deletion the new record replaces (sent again if the new record is deleted too).
    public var replaced: Tombstone
    /// The keys the app knew when the user created the record again (`nil` without a schema): a key learnt only
    /// later was not the user's to set or leave out.
    public var knownKeys: Set<String>?
  }

  /// A server version this device holds no readable copy of, until a merge takes it.
  public struct HeldBack: Sendable, Hashable, Codable {
    /// The server's version.
    public var version: Record
    /// Whether a halt kept it from merging (the user never saw it), rather than the app discarding its copy.
    public var byHalt: Bool
  }

  /// A record with unsent edits found created anew on the server.
  public struct Recreation: Sendable, Hashable, Codable {
    /// Whether a fetch has read the database feed since: until it says whether the zone went, nothing is sent.
    public var feedRead: Bool
    /// The version created anew, not merged while the decision waits.
    public var version: Record?
  }

  /// The last server version the app knew: the ancestor of the next merge.
  public package(set) var serverVersion: Record?
  /// What was sent and never acknowledged, to tell the device's own landed saves from another device's changes.
  package var unacknowledged = UnacknowledgedSaves()
  /// The yes-or-no facts.
  public package(set) var flags: Flags = []
  /// What only some records ever have (a deletion owed, a replacement, a version held back, …), kept out of line:
  /// the state is copied and moved on every answer and fetch, and most records have none of it.
  private var occasional: Occasional?

  /// The user's deletion the server has not confirmed, with its tombstone.
  public package(set) var deletion: Tombstone? {
    get { occasional?.facts.deletion }
    set { setOccasional(\.deletion, newValue) }
  }
  /// A deletion done here only (the server never confirmed the record), remembered so that a late copy of this
  /// device's own save is deleted again.
  public package(set) var localDeletion: Tombstone? {
    get { occasional?.facts.localDeletion }
    set { setOccasional(\.localDeletion, newValue) }
  }
  /// The deletion a record created again replaces.
  public package(set) var replacement: Replacement? {
    get { occasional?.facts.replacement }
    set { setOccasional(\.replacement, newValue) }
  }
  /// A server version held back from the store.
  public package(set) var heldBack: HeldBack? {
    get { occasional?.facts.heldBack }
    set { setOccasional(\.heldBack, newValue) }
  }
  /// A record created anew elsewhere while this device had unsent edits.
  public package(set) var recreation: Recreation? {
    get { occasional?.facts.recreation }
    set { setOccasional(\.recreation, newValue) }
  }
  /// An acknowledged copy the last listing of the zone left out, kept until the next read of the database feed says
  /// whether the zone went meanwhile.
  public package(set) var droppedByListing: Record? {
    get { occasional?.facts.droppedByListing }
    set { setOccasional(\.droppedByListing, newValue) }
  }

  /// The occasional facts, in a box shared by copies and replaced (never changed) when one changes.
  private final class Occasional: Sendable {
    let facts: OccasionalFacts
    init(_ facts: OccasionalFacts) { self.facts = facts }
  }

  /// The facts only some records have.
  private struct OccasionalFacts: Sendable, Hashable {
    var deletion: Tombstone?
    var localDeletion: Tombstone?
    var replacement: Replacement?
    var heldBack: HeldBack?
    var recreation: Recreation?
    var droppedByListing: Record?

    /// Whether a fact some rule looks for across every record holds: all but a local deletion, which is looked up
    /// by record only.
    var holdsFactLookedFor: Bool {
      deletion != nil || replacement != nil || heldBack != nil || recreation != nil || droppedByListing != nil
    }

    var isEmpty: Bool { !holdsFactLookedFor && localDeletion == nil }
  }

  /// Sets one occasional fact: a new box holds the facts after the change, or none when no fact is left.
  private mutating func setOccasional<Value>(_ fact: WritableKeyPath<OccasionalFacts, Value?>, _ value: Value?) {
    if value == nil, occasional == nil { return }
    var facts = occasional?.facts ?? OccasionalFacts()
    facts[keyPath: fact] = value
    occasional = facts.isEmpty ? nil : Occasional(facts)
  }

  /// Nothing known.
  public init() {}

  /// How many versions sent are still unanswered.
  public var unacknowledgedSaveCount: Int { unacknowledged.versions.count }

  /// Whether nothing waits: at most the last server version is known.
  public var isSettled: Bool { flags.isEmpty && unacknowledged.isEmpty && occasional == nil }

  /// The flags some rule looks for across every record (a create handed out at a relaunch, the deletions and saves a
  /// fetch covers, the copies uploaded again after a zone loss).
  public static let flagsLookedFor: Flags = [
    .createHandedOut, .deletionAwaitsFetch, .saveAwaitsFetch, .reuploaded, .uploadedAfterZoneLoss,
  ]

  /// Whether the state holds a fact some rule looks for across every record: a flag of ``flagsLookedFor``, a
  /// deletion owed, a replacement, a version held back, a recreation or a listing's drop. The facts kept long after (a
  /// create that may land late, a deletion remembered against it, saves unanswered) are looked up by record only, so a
  /// record holding just those is not waiting — and the rules that scan waiting records cost nothing for the history
  /// behind them.
  public var isWaiting: Bool {
    !flags.isDisjoint(with: Self.flagsLookedFor) || occasional?.facts.holdsFactLookedFor == true
  }

  /// Whether a save of the new record may still land: handed out and unanswered, in doubt, or once unanswered.
  public var saveMayLandLate: Bool { !flags.isDisjoint(with: [.createHandedOut, .createInDoubt, .lateCreateMayLand]) }

  /// One line: the server version's tag and each fact that holds, e.g.
  /// `server t3, deletion owed (awaits fetch), 1 save unanswered`.
  public var description: String {
    var parts: [String] = [serverVersion.map { "server \($0.recordChangeTag ?? "untagged")" } ?? "no server version"]
    if deletion != nil {
      parts.append(flags.contains(.deletionAwaitsFetch) ? "deletion owed (awaits fetch)" : "deletion owed")
    }
    if localDeletion != nil { parts.append("deleted here only") }
    if replacement != nil { parts.append("replaces a deletion") }
    if let heldBack { parts.append(heldBack.byHalt ? "held back by a halt" : "held back (copy discarded)") }
    if let recreation {
      parts.append(recreation.feedRead ? "recreated elsewhere" : "recreated elsewhere (awaits feed)")
    }
    if droppedByListing != nil { parts.append("dropped by listing") }
    let named: [(Flags, String)] = [
      (.createHandedOut, "create handed out"), (.createInDoubt, "create in doubt"),
      (.lateCreateMayLand, "late create may land"), (.saveAwaitsFetch, "save awaits fetch"),
      (.reuploaded, "uploaded again"), (.uploadedAfterZoneLoss, "uploaded after zone loss"),
    ]
    parts += named.filter { flags.contains($0.0) }.map(\.1)
    let unanswered = unacknowledgedSaveCount
    if unanswered > 0 { parts.append("\(unanswered) save\(unanswered == 1 ? "" : "s") unanswered") }
    return parts.joined(separator: ", ")
  }
}

extension RecordSyncState: Codable {
  private enum CodingKeys: String, CodingKey {
    case serverVersion, unacknowledged, flags, deletion, localDeletion, replacement, heldBack, recreation
    case droppedByListing
  }

  /// Reads a state as ``ReplicaMetadata`` saves it.
  /// - Throws: The decoder's error for bytes that are not a record's sync state.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    serverVersion = try container.decodeIfPresent(Record.self, forKey: .serverVersion)
    unacknowledged = try container.decodeIfPresent(UnacknowledgedSaves.self, forKey: .unacknowledged) ?? .init()
    flags = try container.decodeIfPresent(Flags.self, forKey: .flags) ?? []
    deletion = try container.decodeIfPresent(Tombstone.self, forKey: .deletion)
    localDeletion = try container.decodeIfPresent(Tombstone.self, forKey: .localDeletion)
    replacement = try container.decodeIfPresent(Replacement.self, forKey: .replacement)
    heldBack = try container.decodeIfPresent(HeldBack.self, forKey: .heldBack)
    recreation = try container.decodeIfPresent(Recreation.self, forKey: .recreation)
    droppedByListing = try container.decodeIfPresent(Record.self, forKey: .droppedByListing)
  }

  /// Writes what the state holds, leaving out what it does not.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(serverVersion, forKey: .serverVersion)
    if !unacknowledged.isEmpty { try container.encode(unacknowledged, forKey: .unacknowledged) }
    if !flags.isEmpty { try container.encode(flags, forKey: .flags) }
    try container.encodeIfPresent(deletion, forKey: .deletion)
    try container.encodeIfPresent(localDeletion, forKey: .localDeletion)
    try container.encodeIfPresent(replacement, forKey: .replacement)
    try container.encodeIfPresent(heldBack, forKey: .heldBack)
    try container.encodeIfPresent(recreation, forKey: .recreation)
    try container.encodeIfPresent(droppedByListing, forKey: .droppedByListing)
  }
}

extension RecordSyncState {
  /// Equal when every fact is equal (the boxes holding them need not be the same).
  public static func == (lhs: RecordSyncState, rhs: RecordSyncState) -> Bool {
    lhs.serverVersion == rhs.serverVersion && lhs.unacknowledged == rhs.unacknowledged && lhs.flags == rhs.flags
      && lhs.occasional?.facts == rhs.occasional?.facts
  }

  /// Hashes every fact.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(serverVersion)
    hasher.combine(unacknowledged)
    hasher.combine(flags)
    hasher.combine(occasional?.facts)
  }
}
