/// The CloudKit type of a field value, as the wire format names it.
///
/// `FieldType.list(.string)` is `STRING_LIST`; an empty list has no element type and is `.list(nil)`.
public enum FieldType: Sendable, Hashable, Codable, CustomStringConvertible {
  /// `STRING`
  case string
  /// `INT64`; also how a `Bool` is stored.
  case int64
  /// `DOUBLE`
  case double
  /// `TIMESTAMP`
  case timestamp
  /// `BYTES`
  case bytes
  /// `REFERENCE`
  case reference
  /// `ASSET`
  case asset
  /// `LOCATION`
  case location
  /// `<ELEMENT>_LIST`; `nil` for an empty list, whose element type is unknown.
  indirect case list(FieldType?)

  /// The Web Services type name, such as `STRING` or `INT64_LIST`. An empty list says `LIST`.
  package var wireName: String {
    switch self {
    case .string: return "STRING"
    case .int64: return "INT64"
    case .double: return "DOUBLE"
    case .timestamp: return "TIMESTAMP"
    case .bytes: return "BYTES"
    case .reference: return "REFERENCE"
    case .asset: return "ASSET"
    case .location: return "LOCATION"
    case .list(let element): return element.map { $0.wireName + "_LIST" } ?? "LIST"
    }
  }

  /// Parses a Web Services type name (`STRING`, `ASSETID`, `TIMESTAMP_LIST`, …). `ASSETID` reads as ``asset``;
  /// `NUMBER_INT64`, the spelling of responses relayed by icloud.com, reads as ``int64`` (and is written `INT64`).
  ///
  /// `ENCRYPTED_BYTES` is not a field type of its own: it marks an encrypted value, see ``Record/encryptedValues``.
  /// - Parameter wireName: The type string from a record's JSON.
  package init?(wireName: String) {
    if wireName.hasSuffix("_LIST") {
      guard let element = FieldType(scalarWireName: String(wireName.dropLast(5))) else { return nil }
      self = .list(element)
    } else if let scalar = FieldType(scalarWireName: wireName) {
      self = scalar
    } else {
      return nil
    }
  }

  private init?(scalarWireName: String) {
    switch scalarWireName {
    case "STRING": self = .string
    case "INT64", "NUMBER_INT64": self = .int64
    case "DOUBLE": self = .double
    case "TIMESTAMP": self = .timestamp
    case "BYTES": self = .bytes
    case "REFERENCE": self = .reference
    case "ASSET", "ASSETID": self = .asset
    case "LOCATION": self = .location
    default: return nil
    }
  }

  /// The wire name.
  public var description: String { wireName }

  /// Whether CloudKit can store a value of this type in ``Record/encryptedValues`` (everything but assets and references).
  public var isEncryptable: Bool {
    switch self {
    case .asset, .reference: return false
    case .list(let element): return element?.isEncryptable ?? true
    default: return true
    }
  }
}
