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
  public var zoneName: String { names.zoneName }
  /// The record name of the user who owns the zone, or ``defaultOwnerName`` for the current user.
  public var ownerName: String { names.ownerName }
  /// Both names and their hash, shared by every copy: zone IDs ride inside every record ID, and copying one reference
  /// costs a fraction of copying two strings.
  private let names: Names

  /// A zone ID's contents, fixed at creation.
  private final class Names: Sendable {
    let zoneName: String
    let ownerName: String
    /// Both names' hash in this process, computed once: zone IDs key the tables a server or an engine looks up on
    /// every save, and hashing a stored integer costs a fraction of hashing two names. Never encoded or shown.
    let hash: Int

    init(zoneName: String, ownerName: String) {
      self.zoneName = zoneName
      self.ownerName = ownerName
      var hasher = Hasher()
      hasher.combine(zoneName)
      hasher.combine(ownerName)
      hash = hasher.finalize()
    }
  }

  /// Creates a zone ID after checking both names.
  ///
  /// - Parameters:
  ///   - zoneName: 1–255 printable ASCII characters, not starting with `_` unless it is ``defaultZoneName``.
  ///   - ownerName: 1–255 printable ASCII characters; defaults to the current user.
  /// - Throws: ``RecordValidationError/invalidName(_:_:violation:)`` naming the bad name and the rule it broke.
  public init(zoneName: String, ownerName: String = ZoneID.defaultOwnerName) throws(RecordValidationError) {
    try NameRules.checkZoneName(zoneName)
    try NameRules.checkOwnerName(ownerName)
    names = Names(zoneName: zoneName, ownerName: ownerName)
  }

  init(uncheckedZoneName zoneName: String, ownerName: String) {
    names = Names(zoneName: zoneName, ownerName: ownerName)
  }

  /// Hashes both names, through their stored hash.
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(names.hash)
  }

  /// The hash a `Set` or `Dictionary` keyed by zone IDs asks for, mixed from the stored names' hash and the table's
  /// seed without a full `Hasher` run. An implementation detail of `Hashable`; call ``hash(into:)`` or `hashValue`.
  /// - Parameter seed: The table's seed.
  public func _rawHashValue(seed: Int) -> Int { StoredHash.tableHash(names.hash, seed: seed) }

  /// Two zone IDs are equal when both names are equal. Copies of one ID share their names, which answers at once;
  /// different IDs almost always differ in their stored hashes, which are compared next.
  public static func == (lhs: ZoneID, rhs: ZoneID) -> Bool {
    lhs.names === rhs.names
      || (lhs.names.hash == rhs.names.hash && lhs.zoneName == rhs.zoneName && lhs.ownerName == rhs.ownerName)
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
