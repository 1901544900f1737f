import Foundation

/// Reads the device-written fields that resolvers compare: a timestamp or an edit counter, plain or encrypted. A
/// missing field reads as `nil`; a field of another type is an error naming it.
enum StampFields {
  static func timestamp(
    _ key: String, in record: Record, role: ConflictResolutionError.Role
  ) throws(ConflictResolutionError) -> Date? {
    try value(key, in: record).map { value throws(ConflictResolutionError) in
      try timestamp(value, key: key, role: role)
    }
  }

  static func counter(
    _ key: String, in record: Record, role: ConflictResolutionError.Role
  ) throws(ConflictResolutionError) -> Int64? {
    try value(key, in: record).map { value throws(ConflictResolutionError) in
      try counter(value, key: key, role: role)
    }
  }

  /// `value` as a timestamp, or the error naming `key` and the side it came from.
  static func timestamp(
    _ value: FieldValue, key: String, role: ConflictResolutionError.Role
  ) throws(ConflictResolutionError) -> Date {
    guard case .timestamp(let date) = value else {
      throw .unexpectedFieldType(key: key, role: role, expected: .timestamp, found: value.type)
    }
    return date
  }

  /// `value` as a counter, or the error naming `key` and the side it came from.
  static func counter(
    _ value: FieldValue, key: String, role: ConflictResolutionError.Role
  ) throws(ConflictResolutionError) -> Int64 {
    guard case .int64(let count) = value else {
      throw .unexpectedFieldType(key: key, role: role, expected: .int64, found: value.type)
    }
    return count
  }

  /// Whether the client's stamp beats the server's: strictly later, and a missing stamp loses to any present one.
  /// A tie, or two missing stamps, keeps the server's version.
  static func clientIsLater<T: Comparable>(_ client: T?, than server: T?) -> Bool {
    switch (client, server) {
    case (let c?, let s?): return c > s
    case (.some, nil): return true
    case (nil, _): return false
    }
  }

  private static func value(_ key: String, in record: Record) -> FieldValue? {
    record.storage.values[key] ?? record.storage.encrypted[key]
  }
}
