extension WebServices {
  /// One entry of a response's `records`: a record, a share, a deletion, or an error for that record.
  public enum RecordResult: Sendable, Hashable {
    /// A record, with its values and system fields.
    case record(Record)
    /// A `cloudkit.share` record, with its participants.
    case share(Share)
    /// A deletion: `{"recordName", "deleted": true}`, as a delete's result or a tombstone in a change feed. The type is
    /// there only when the server sent one.
    case deleted(RecordID, recordType: String?)
    /// An error for this record.
    case failed(ServerError)

    /// The record of a ``record(_:)`` or ``share(_:)`` result.
    public var record: Record? {
      switch self {
      case .record(let record): return record
      case .share(let share): return share.record
      case .deleted, .failed: return nil
      }
    }

    /// The ID the entry is about; `nil` for an error whose record name is missing or invalid.
    public var recordID: RecordID? {
      switch self {
      case .record(let record): return record.recordID
      case .share(let share): return share.recordID
      case .deleted(let id, _): return id
      case .failed(let error):
        guard let name = error.recordName else { return nil }
        return try? RecordID(recordName: name, zoneID: error.zoneID ?? .default)
      }
    }
  }
}

extension WebServices.RecordResult: WireBody {
  private enum Keys: String, CodingKey { case recordName, recordType, deleted, serverErrorCode, zoneID }

  /// Decodes an entry: `serverErrorCode` makes an error; `deleted: true` a deletion; type `cloudkit.share` a share;
  /// anything else a record.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the bad field.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    if c.contains(.serverErrorCode) {
      var error = try WebServices.ServerError(wireFormatFrom: decoder)
      if error.zoneID == nil, decoder.userInfo[WireCoding.contextZoneKey] != nil {
        error.zoneID = WireCoding.contextZone(decoder)
      }
      self = .failed(error)
    } else if try c.decodeIfPresent(Bool.self, forKey: .deleted) == true, try !Self.hasFields(decoder) {
      let zone = try WireCoding.decodeZoneID(c, key: .zoneID) ?? WireCoding.contextZone(decoder)
      let name = try c.decode(String.self, forKey: .recordName)
      let id = try WireCoding.recordID(name, zone: zone, codingPath: { c.codingPath + [Keys.recordName] })
      self = .deleted(id, recordType: try c.decodeIfPresent(String.self, forKey: .recordType))
    } else if try c.decodeIfPresent(String.self, forKey: .recordType) == Share.recordType {
      self = .share(try Share(wireFormatFrom: decoder))
    } else {
      self = .record(try Record(wireFormatFrom: decoder))
    }
  }

  private static func hasFields(_ decoder: any Decoder) throws -> Bool {
    let c = try decoder.container(keyedBy: DynamicKey.self)
    return c.contains(DynamicKey("fields"))
  }

  /// Encodes the entry in the shape it was read from.
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError` when a record fails validation.
  func encodeWireFormat(to encoder: any Encoder) throws {
    switch self {
    case .record(let record): try record.encodeWireFormat(to: encoder)
    case .share(let share): try share.encodeWireFormat(to: encoder)
    case .failed(let error): try error.encodeWireFormat(to: encoder)
    case .deleted(let id, let recordType):
      var c = encoder.container(keyedBy: Keys.self)
      try c.encode(id.recordName, forKey: .recordName)
      try c.encode(true, forKey: .deleted)
      try c.encodeIfPresent(recordType, forKey: .recordType)
      try WireCoding.encodeZoneID(id.zoneID, into: &c, key: .zoneID)
    }
  }
}
