import Foundation

/// Why an edit could not be stamped, or a received record's stamps not observed; see ``EditStamping``.
public enum EditStampingError: Error, Sendable, Hashable, DescribedError {
  /// The stamp field `key` holds a value of another type than the stamping writes.
  case unexpectedFieldType(key: String, expected: FieldType, found: FieldType)
  /// The per-field stamps in `key` cannot be read.
  case malformedStamps(key: String, reason: String)
  /// The hybrid logical clock refused to tick or to accept a remote stamp.
  case clock(HybridLogicalClockError)

  init(_ error: any Error, key: String) {
    switch error {
    case let error as HybridLogicalClockError: self = .clock(error)
    case ConflictResolutionError.unexpectedFieldType(let key, _, let expected, let found):
      self = .unexpectedFieldType(key: key, expected: expected, found: found)
    case ConflictResolutionError.malformedFieldStamps(let key, _, let reason):
      self = .malformedStamps(key: key, reason: reason)
    default: self = .malformedStamps(key: key, reason: "\(error)")
    }
  }

  /// A sentence naming the field or the clock problem.
  public var description: String {
    switch self {
    case .unexpectedFieldType(let key, let expected, let found):
      return "stamp field '\(key)' holds \(found), but edits stamp it as \(expected)"
    case .malformedStamps(let key, let reason): return "the field stamps in '\(key)' cannot be read: \(reason)"
    case .clock(let error): return "the device clock cannot stamp this edit: \(error)"
    }
  }
}
