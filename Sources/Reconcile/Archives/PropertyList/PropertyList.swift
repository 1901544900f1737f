import Foundation

/// A property-list value, as read from binary (`bplist00`) or XML plists, with the keyed-archive `UID` type.
/// Internal: the public API speaks records, not plists.
indirect enum PropertyList: Hashable, Sendable {
  case string(String)
  case integer(Int64)
  case real(Double)
  case bool(Bool)
  case date(Date)
  case data(Data)
  case array([PropertyList])
  case dictionary([String: PropertyList])
  /// A keyed archive's reference into `$objects`.
  case uid(UInt64)

  /// A short type name for error messages.
  var typeName: String {
    switch self {
    case .string: return "string"
    case .integer: return "integer"
    case .real: return "real"
    case .bool: return "boolean"
    case .date: return "date"
    case .data: return "data"
    case .array: return "array"
    case .dictionary: return "dictionary"
    case .uid: return "UID"
    }
  }
}

/// Why bytes are not a property list this library can read.
struct PropertyListFailure: Error, Equatable {
  /// The byte offset where the problem was found, when one applies.
  var offset: Int?
  var reason: String
}

/// Limits that keep hostile plists from exhausting the stack or memory.
enum PropertyListLimits {
  /// Deeper nesting than this is rejected; real keyed archives nest three or four levels.
  static let maximumDepth = 128
}
