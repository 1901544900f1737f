/// A property every simulated run must keep, checked after the run is driven to quiescence.
public enum Invariant: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
  /// Every device holds exactly the server's records — values and change tags — with nothing queued.
  case convergence
  /// A record whose latest user actions are all deletions (a user's, or a zone deletion under
  /// `ZoneLossPolicy.dropLocalData`) is absent from the server and every device at quiescence — whether or not
  /// the deletion ever reached the server. A create after the deletion revives the record; under `.editWins` so does
  /// an edit made concurrently. Judged from what users did, not from what reached the server.
  case noResurrection
  /// A record whose latest user actions are all creates (under `.editWins`, creates or edits) exists on the server at
  /// quiescence.
  case noLostRecords
  /// `FieldMerge`: for each key of a surviving record, the latest write of the key since the record's last deletion
  /// decides its final value (removals included); concurrent writes leave one of their values. No write is excused for
  /// being queued or in flight. Also: no save writes back a key's older value over a newer one.
  case oneSidedChangesKept
  /// `EditCountWins`: each record ends with at least the highest edit count a device showed after a user's edit in
  /// the record's current life (since its last deletion).
  case highestEditCountKept
  /// `HybridLogicalClockMerge`: each field ends with at least the latest stamp a device showed after a user's edit in
  /// the record's current life.
  case latestStampKept
  /// A halted device sends nothing, read or write, until it is restarted.
  case haltedDeviceSendsNothing
  /// Judged on the wire: after a client is handed an error carrying a retry-after (the request's, or one of its
  /// items'), it sends nothing until that time has passed. A crash excuses it (a relaunched app cannot know).
  case retryAfterHonoured
  /// No device uploads a record its storage damaged: the server never holds the bytes a damaged copy reads as.
  case damagedDataNeverUploaded
  /// No save removes a key the saving device's schema does not know.
  case unknownKeysKept
  /// After faults stop, the devices reach quiescence within the bound.
  case liveness
  /// Change tags are never reused, and each device's zone token only moves forward.
  case serverInvariants
  /// No value a user wrote while signed in to one iCloud account reaches another account's database, nor is shown
  /// on a device signed in to another account: judged on the values users wrote, on the wire and at the end.
  case accountsKeptApart

  /// The playground name.
  public var description: String { rawValue }

  /// The invariants judged on the state the world ends in, which apply only to runs driven to quiescence.
  static let endState: [Invariant] = [
    .convergence, .liveness, .noResurrection, .noLostRecords, .oneSidedChangesKept, .highestEditCountKept,
    .latestStampKept,
  ]
}

/// One broken invariant, with what broke it.
public struct InvariantViolation: Sendable, Hashable, CustomStringConvertible {
  /// The invariant.
  public var invariant: Invariant
  /// What happened, naming devices, records, keys and values.
  public var message: String

  /// Creates a violation.
  /// - Parameters:
  ///   - invariant: The invariant.
  ///   - message: What happened.
  public init(_ invariant: Invariant, _ message: String) {
    self.invariant = invariant
    self.message = message
  }

  /// `invariant: message`.
  public var description: String { "\(invariant): \(message)" }
}
