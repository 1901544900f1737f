public import Foundation
public import Reconcile

/// Builds random, valid records from a seed: every value type, lists, encrypted values, system fields, parents and
/// shares. The simulator's property tests reuse it.
public struct RandomRecords {
  /// The generator; read it to continue the same random stream elsewhere.
  public var random: SeededRandom

  /// Creates a generator of records for `seed`.
  public init(seed: UInt64) { random = SeededRandom(seed: seed) }

  /// A random valid zone ID: the default zone half the time, otherwise a custom zone of the current user or another.
  public mutating func zoneID() -> ZoneID {
    if Bool.random(using: &random) { return .default }
    let owner = Bool.random(using: &random) ? ZoneID.defaultOwnerName : "_" + identifier(maxLength: 12)
    // A zone name from a valid identifier cannot fail the rules.
    return (try? ZoneID(zoneName: identifier(maxLength: 20), ownerName: owner)) ?? .default
  }

  /// A random valid record ID in `zone`.
  public mutating func recordID(in zone: ZoneID) -> RecordID {
    let name = identifier(maxLength: 30) + "-" + String(Int.random(in: 0..<100_000, using: &random))
    return (try? RecordID(recordName: name, zoneID: zone)) ?? RecordID(zoneID: zone)
  }

  /// A random identifier: an ASCII letter, then letters, digits and `_`.
  public mutating func identifier(maxLength: Int) -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    let rest = letters + Array("0123456789_")
    let length = Int.random(in: 1...maxLength, using: &random)
    var s = String(letters.randomElement(using: &random) ?? "a")
    for _ in 1..<length { s.append(rest.randomElement(using: &random) ?? "x") }
    return s
  }

  /// A random string, sometimes with non-ASCII text, quotes and escapes.
  public mutating func text(maxLength: Int = 24) -> String {
    let pool = Array("abc xyz ABC 019 _-.,;:\"'\\/\n\t é ü ß ’ 日本 😀 \u{0}")
    let length = Int.random(in: 0...maxLength, using: &random)
    return String((0..<length).map { _ in pool.randomElement(using: &random) ?? "a" })
  }

  /// A date with millisecond precision, as the wire format carries.
  public mutating func date() -> Date {
    let ms = Int64.random(in: 0...4_102_444_800_000, using: &random)  // 1970…2100
    return Date(timeIntervalSince1970: Double(ms) / 1000)
  }

  /// A random scalar (non-list) value of `type`, valid in `zone`.
  public mutating func value(of type: FieldType, zone: ZoneID) -> FieldValue {
    switch type {
    case .string: return .string(text())
    case .int64: return .int64(Int64.random(in: Int64.min...Int64.max, using: &random))
    case .double: return .double(finiteDouble())
    case .timestamp: return .timestamp(date())
    case .bytes:
      return .bytes(
        Data((0..<Int.random(in: 0...32, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
    case .reference:
      let action = Reference.Action.allCases.randomElement(using: &random) ?? .none
      return .reference(Reference(recordID: recordID(in: zone), action: action))
    case .asset:
      return .asset(
        Asset(
          fileChecksum: maybe { $0.identifier(maxLength: 16) },
          size: maybe { Int64.random(in: 0...50_000_000, using: &$0.random) },
          referenceChecksum: maybe { $0.identifier(maxLength: 16) },
          wrappingKey: maybe { $0.identifier(maxLength: 16) },
          receipt: maybe { $0.identifier(maxLength: 16) },
          downloadURL: maybe { "https://example.com/" + $0.identifier(maxLength: 10) }))
    case .location:
      return .location(
        Location(
          latitude: Double.random(in: -90...90, using: &random),
          longitude: Double.random(in: -180...180, using: &random),
          horizontalAccuracy: maybe { $0.finiteDouble() }, verticalAccuracy: maybe { $0.finiteDouble() },
          altitude: maybe { $0.finiteDouble() }, speed: maybe { $0.finiteDouble() },
          course: maybe { $0.finiteDouble() },
          timestamp: maybe { $0.date() }))
    case .list(let element):
      let count = Int.random(in: 0...4, using: &random)
      guard let element, count > 0 else { return .list([]) }
      return .list((0..<count).map { _ in value(of: element, zone: zone) })
    }
  }

  /// Every scalar type.
  public static let scalarTypes: [FieldType] = [
    .string, .int64, .double, .timestamp, .bytes, .reference, .asset, .location,
  ]

  /// A random valid record with up to `maxFields` fields, random system fields, and sometimes a parent and a share.
  public mutating func record(maxFields: Int = 8) -> Record {
    let zone = zoneID()
    var record = Record(recordType: identifier(maxLength: 16), recordID: recordID(in: zone))
    for _ in 0..<Int.random(in: 0...maxFields, using: &random) {
      let scalar = Self.scalarTypes.randomElement(using: &random) ?? .string
      let type: FieldType = Int.random(in: 0..<4, using: &random) == 0 ? .list(scalar) : scalar
      let key = identifier(maxLength: 12)
      if type.isEncryptable && Int.random(in: 0..<4, using: &random) == 0 {
        record.encryptedValues[key] = value(of: type, zone: zone)
      } else {
        record[key] = value(of: type, zone: zone)
      }
    }
    if Bool.random(using: &random) {
      record.recordChangeTag = identifier(maxLength: 10)
      record.creationDate = date()
      record.modificationDate = date()
      record.creatorUserRecordName = maybe { "_" + $0.identifier(maxLength: 32) }
      record.lastModifiedUserRecordName = maybe { "_" + $0.identifier(maxLength: 32) }
      record.modifiedByDevice = maybe { $0.text() }
    }
    if Int.random(in: 0..<4, using: &random) == 0 { record.parent = Reference(recordID: recordID(in: zone)) }
    if Int.random(in: 0..<6, using: &random) == 0 {
      record.share = Reference(
        recordID: (try? RecordID(recordName: ZoneID.zoneWideShareRecordName, zoneID: zone)) ?? recordID(in: zone))
    }
    record.clearChangedKeys()
    return record
  }

  /// A finite double, sometimes integral, tiny or huge.
  public mutating func finiteDouble() -> Double {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return Double(Int.random(in: -1000...1000, using: &random))
    case 1: return Double.random(in: -1...1, using: &random) * 1e-300
    case 2: return Double.random(in: -1...1, using: &random) * 1e300
    default: return Double.random(in: -1e6...1e6, using: &random)
    }
  }

  /// `nil` or a value, at even odds.
  public mutating func maybe<T>(_ make: (inout RandomRecords) -> T) -> T? {
    Bool.random(using: &random) ? make(&self) : nil
  }
}
