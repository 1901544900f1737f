import Foundation

/// The identity of a record: a name, unique within its zone, and the zone.
///
/// ```swift
/// let id = try RecordID(recordName: "note-42", zoneID: notes)
/// let fresh = RecordID(zoneID: notes)    // a UUID name, as CloudKit makes by default
/// ```
///
/// Two record IDs are equal when their names and zones are equal.
public struct RecordID: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The record's name: 1–255 printable ASCII characters.
  ///
  /// Names that start with `_` are the server's: user records (`_9a06c1…`) and records CloudKit makes. They read and
  /// compare like any other; a client may not *create* a record with one (see ``checkNameForNewRecord()``).
  public var recordName: String { parts.recordName }
  /// The zone that holds the record.
  public var zoneID: ZoneID { parts.zoneID }
  /// The name, the zone and the name's hash, shared by every copy: record IDs are copied into every table, request
  /// and reply a sync engine keeps, and copying one reference costs a fraction of copying three strings.
  private let parts: Parts

  /// A record ID's contents, fixed at creation.
  private final class Parts: Sendable {
    let recordName: String
    let zoneID: ZoneID
    /// The name's hash in this process, computed once: record IDs are the hottest dictionary keys in a sync engine,
    /// and hashing a stored integer costs a fraction of hashing the name's bytes on every lookup. Never encoded or
    /// shown.
    let nameHash: Int

    init(recordName: String, zoneID: ZoneID) {
      self.recordName = recordName
      self.zoneID = zoneID
      nameHash = recordName.hashValue
    }
  }

  /// Creates a record ID after checking the name.
  ///
  /// - Parameters:
  ///   - recordName: 1–255 printable ASCII characters; see ``recordName`` for names starting with `_`.
  ///   - zoneID: The record's zone; the default zone unless given.
  /// - Throws: ``RecordValidationError/invalidName(_:_:violation:)`` naming the bad name and the rule it broke.
  public init(recordName: String, zoneID: ZoneID = .default) throws(RecordValidationError) {
    try NameRules.checkRecordName(recordName)
    parts = Parts(recordName: recordName, zoneID: zoneID)
  }

  /// Creates a record ID with a new UUID name, as CloudKit does when no name is given.
  ///
  /// - Parameter zoneID: The record's zone; the default zone unless given.
  public init(zoneID: ZoneID = .default) {
    parts = Parts(recordName: UUID().uuidString, zoneID: zoneID)
  }

  /// Whether the name is one a client may not choose for a record it creates: it starts with `_`, as the names of
  /// user records and of records the server makes do.
  public var isReservedName: Bool { recordName.utf8.first == UInt8(ascii: "_") }

  /// Checks the rule CloudKit applies when a client creates a record with this ID: the name may not start with `_`.
  ///
  /// Decoding never applies it — IDs from a server may start with `_` — and neither does ``init(recordName:zoneID:)``.
  /// The simulated server applies it to every record a client creates.
  /// - Throws: ``RecordValidationError/invalidName(_:_:violation:)`` with ``NameViolation/leadingUnderscore``.
  public func checkNameForNewRecord() throws(RecordValidationError) {
    try NameRules.checkNameForNewRecord(recordName)
  }

  /// A record ID whose name is not checked: for names the caller made by the rules (a simulator's drawn names).
  package init(uncheckedRecordName recordName: String, zoneID: ZoneID) {
    parts = Parts(recordName: recordName, zoneID: zoneID)
  }

  /// Hashes the record name only, through its stored hash: equal IDs still hash equally, and the zone — nearly always
  /// one of a handful within one store, so it would separate almost nothing — is left out because record IDs are the
  /// hottest dictionary keys in a sync engine. IDs with one name in different zones share a hash and are told apart
  /// by `==`.
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(parts.nameHash)
  }

  /// The hash a `Set` or `Dictionary` keyed by record IDs asks for, mixed from the stored name hash and the table's
  /// seed without a full `Hasher` run. An implementation detail of `Hashable`; call ``hash(into:)`` or `hashValue`.
  /// - Parameter seed: The table's seed.
  public func _rawHashValue(seed: Int) -> Int { StoredHash.tableHash(parts.nameHash, seed: seed) }

  /// Two record IDs are equal when their names and zones are equal. Copies of one ID share their parts, which
  /// answers at once; different names almost always differ in their stored hashes, which are compared next.
  public static func == (lhs: RecordID, rhs: RecordID) -> Bool {
    lhs.parts === rhs.parts
      || (lhs.parts.nameHash == rhs.parts.nameHash && lhs.recordName == rhs.recordName && lhs.zoneID == rhs.zoneID)
  }

  /// `recordName` in `zoneName:ownerName`, for logs.
  public var description: String { "\(recordName) in \(zoneID)" }

  /// Orders by zone, then name, so sorted output is stable.
  public static func < (lhs: RecordID, rhs: RecordID) -> Bool {
    if lhs.zoneID != rhs.zoneID { return lhs.zoneID < rhs.zoneID }
    return lhs.recordName < rhs.recordName
  }
}
