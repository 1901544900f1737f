import Foundation

/// Reads the device-written fields that record-level resolvers compare: a timestamp or an edit counter, plain or
/// encrypted. A missing field reads as `nil`; a field of another type is an error naming it.
enum StampFields {
  static func value(_ key: String, in record: Record) -> FieldValue? {
    record.storage.values[key] ?? record.storage.encrypted[key]
  }

  static func timestamp(
    _ key: String, in record: Record, role: ConflictResolutionError.Role
  ) throws(ConflictResolutionError) -> Date? {
    guard let value = value(key, in: record) else { return nil }
    guard case .timestamp(let date) = value else {
      throw .unexpectedFieldType(key: key, role: role, expected: .timestamp, found: value.type)
    }
    return date
  }

  static func counter(
    _ key: String, in record: Record, role: ConflictResolutionError.Role
  ) throws(ConflictResolutionError) -> Int64? {
    guard let value = value(key, in: record) else { return nil }
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
}
