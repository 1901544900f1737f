/// What a zone can do. The default zone can do none of these; a new custom zone in a private database can do all.
public struct ZoneCapabilities: OptionSet, Sendable, Hashable, Codable {
  /// The raw bits.
  public let rawValue: Int
  /// Creates capabilities from raw bits.
  /// - Parameter rawValue: The bits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The zone keeps a change feed (``SimulatedServer/fetchZoneChanges(_:as:)``).
  public static let fetchChanges = ZoneCapabilities(rawValue: 1 << 0)
  /// Batches into the zone are all-or-nothing when the request asks for it.
  public static let atomic = ZoneCapabilities(rawValue: 1 << 1)
  /// Records of the zone can be shared.
  public static let sharing = ZoneCapabilities(rawValue: 1 << 2)
  /// The whole zone can be shared.
  public static let zoneWideSharing = ZoneCapabilities(rawValue: 1 << 3)

  /// What a new custom zone in a private database gets. CloudKit does not document the mask; the simulator assumes all
  /// four.
  public static let customZone: ZoneCapabilities = [.fetchChanges, .atomic, .sharing, .zoneWideSharing]
}
