public import Foundation

/// A value stored under a key of a ``Record``: every CloudKit type, and homogeneous lists of them.
///
/// There is no Boolean type, as in CloudKit: `true` and `false` are stored as ``int64(_:)`` 1 and 0.
///
/// ```swift
/// record["title"] = "Groceries"                 // .string
/// record["pinned"] = true                       // .int64(1)
/// record["tags"] = ["home", "weekly"]           // .list([.string, .string])
/// record["due"] = .timestamp(Date())
/// ```
///
/// Equality is structural; two `.double` values compare with `==` on `Double`.
///
/// References, assets and locations are stored out of line, so a value is as small as a string: copying and comparing
/// values, which every merge does for every key, stays cheap.
public enum FieldValue: Sendable, Hashable, CustomStringConvertible {
  /// `STRING`
  case string(String)
  /// `INT64`; Booleans are stored here as 0 and 1.
  case int64(Int64)
  /// `DOUBLE`; must be finite to be saved.
  case double(Double)
  /// `TIMESTAMP`; the wire format carries milliseconds.
  case timestamp(Date)
  /// `BYTES`
  case bytes(Data)
  /// `REFERENCE` to a record in the same zone.
  indirect case reference(Reference)
  /// `ASSET` metadata.
  indirect case asset(Asset)
  /// `LOCATION`
  indirect case location(Location)
  /// `<TYPE>_LIST`: every element has the same type and none is a list.
  case list([FieldValue])

  /// Stores a Boolean as CloudKit does, as `INT64` 1 or 0.
  /// - Parameter bool: The value to store.
  public init(_ bool: Bool) { self = .int64(bool ? 1 : 0) }

  /// The value's type; for a list, the type of its first element.
  public var type: FieldType {
    switch self {
    case .string: return .string
    case .int64: return .int64
    case .double: return .double
    case .timestamp: return .timestamp
    case .bytes: return .bytes
    case .reference: return .reference
    case .asset: return .asset
    case .location: return .location
    case .list(let elements): return .list(elements.first?.type)
    }
  }

  /// The string, if this is a `.string`.
  public var stringValue: String? { if case .string(let v) = self { return v } else { return nil } }
  /// The integer, if this is an `.int64`.
  public var int64Value: Int64? { if case .int64(let v) = self { return v } else { return nil } }
  /// `true` for a non-zero `.int64`, `false` for zero, `nil` for other types.
  public var boolValue: Bool? { int64Value.map { $0 != 0 } }
  /// The number, if this is a `.double`.
  public var doubleValue: Double? { if case .double(let v) = self { return v } else { return nil } }
  /// The date, if this is a `.timestamp`.
  public var dateValue: Date? { if case .timestamp(let v) = self { return v } else { return nil } }
  /// The bytes, if this is `.bytes`.
  public var bytesValue: Data? { if case .bytes(let v) = self { return v } else { return nil } }
  /// The reference, if this is a `.reference`.
  public var referenceValue: Reference? { if case .reference(let v) = self { return v } else { return nil } }
  /// The asset metadata, if this is an `.asset`.
  public var assetValue: Asset? { if case .asset(let v) = self { return v } else { return nil } }
  /// The location, if this is a `.location`.
  public var locationValue: Location? { if case .location(let v) = self { return v } else { return nil } }
  /// The elements, if this is a `.list`.
  public var listValue: [FieldValue]? { if case .list(let v) = self { return v } else { return nil } }

  /// Whether two values are the same case with equal payloads; `.double` payloads compare with `==` on `Double`.
  ///
  /// Written out rather than synthesized, and inlined: the synthesized form switches over the pair of values, which
  /// copies both (retaining a string's or a list's buffer, an atomic operation), while a switch over each side in turn,
  /// inlined where merges compare values stored in a record's table, reads both payloads in place.
  @inline(__always)
  public static func == (lhs: FieldValue, rhs: FieldValue) -> Bool {
    switch lhs {
    case .string(let left): if case .string(let right) = rhs { return left == right }
    case .int64(let left): if case .int64(let right) = rhs { return left == right }
    case .double(let left): if case .double(let right) = rhs { return left == right }
    case .timestamp(let left): if case .timestamp(let right) = rhs { return left == right }
    case .bytes(let left): if case .bytes(let right) = rhs { return left == right }
    case .reference(let left): if case .reference(let right) = rhs { return left == right }
    case .asset(let left): if case .asset(let right) = rhs { return left == right }
    case .location(let left): if case .location(let right) = rhs { return left == right }
    case .list(let left): if case .list(let right) = rhs { return left == right }
    }
    return false
  }

  /// A short readable form: strings quoted, bytes as a count, dates in ISO 8601.
  public var description: String {
    switch self {
    case .string(let v): return "\"\(v)\""
    case .int64(let v): return String(v)
    case .double(let v): return String(v)
    case .timestamp(let v): return v.formatted(.iso8601)
    case .bytes(let v): return "<\(v.count) bytes>"
    case .reference(let v): return v.description
    case .asset(let v): return v.description
    case .location(let v): return v.description
    case .list(let v): return "[" + v.map(\.description).joined(separator: ", ") + "]"
    }
  }
}

extension FieldValue: ExpressibleByStringLiteral {
  /// A `.string`.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension FieldValue: ExpressibleByIntegerLiteral {
  /// An `.int64`.
  public init(integerLiteral value: Int64) { self = .int64(value) }
}

extension FieldValue: ExpressibleByFloatLiteral {
  /// A `.double`.
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension FieldValue: ExpressibleByBooleanLiteral {
  /// An `.int64` 1 or 0, as CloudKit stores Booleans.
  public init(booleanLiteral value: Bool) { self.init(value) }
}

extension FieldValue: ExpressibleByArrayLiteral {
  /// A `.list`.
  public init(arrayLiteral elements: FieldValue...) { self = .list(elements) }
}
