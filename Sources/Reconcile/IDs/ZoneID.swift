/// The identity of a record zone: its name and the user who owns it.
///
/// ```swift
/// let notes = try ZoneID(zoneName: "Notes")            // owned by the current user
/// let shared = try ZoneID(zoneName: "Trip", ownerName: "_9a06c1")
/// ```
///
/// Names follow CloudKit's rules: 1–255 printable ASCII characters; zone names may not start with `_`
/// (except ``defaultZoneName``). Two zone IDs are equal when both names are equal.
public struct ZoneID: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The name of every database's default zone, `_defaultZone`.
  public static let defaultZoneName = "_defaultZone"
  /// The placeholder owner that means "the current user", `__defaultOwner__`.
  public static let defaultOwnerName = "__defaultOwner__"
  /// The record name of a zone-wide share record, `cloudkit.zoneshare`.
  public static let zoneWideShareRecordName = "cloudkit.zoneshare"

  /// The default zone of the current user's database.
  public static let `default` = ZoneID(uncheckedZoneName: defaultZoneName, ownerName: defaultOwnerName)

  /// The zone's name, unique among one owner's zones.
  public let zoneName: String
  /// The record name of the user who owns the zone, or ``defaultOwnerName`` for the current user.
  public let ownerName: String
  /// Both names' hash in this process, computed once: zone IDs key the tables a server or an engine looks up on every
  /// save, and hashing a stored integer costs a fraction of hashing two names. Never encoded or shown.
  private let namesHash: Int

  /// Creates a zone ID after checking both names.
  ///
  /// - Parameters:
  ///   - zoneName: 1–255 printable ASCII characters, not starting with `_` unless it is ``defaultZoneName``.
  ///   - ownerName: 1–255 printable ASCII characters; defaults to the current user.
  /// - Throws: ``RecordValidationError/invalidName(_:_:violation:)`` naming the bad name and the rule it broke.
  public init(zoneName: String, ownerName: String = ZoneID.defaultOwnerName) throws(RecordValidationError) {
    try NameRules.checkZoneName(zoneName)
    try NameRules.checkOwnerName(ownerName)
    self.zoneName = zoneName
    self.ownerName = ownerName
    namesHash = Self.hashOfNames(zoneName, ownerName)
  }

  init(uncheckedZoneName zoneName: String, ownerName: String) {
    self.zoneName = zoneName
    self.ownerName = ownerName
    namesHash = Self.hashOfNames(zoneName, ownerName)
  }

  /// The hash of a zone's two names, as ``hash(into:)`` feeds it.
  private static func hashOfNames(_ zoneName: String, _ ownerName: String) -> Int {
    var hasher = Hasher()
    hasher.combine(zoneName)
    hasher.combine(ownerName)
    return hasher.finalize()
  }

  /// Hashes both names, through their stored hash.
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(namesHash)
  }

  /// The hash a `Set` or `Dictionary` keyed by zone IDs asks for, mixed from the stored names' hash and the table's
  /// seed without a full `Hasher` run. An implementation detail of `Hashable`; call ``hash(into:)`` or `hashValue`.
  /// - Parameter seed: The table's seed.
  public func _rawHashValue(seed: Int) -> Int { StoredHash.tableHash(namesHash, seed: seed) }

  /// Two zone IDs are equal when both names are equal. Different IDs almost always differ in their stored hashes,
  /// which are compared first.
  public static func == (lhs: ZoneID, rhs: ZoneID) -> Bool {
    lhs.namesHash == rhs.namesHash && lhs.zoneName == rhs.zoneName && lhs.ownerName == rhs.ownerName
  }

  /// Whether this is the default zone (which has no atomic saves and no change fetching).
  public var isDefault: Bool { zoneName == Self.defaultZoneName }

  /// `zoneName:ownerName`, for logs.
  public var description: String { "\(zoneName):\(ownerName)" }

  /// Orders by owner, then zone name, so sorted output is stable.
  public static func < (lhs: ZoneID, rhs: ZoneID) -> Bool {
    (lhs.ownerName, lhs.zoneName) < (rhs.ownerName, rhs.zoneName)
  }
}
