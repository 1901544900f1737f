/// Where one record stands in its sync: the last server version known, the saves whose answers are not in, what the
/// user did locally that the server has not confirmed, and why the record waits. A ``ZoneReplica`` keeps one per
/// record it knows (``ReplicaMetadata/recordStates``); a record with no entry has nothing known about it.
///
/// Print it (``description``) to see a record's state in one line, as the playground's `show` of a device does.
public struct RecordSyncState: Sendable, Hashable, Codable, CustomStringConvertible {
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
  /// The user's deletion the server has not confirmed, with its tombstone.
  public package(set) var deletion: Tombstone?
  /// A deletion done here only (the server never confirmed the record), remembered so that a late copy of this
  /// device's own save is deleted again.
  public package(set) var localDeletion: Tombstone?
  /// The deletion a record created again replaces.
  public package(set) var replacement: Replacement?
  /// A server version held back from the store.
  public package(set) var heldBack: HeldBack?
  /// A record created anew elsewhere while this device had unsent edits.
  public package(set) var recreation: Recreation?
  /// An acknowledged copy the last listing of the zone left out, kept until the next read of the database feed says
  /// whether the zone went meanwhile.
  public package(set) var droppedByListing: Record?

  /// Nothing known.
  public init() {}

  /// How many versions sent are still unanswered.
  public var unacknowledgedSaveCount: Int { unacknowledged.versions.count }

  /// Whether nothing waits: at most the last server version is known.
  public var isSettled: Bool {
    flags.isEmpty && unacknowledged.isEmpty && deletion == nil && localDeletion == nil && replacement == nil
      && heldBack == nil && recreation == nil && droppedByListing == nil
  }

  /// Whether a save of the new record may still land: handed out and unanswered, in doubt, or once unanswered.
  public var saveMayLandLate: Bool { !flags.isDisjoint(with: [.createHandedOut, .createInDoubt, .lateCreateMayLand]) }

  /// One line: the server version's tag and each fact that holds, e.g.
  /// `server t3, deletion owed (awaits fetch), 1 save unanswered`.
  public var description: String {
    var parts: [String] = [serverVersion.map { "server \($0.recordChangeTag ?? "untagged")" } ?? "no server version"]
    if deletion != nil { parts.append(flags.contains(.deletionAwaitsFetch) ? "deletion owed (awaits fetch)" : "deletion owed") }
    if localDeletion != nil { parts.append("deleted here only") }
    if replacement != nil { parts.append("replaces a deletion") }
    if let heldBack { parts.append(heldBack.byHalt ? "held back by a halt" : "held back (copy discarded)") }
    if let recreation { parts.append(recreation.feedRead ? "recreated elsewhere" : "recreated elsewhere (awaits feed)") }
    if droppedByListing != nil { parts.append("dropped by listing") }
    let named: [(Flags, String)] = [
      (.createHandedOut, "create handed out"), (.createInDoubt, "create in doubt"),
      (.lateCreateMayLand, "late create may land"), (.saveAwaitsFetch, "save awaits fetch"),
      (.reuploaded, "uploaded again"), (.uploadedAfterZoneLoss, "uploaded after zone loss"),
    ]
    parts += named.filter { flags.contains($0.0) }.map(\.1)
    if !unacknowledged.isEmpty {
      parts.append("\(unacknowledged.versions.count) save\(unacknowledged.versions.count == 1 ? "" : "s") unanswered")
    }
    return parts.joined(separator: ", ")
  }
}
