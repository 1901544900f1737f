public import Foundation

/// Writes, on every local edit, the fields a resolver later compares — and learns from records received.
///
/// Resolvers that compare device-written fields need those fields written on *every* edit, by the app, before the
/// record is saved: ``EditCountWins`` an edit counter, ``LocalClockLastWriterWins`` a device timestamp, ``FieldMerge``
/// the counters and timestamps its policies name, ``HybridLogicalClockMerge`` a stamp per changed field. Each adopts this
/// protocol, so an app calls one method where the user edits:
///
/// ```swift
/// note["title"] = newTitle                               // the user's change
/// try resolver.stampEdit(&note, clock: &deviceClock)     // the resolver's bookkeeping
/// store.save(note)                                       // then queue it for upload
/// ```
///
/// and one where records arrive from the server:
///
/// ```swift
/// try resolver.observeStamps(of: fetched, clock: &deviceClock)
/// ```
///
/// ``EditBookkeeping`` names the three kinds of field directly, for code that configures them apart from a resolver.
public protocol EditStamping: Sendable {
  /// The fields the stamping writes. The app should not edit them itself.
  var stampedKeys: [String] { get }

  /// Stamps a local edit of `record`: call it after the user's change, before the record is stored or saved.
  /// - Parameters:
  ///   - record: The edited record; its stamp fields are written (and so marked changed).
  ///   - clock: This device's hybrid logical clock; stamps that need it tick it.
  ///   - time: This device's physical clock; `Date()` unless given.
  /// - Throws: ``EditStampingError`` naming a stamp field of the wrong type, unreadable stamps, or a clock that cannot
  ///   tick. The record is unchanged then.
  func stampEdit(_ record: inout Record, clock: inout HybridLogicalClock, at time: Date) throws(EditStampingError)

  /// Learns from a record received from the server, so this device's next stamps order after it.
  /// - Parameters:
  ///   - record: A fetched record, or the result of a merge.
  ///   - clock: This device's hybrid logical clock.
  ///   - time: This device's physical clock; `Date()` unless given.
  /// - Throws: ``EditStampingError`` naming unreadable stamps, or a stamp too far ahead for the clock.
  func observeStamps(of record: Record, clock: inout HybridLogicalClock, at time: Date) throws(EditStampingError)
}

extension EditStamping {
  /// Stamps a local edit at the current time; see ``stampEdit(_:clock:at:)``.
  /// - Parameters:
  ///   - record: The edited record.
  ///   - clock: This device's hybrid logical clock.
  /// - Throws: ``EditStampingError``.
  public func stampEdit(_ record: inout Record, clock: inout HybridLogicalClock) throws(EditStampingError) {
    try stampEdit(&record, clock: &clock, at: Date())
  }

  /// Learns from a received record at the current time; see ``observeStamps(of:clock:at:)``.
  /// - Parameters:
  ///   - record: A fetched record.
  ///   - clock: This device's hybrid logical clock.
  /// - Throws: ``EditStampingError``.
  public func observeStamps(of record: Record, clock: inout HybridLogicalClock) throws(EditStampingError) {
    try observeStamps(of: record, clock: &clock, at: Date())
  }

  /// Nothing to learn: stamps that need no clock (counters, device timestamps) are the default.
  /// - Parameters:
  ///   - record: A fetched record.
  ///   - clock: This device's hybrid logical clock.
  ///   - time: This device's physical clock.
  public func observeStamps(of record: Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {}
}

/// The stamps every built-in writes, in one place: counters incremented, timestamps set, each where the field already
/// is (plain or encrypted; plain when new).
enum EditStamps {
  /// Checks that `key`, if present, holds a value of `type`, so a stamping can refuse before it writes anything (and
  /// without copying the record to roll back).
  static func check(_ key: String, is type: FieldType, in record: Record) throws(EditStampingError) {
    let (current, _) = value(key, in: record)
    if let current, current.type != type { throw .unexpectedFieldType(key: key, expected: type, found: current.type) }
  }

  /// Increments the counter and sets the timestamp, then stamps the changed keys on the clock. Types are checked
  /// before anything is written; if the clock then fails, the two fields get their old values back. The record is
  /// never copied, so its storage is written in place.
  static func stamp(
    counter: String?, timestamp: String?, fieldStamps: String?, in record: inout Record,
    clock: inout HybridLogicalClock,
    at time: Date
  ) throws(EditStampingError) {
    if let counter { try check(counter, is: .int64, in: record) }
    if let timestamp { try check(timestamp, is: .timestamp, in: record) }
    guard let fieldStamps else {
      if let counter { try incrementCounter(counter, in: &record) }
      if let timestamp { try setTimestamp(timestamp, to: time, in: &record) }
      return
    }
    func saved(_ key: String?) -> (String, FieldValue?, FieldValue?, Bool)? {
      key.map { ($0, record.storage.values[$0], record.storage.encrypted[$0], record.storage.changedKeys.contains($0)) }
    }
    let (savedCounter, savedTimestamp) = (saved(counter), saved(timestamp))
    if let counter { try incrementCounter(counter, in: &record) }
    if let timestamp { try setTimestamp(timestamp, to: time, in: &record) }
    do {
      try stampFields(fieldStamps, in: &record, clock: &clock, at: time)
    } catch {
      for case (let key, let plain, let encrypted, let wasChanged)? in [savedCounter, savedTimestamp] {
        record.restoreValue(key, plain: plain, encrypted: encrypted, changed: wasChanged)
      }
      throw error
    }
  }

  static func incrementCounter(_ key: String, in record: inout Record) throws(EditStampingError) {
    let (current, encrypted) = value(key, in: record)
    var count: Int64 = 0
    if let current {
      guard case .int64(let n) = current else {
        throw .unexpectedFieldType(key: key, expected: .int64, found: current.type)
      }
      count = n
    }
    write(.int64(count &+ 1), key, encrypted: encrypted, in: &record)
  }

  static func setTimestamp(_ key: String, to time: Date, in record: inout Record) throws(EditStampingError) {
    let (current, encrypted) = value(key, in: record)
    if let current, current.type != .timestamp {
      throw .unexpectedFieldType(key: key, expected: .timestamp, found: current.type)
    }
    write(.timestamp(time), key, encrypted: encrypted, in: &record)
  }

  /// Stamps the changed keys on the clock; errors become ``EditStampingError``.
  static func stampFields(_ key: String, in record: inout Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    do {
      try HybridLogicalClockMerge(stampsKey: key).stamp(&record, with: &clock, at: time)
    } catch {
      throw EditStampingError(error, key: key)
    }
  }

  static func observeFields(_ key: String, of record: Record, clock: inout HybridLogicalClock, at time: Date)
    throws(EditStampingError)
  {
    do {
      try HybridLogicalClockMerge(stampsKey: key).observe(record, with: &clock, at: time)
    } catch {
      throw EditStampingError(error, key: key)
    }
  }

  private static func value(_ key: String, in record: Record) -> (FieldValue?, encrypted: Bool) {
    if let plain = record.storage.values[key] { return (plain, false) }
    if let encrypted = record.storage.encrypted[key] { return (encrypted, true) }
    return (nil, false)
  }

  private static func write(_ value: FieldValue, _ key: String, encrypted: Bool, in record: inout Record) {
    if encrypted { record.encryptedValues[key] = value } else { record[key] = value }
  }
}
