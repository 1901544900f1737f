/// The counter merge behind ``FieldMerge/Policy/counter``: the server's value plus the client's increment since the
/// ancestor.
enum CounterMerge {
  /// `server + (client − ancestor)`, a missing ancestor counting as zero, for `INT64` and `DOUBLE` values alike.
  /// - Throws: ``ConflictResolutionError/unexpectedFieldType(key:role:expected:found:)`` for a value of another type,
  ///   or one whose type differs from the server's; ``ConflictResolutionError/counterOverflow(key:)`` when an
  ///   `INT64` sum does not fit.
  static func merge(key: String, ancestor: FieldValue?, server: FieldValue, client: FieldValue)
    throws(ConflictResolutionError) -> FieldValue
  {
    switch server {
    case .int64(let serverCount):
      let clientCount = try integer(client, key: key, role: .client)
      let ancestorCount =
        try ancestor.map { (value) throws(ConflictResolutionError) in
          try integer(value, key: key, role: .ancestor)
        } ?? 0
      let (increment, over) = clientCount.subtractingReportingOverflow(ancestorCount)
      let (sum, overSum) = serverCount.addingReportingOverflow(increment)
      guard !over, !overSum else { throw .counterOverflow(key: key) }
      return .int64(sum)
    case .double(let serverAmount):
      let clientAmount = try double(client, key: key, role: .client)
      let ancestorAmount =
        try ancestor.map { (value) throws(ConflictResolutionError) in
          try double(value, key: key, role: .ancestor)
        } ?? 0
      return .double(serverAmount + (clientAmount - ancestorAmount))
    default:
      throw .unexpectedFieldType(key: key, role: .server, expected: .int64, found: server.type)
    }
  }

  private static func integer(_ value: FieldValue, key: String, role: ConflictResolutionError.Role)
    throws(ConflictResolutionError) -> Int64
  {
    guard case .int64(let count) = value else {
      throw .unexpectedFieldType(key: key, role: role, expected: .int64, found: value.type)
    }
    return count
  }

  private static func double(_ value: FieldValue, key: String, role: ConflictResolutionError.Role)
    throws(ConflictResolutionError) -> Double
  {
    guard case .double(let amount) = value else {
      throw .unexpectedFieldType(key: key, role: role, expected: .double, found: value.type)
    }
    return amount
  }
}
