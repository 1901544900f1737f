import Foundation

extension HybridLogicalClock: Codable {
  private enum CodingKeys: String, CodingKey {
    case nodeID, maximumDrift, latest
  }

  /// Reads a clock an app saved with its local data, so a relaunched device never issues a timestamp behind one it
  /// issued before.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` naming an invalid node ID or drift, or what the decoder throws.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let nodeID = try container.decode(String.self, forKey: .nodeID)
    let drift = try container.decode(Duration.self, forKey: .maximumDrift)
    let latest = try container.decodeIfPresent(HybridTimestamp.self, forKey: .latest)
    do {
      try self.init(nodeID: nodeID, maximumDrift: drift, latest: latest)
    } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: container.codingPath, debugDescription: error.description, underlyingError: error))
    }
  }

  /// Writes the node ID, the maximum drift and the latest timestamp.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(nodeID, forKey: .nodeID)
    try container.encode(maximumDrift, forKey: .maximumDrift)
    try container.encodeIfPresent(latest, forKey: .latest)
  }
}
