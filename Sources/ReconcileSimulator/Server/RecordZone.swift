package import Reconcile

/// A zone as the server describes it: its ID and what it can do.
package struct RecordZone: Sendable, Hashable, CustomStringConvertible {
  /// The zone's ID.
  package var zoneID: ZoneID
  /// What the zone can do.
  package var capabilities: ZoneCapabilities

  /// Describes a zone.
  /// - Parameters:
  ///   - zoneID: The zone's ID.
  ///   - capabilities: What it can do; ``ZoneCapabilities/customZone`` unless given (the default zone always has none).
  package init(zoneID: ZoneID, capabilities: ZoneCapabilities = .customZone) {
    self.zoneID = zoneID
    self.capabilities = zoneID.isDefault ? [] : capabilities
  }

  /// The zone's name.
  package var description: String { zoneID.description }
}
