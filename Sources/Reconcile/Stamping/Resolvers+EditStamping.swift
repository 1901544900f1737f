public import Foundation

extension EditCountWins: EditStamping {
  /// The counter, ``key``.
  public var stampedKeys: [String] { [key] }

  /// Increments the `INT64` counter ``key`` (plain or encrypted, where it already is; plain when new, starting at 1).
  /// - Parameters:
  ///   - record: The edited record.
  ///   - clock: Not used.
  ///   - time: Not used.
  /// - Throws: ``EditStampingError/unexpectedFieldType(key:expected:found:)`` when the counter is not `INT64`.
  public func stampEdit(_ record: inout Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    try EditStamps.incrementCounter(key, in: &record)
  }
}

extension LocalClockLastWriterWins: EditStamping {
  /// The device timestamp, ``key``.
  public var stampedKeys: [String] { [key] }

  /// Sets the `TIMESTAMP` field ``key`` to `time`, this device's clock (plain or encrypted, where it already is).
  /// - Parameters:
  ///   - record: The edited record.
  ///   - clock: Not used.
  ///   - time: This device's physical clock.
  /// - Throws: ``EditStampingError/unexpectedFieldType(key:expected:found:)`` when the field is not a `TIMESTAMP`.
  public func stampEdit(_ record: inout Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    try EditStamps.setTimestamp(key, to: time, in: &record)
  }
}

extension HybridLogicalClockMerge: EditStamping {
  /// The stamps field, ``stampsKey``.
  public var stampedKeys: [String] { [stampsKey] }

  /// Stamps every key in the record's ``Record/changedKeys`` — written or removed — with one new timestamp from
  /// `clock`. Call it after each local edit, before the record is queued for upload.
  /// - Parameters:
  ///   - record: The edited record.
  ///   - clock: This device's clock.
  ///   - time: This device's physical clock.
  /// - Throws: ``EditStampingError``.
  public func stampEdit(_ record: inout Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    try EditStamps.stampFields(stampsKey, in: &record, clock: &clock, at: time)
  }

  /// Moves `clock` past the latest stamp in a record received from elsewhere, so this device's next edits order after
  /// everything it has seen.
  /// - Parameters:
  ///   - record: A fetched record.
  ///   - clock: This device's clock.
  ///   - time: This device's physical clock.
  /// - Throws: ``EditStampingError``.
  public func observeStamps(of record: Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    try EditStamps.observeFields(stampsKey, of: record, clock: &clock, at: time)
  }
}

extension FieldMerge: EditStamping {
  /// The keys its `.editCount(key:)` and `.localClock(key:)` policies name, sorted.
  public var stampedKeys: [String] { stampKeys.map(\.key).sorted() }

  /// Increments every counter and sets every timestamp its policies name. On error the record is unchanged.
  /// - Parameters:
  ///   - record: The edited record.
  ///   - clock: Not used.
  ///   - time: This device's physical clock.
  /// - Throws: ``EditStampingError/unexpectedFieldType(key:expected:found:)`` naming a stamp field of another type.
  public func stampEdit(_ record: inout Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    // Check every field before writing any, so a refusal leaves the record as it was.
    for (key, isClock) in stampKeys { try EditStamps.check(key, is: isClock ? .timestamp : .int64, in: record) }
    for (key, isClock) in stampKeys {
      if isClock {
        try EditStamps.setTimestamp(key, to: time, in: &record)
      } else {
        try EditStamps.incrementCounter(key, in: &record)
      }
    }
  }
}

extension ResolverSet: EditStamping {
  /// Every key any of its resolvers stamps, sorted.
  public var stampedKeys: [String] {
    let all = ([defaultResolver] + Array(resolvers.values)).compactMap { $0 as? any EditStamping }
    return Set(all.flatMap(\.stampedKeys)).sorted()
  }

  /// Stamps as the resolver for the record's type does; nothing when that resolver stamps nothing.
  /// - Parameters:
  ///   - record: The edited record.
  ///   - clock: This device's clock.
  ///   - time: This device's physical clock.
  /// - Throws: ``EditStampingError``.
  public func stampEdit(_ record: inout Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    guard let stamping = (resolvers[record.recordType] ?? defaultResolver) as? any EditStamping else { return }
    try stamping.stampEdit(&record, clock: &clock, at: time)
  }

  /// Observes as the resolver for the record's type does.
  /// - Parameters:
  ///   - record: A fetched record.
  ///   - clock: This device's clock.
  ///   - time: This device's physical clock.
  /// - Throws: ``EditStampingError``.
  public func observeStamps(of record: Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    guard let stamping = (resolvers[record.recordType] ?? defaultResolver) as? any EditStamping else { return }
    try stamping.observeStamps(of: record, clock: &clock, at: time)
  }
}

extension SchemaGuardedResolver: EditStamping {
  /// The keys its base resolver stamps.
  public var stampedKeys: [String] { (base as? any EditStamping)?.stampedKeys ?? [] }

  /// Stamps as the base resolver does.
  /// - Parameters:
  ///   - record: The edited record.
  ///   - clock: This device's clock.
  ///   - time: This device's physical clock.
  /// - Throws: ``EditStampingError``.
  public func stampEdit(_ record: inout Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    try (base as? any EditStamping)?.stampEdit(&record, clock: &clock, at: time)
  }

  /// Observes as the base resolver does.
  /// - Parameters:
  ///   - record: A fetched record.
  ///   - clock: This device's clock.
  ///   - time: This device's physical clock.
  /// - Throws: ``EditStampingError``.
  public func observeStamps(of record: Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    try (base as? any EditStamping)?.observeStamps(of: record, clock: &clock, at: time)
  }
}
