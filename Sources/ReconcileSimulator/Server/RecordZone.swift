public import Reconcile

/// A zone as the server describes it: its ID and what it can do.
public struct RecordZone: Sendable, Hashable, CustomStringConvertible {
  /// The zone's ID.
  public var zoneID: ZoneID
  /// What the zone can do.
  public var capabilities: ZoneCapabilities

  /// Describes a zone.
  /// - Parameters:
  ///   - zoneID: The zone's ID.
  ///   - capabilities: What it can do; ``ZoneCapabilities/customZone`` unless given (the default zone always has none).
  public init(zoneID: ZoneID, capabilities: ZoneCapabilities = .customZone) {
    self.zoneID = zoneID
    self.capabilities = zoneID.isDefault ? [] : capabilities
  }

  /// The zone's name.
  public var description: String { zoneID.description }
}
