import Foundation

/// A whole archived `CKRecordZone`: its ID, its capabilities and its share, read from Apple's archive. CloudKit's other
/// keys, undocumented, are kept as they were archived — numbers and Booleans (quota usage, device count, expired) and
/// objects with everything they refer to (change tokens, key IDs, expiration dates) — so a zone writes back as it was
/// read.
public struct ArchivedZone: Sendable, Hashable {
  /// `CKRecordZone.Capabilities`, by raw value; bits Apple adds later are kept.
  public struct Capabilities: OptionSet, Sendable, Hashable {
    /// `fetchChanges` (1): the zone's changes can be fetched.
    public static let fetchChanges = Capabilities(rawValue: 1)
    /// `atomic` (2): a batch of changes is applied all or nothing.
    public static let atomic = Capabilities(rawValue: 2)
    /// `sharing` (4): records in the zone can be shared.
    public static let sharing = Capabilities(rawValue: 4)
    /// `zoneWideSharing` (8): the whole zone can be shared.
    public static let zoneWideSharing = Capabilities(rawValue: 8)

    /// The raw bits.
    public let rawValue: Int64
    /// Capabilities from raw bits.
    /// - Parameter rawValue: The bits.
    public init(rawValue: Int64) { self.rawValue = rawValue }
  }

  /// The zone's ID.
  public var zoneID: ZoneID
  /// What the zone supports.
  public var capabilities: Capabilities
  /// The zone-wide share's record, when the zone is shared whole (`ShareReference`).
  public var share: Reference?
  /// CloudKit's other archived keys, kept to write them back.
  var otherFields: [String: DetachedArchiveObject] = [:]

  /// A zone with these properties.
  /// - Parameters:
  ///   - zoneID: The zone's ID.
  ///   - capabilities: What it supports.
  ///   - share: The zone-wide share, if any.
  public init(zoneID: ZoneID, capabilities: Capabilities, share: Reference? = nil) {
    self.zoneID = zoneID
    self.capabilities = capabilities
    self.share = share
  }

  /// The archived class.
  static let className = "CKRecordZone"

  private enum Keys {
    static let zone = "ZoneID"
    static let capabilities = "Capabilities"
    static let share = "ShareReference"
  }

  /// Reads the archived object's fields.
  init(archived fields: [String: PropertyList], in archive: KeyedArchiveReader, field: String)
    throws(CloudKitArchiveError)
  {
    func path(_ key: String) -> String { field + "." + key }
    guard let zoneID = try archive.zoneID(fields[Keys.zone], field: path(Keys.zone)) else {
      throw .missingField(path(Keys.zone))
    }
    self.zoneID = zoneID
    let bits = try archive.integer(fields[Keys.capabilities], field: path(Keys.capabilities))
    capabilities = Capabilities(rawValue: bits ?? 0)
    share = try archive.reference(fields[Keys.share], field: path(Keys.share))
    for (key, value) in fields where ![Keys.zone, Keys.capabilities, Keys.share, "$class"].contains(key) {
      otherFields[key] = try archive.detached(value, field: path(key))
    }
  }

  /// The archived object, as `NSKeyedArchiver` writes it.
  func archiveObject(into builder: inout KeyedArchiveBuilder) -> PropertyList {
    var fields: [String: PropertyList] = [:]
    for key in otherFields.keys.sorted() { fields[key] = otherFields[key].map { builder.attach($0) } }
    fields[Keys.zone] = Record.archive(zoneID, into: &builder)
    fields[Keys.capabilities] = .integer(capabilities.rawValue)
    if let share { fields[Keys.share] = Record.archive(share, into: &builder) }
    return builder.object(className: Self.className, fields: fields)
  }
}
