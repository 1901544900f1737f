import Reconcile

/// What the oracles found in one run: the violations in a fixed order, each invariant's outcome, and how much of the
/// run the end-state judge judged and set aside.
struct Verdict: Sendable {
  var violations: [InvariantViolation]
  var outcomes: [Invariant: InvariantOutcome]
  var setAside: [SetAside: Int]
  var recordsJudged: Int
}

/// The world at the end of a run, as the end-state judge reads it: what the server holds and what each device shows.
struct EndState: Sendable {
  /// What one device shows.
  struct Device: Sendable {
    var name: String
    var records: [Record]
    var pendingChangeCount: Int
    /// The account the device is signed in to; `nil`: signed out.
    var account: String?
  }

  /// Whether the world became quiescent within the bounds.
  var quiescent: Bool
  /// The server's records of the zone, in the primary account's database.
  var serverRecords: [Record]
  /// The zone's records in each other account's database.
  var otherAccounts: [String: [Record]] = [:]
  /// The server's history.
  var serverEvents: [ServerEvent]
  var devices: [Device]
}
