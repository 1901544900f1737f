/// A property every simulated run must keep, checked after the run is driven to quiescence.
public enum Invariant: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
  /// Every device holds exactly the server's records — values and change tags — with nothing queued.
  case convergence
  /// Under `DeletePolicy.deleteWins`, no record a device deleted is saved again — except by devices re-uploading their
  /// copies after the whole zone was deleted, when the zone went after the record, or when the server has since
  /// forgotten the deletion (expired tokens): nothing then tells the re-uploading device the record was deleted.
  case noResurrection
  /// `FieldMerge`: every field change no other write raced reaches the server.
  case oneSidedChangesKept
  /// `EditCountWins`: each record ends with the highest edit count any device wrote.
  case highestEditCountKept
  /// `HybridLogicalClockMerge`: each field ends with the latest stamp any device wrote.
  case latestStampKept
  /// A halted device sends nothing, read or write, until it is restarted.
  case haltedDeviceSendsNothing
  /// No device uploads a record its storage damaged: the server never holds `LocalRecord.corruptedValue`.
  case damagedDataNeverUploaded
  /// No save removes a key the saving device's schema does not know.
  case unknownKeysKept
  /// After faults stop, the devices reach quiescence within the bound.
  case liveness
  /// Change tags are never reused, and each device's zone token only moves forward.
  case serverInvariants

  /// The playground name.
  public var description: String { rawValue }
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
