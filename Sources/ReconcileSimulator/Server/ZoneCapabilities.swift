/// What a zone can do. The default zone can do none of these; a new custom zone in a private database can do all.
package struct ZoneCapabilities: OptionSet, Sendable, Hashable, Codable {
  /// The raw bits.
  package let rawValue: Int
  /// Creates capabilities from raw bits.
  /// - Parameter rawValue: The bits.
  package init(rawValue: Int) { self.rawValue = rawValue }

  /// The zone keeps a change feed (``SimulatedServer/fetchZoneChanges(_:as:)``).
  package static let fetchChanges = ZoneCapabilities(rawValue: 1 << 0)
  /// Batches into the zone are all-or-nothing when the request asks for it.
  package static let atomic = ZoneCapabilities(rawValue: 1 << 1)
  /// Records of the zone can be shared.
  package static let sharing = ZoneCapabilities(rawValue: 1 << 2)
  /// The whole zone can be shared.
  package static let zoneWideSharing = ZoneCapabilities(rawValue: 1 << 3)

  /// What a new custom zone in a private database gets. CloudKit does not document the mask; the simulator assumes all
  /// four.
  package static let customZone: ZoneCapabilities = [.fetchChanges, .atomic, .sharing, .zoneWideSharing]
}
