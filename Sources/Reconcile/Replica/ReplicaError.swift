/// Why a ``ZoneReplica`` refused a user's action. Nothing changed.
public enum ReplicaError: Error, Sendable, Hashable, DescribedError {
  /// The store has no record with this ID.
  case recordNotFound(RecordID)
  /// The store already has a record with this ID.
  case recordExists(RecordID)
  /// The record is from a newer app version (the schema's check halted): this app shows it and never changes it.
  case schema(SchemaHalt)
  /// The resolver's bookkeeping could not stamp the edit.
  case bookkeeping(RecordID, String)

  /// What went wrong, naming the record.
  public var description: String {
    switch self {
    case .recordNotFound(let id): "no record \(id) on this device"
    case .recordExists(let id): "record \(id) already exists on this device"
    case .schema(let halt): halt.description
    case .bookkeeping(let id, let reason): "could not update the bookkeeping of \(id): \(reason)"
    }
  }
}
