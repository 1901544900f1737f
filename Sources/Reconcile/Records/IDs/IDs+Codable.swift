/// `ZoneID` encodes as the Web Services zone dictionary, `{"zoneName", "ownerRecordName"}`; decoding checks the names
/// and reports a bad one as a `DecodingError` naming it.
extension ZoneID: Codable {
  private enum CodingKeys: String, CodingKey {
    case zoneName
    case ownerRecordName
  }

  /// Decodes and checks a zone dictionary; a missing `ownerRecordName` means the current user.
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.dataCorrupted` naming a bad name and its rule.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let zoneName = try container.decode(String.self, forKey: .zoneName)
    let owner = try container.decodeIfPresent(String.self, forKey: .ownerRecordName) ?? ZoneID.defaultOwnerName
    do {
      self = try ZoneID(zoneName: zoneName, ownerName: owner)
    } catch {
      throw DecodingError.dataCorruptedError(forKey: .zoneName, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the zone dictionary.
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(zoneName, forKey: .zoneName)
    try container.encode(ownerName, forKey: .ownerRecordName)
  }
}

/// `RecordID` encodes as `{"recordName", "zoneID": {…}}`, the shape the Web Services use; decoding checks the name.
extension RecordID: Codable {
  private enum CodingKeys: String, CodingKey {
    case recordName
    case zoneID
  }

  /// Decodes and checks a record ID; a missing `zoneID` means the default zone.
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.dataCorrupted` naming a bad name and its rule.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .recordName)
    let zone = try container.decodeIfPresent(ZoneID.self, forKey: .zoneID) ?? .default
    do {
      self = try RecordID(recordName: name, zoneID: zone)
    } catch {
      throw DecodingError.dataCorruptedError(forKey: .recordName, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the record ID.
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(recordName, forKey: .recordName)
    try container.encode(zoneID, forKey: .zoneID)
  }
}
