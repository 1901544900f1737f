extension WebServices.ModifyRecordsRequest: WireBody {
  private enum Keys: String, CodingKey { case zoneID, operations, atomic, desiredKeys, numbersAsStrings }
  private enum OperationKeys: String, CodingKey { case operationType, record }
  private enum DeleteKeys: String, CodingKey { case recordName, recordChangeTag, zoneID }

  /// Decodes the body; records without a `zoneID` take the request's.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the bad operation or field.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    zoneID = try WireCoding.decodeZoneID(c, key: .zoneID)
    atomic = try c.decodeIfPresent(Bool.self, forKey: .atomic)
    desiredKeys = try c.decodeIfPresent([String].self, forKey: .desiredKeys)
    numbersAsStrings = try c.decodeIfPresent(Bool.self, forKey: .numbersAsStrings)
    let zone = zoneID ?? WireCoding.contextZone(decoder)
    var list = try c.nestedUnkeyedContainer(forKey: .operations)
    var operations: [WebServices.RecordOperation] = []
    var shares: [RecordID: Share] = [:]
    while !list.isAtEnd {
      let o = try list.nestedContainer(keyedBy: OperationKeys.self)
      let type = try o.decode(String.self, forKey: .operationType)
      let recordDecoder = ContextZoneDecoder(base: try o.superDecoder(forKey: .record), zone: zone)
      func record() throws -> Record {
        let record = try Record(wireFormatFrom: recordDecoder)
        if record.recordType == Share.recordType { shares[record.recordID] = try Share(wireFormatFrom: recordDecoder) }
        return record
      }
      func deletedID() throws -> (RecordID, String?) {
        let d = try recordDecoder.container(keyedBy: DeleteKeys.self)
        let recordZone = try WireCoding.decodeZoneID(d, key: .zoneID) ?? zone
        let name = try d.decode(String.self, forKey: .recordName)
        let id = try WireCoding.recordID(name, zone: recordZone, codingPath: { d.codingPath + [DeleteKeys.recordName] })
        return (id, try d.decodeIfPresent(String.self, forKey: .recordChangeTag))
      }
      switch type {
      case "create": operations.append(.create(try record()))
      case "update": operations.append(.update(try record()))
      case "forceUpdate": operations.append(.forceUpdate(try record()))
      case "replace": operations.append(.replace(try record()))
      case "forceReplace": operations.append(.forceReplace(try record()))
      case "delete":
        let (id, tag) = try deletedID()
        operations.append(.delete(id, recordChangeTag: tag))
      case "forceDelete": operations.append(.forceDelete(try deletedID().0))
      default:
        throw DecodingError.dataCorruptedError(
          forKey: .operationType, in: o,
          debugDescription:
            "unknown operationType '\(type)'; expected create, update, forceUpdate, replace, forceReplace, delete or forceDelete"
        )
      }
    }
    self.operations = operations
    self.shares = shares
  }

  /// Encodes the body.
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError` when a record fails validation.
  func encodeWireFormat(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    if let zoneID { try WireCoding.encodeZoneID(zoneID, into: &c, key: .zoneID) }
    try c.encodeIfPresent(atomic, forKey: .atomic)
    try c.encodeIfPresent(desiredKeys, forKey: .desiredKeys)
    try c.encodeIfPresent(numbersAsStrings, forKey: .numbersAsStrings)
    var list = c.nestedUnkeyedContainer(forKey: .operations)
    for operation in operations {
      var o = list.nestedContainer(keyedBy: OperationKeys.self)
      try o.encode(operation.operationType, forKey: .operationType)
      switch operation {
      case .create(let r), .update(let r), .forceUpdate(let r), .replace(let r), .forceReplace(let r):
        if var share = shares[r.recordID] {
          // The operation's record is the share's record; the table adds its participants.
          share.modifyRecord { $0 = r }
          try o.encode(Wire(share), forKey: .record)
        } else {
          try o.encode(Wire(r), forKey: .record)
        }
      case .delete(let id, let tag):
        var d = o.nestedContainer(keyedBy: DeleteKeys.self, forKey: .record)
        try d.encode(id.recordName, forKey: .recordName)
        try d.encodeIfPresent(tag, forKey: .recordChangeTag)
        try WireCoding.encodeZoneID(id.zoneID, into: &d, key: .zoneID)
      case .forceDelete(let id):
        var d = o.nestedContainer(keyedBy: DeleteKeys.self, forKey: .record)
        try d.encode(id.recordName, forKey: .recordName)
        try WireCoding.encodeZoneID(id.zoneID, into: &d, key: .zoneID)
      }
    }
  }
}

extension WebServices.LookupRecordsRequest: WireBody {
  private enum Keys: String, CodingKey { case zoneID, records, desiredKeys }
  private enum EntryKeys: String, CodingKey { case recordName, zoneID }

  /// Decodes `{records: [{recordName}], zoneID?, desiredKeys?}`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a bad record name.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    zoneID = try WireCoding.decodeZoneID(c, key: .zoneID)
    desiredKeys = try c.decodeIfPresent([String].self, forKey: .desiredKeys)
    let zone = zoneID ?? WireCoding.contextZone(decoder)
    var list = try c.nestedUnkeyedContainer(forKey: .records)
    var ids: [RecordID] = []
    while !list.isAtEnd {
      let e = try list.nestedContainer(keyedBy: EntryKeys.self)
      let name = try e.decode(String.self, forKey: .recordName)
      let recordZone = try WireCoding.decodeZoneID(e, key: .zoneID) ?? zone
      ids.append(try WireCoding.recordID(name, zone: recordZone, codingPath: { e.codingPath + [EntryKeys.recordName] }))
    }
    recordIDs = ids
  }

  /// Encodes the body.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  func encodeWireFormat(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    if let zoneID { try WireCoding.encodeZoneID(zoneID, into: &c, key: .zoneID) }
    try c.encodeIfPresent(desiredKeys, forKey: .desiredKeys)
    var list = c.nestedUnkeyedContainer(forKey: .records)
    for id in recordIDs {
      var e = list.nestedContainer(keyedBy: EntryKeys.self)
      try e.encode(id.recordName, forKey: .recordName)
      if id.zoneID != zoneID { try WireCoding.encodeZoneID(id.zoneID, into: &e, key: .zoneID) }
    }
  }
}

extension WebServices.RecordChangesRequest: WireBody {
  private enum Keys: String, CodingKey { case zoneID, syncToken, resultsLimit, desiredKeys, desiredRecordTypes }

  /// Decodes `{zoneID, syncToken?, resultsLimit?, desiredKeys?, desiredRecordTypes?}`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when `zoneID` is missing or a key is mistyped.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    guard let zone = try WireCoding.decodeZoneID(c, key: .zoneID) else {
      throw DecodingError.keyNotFound(
        Keys.zoneID, DecodingError.Context(codingPath: c.codingPath, debugDescription: "records/changes needs a zoneID")
      )
    }
    zoneID = zone
    syncToken = try c.decodeIfPresent(String.self, forKey: .syncToken)
    resultsLimit = try c.decodeIfPresent(Int.self, forKey: .resultsLimit)
    desiredKeys = try c.decodeIfPresent([String].self, forKey: .desiredKeys)
    desiredRecordTypes = try c.decodeIfPresent([String].self, forKey: .desiredRecordTypes)
  }

  /// Encodes the body.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  func encodeWireFormat(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try WireCoding.encodeZoneID(zoneID, into: &c, key: .zoneID)
    try c.encodeIfPresent(syncToken, forKey: .syncToken)
    try c.encodeIfPresent(resultsLimit, forKey: .resultsLimit)
    try c.encodeIfPresent(desiredKeys, forKey: .desiredKeys)
    try c.encodeIfPresent(desiredRecordTypes, forKey: .desiredRecordTypes)
  }
}

extension WebServices.ChangesRequest: WireBody {
  private enum Keys: String, CodingKey { case syncToken, metaSyncToken, resultsLimit }

  /// Decodes `{syncToken?, resultsLimit?}`; `metaSyncToken`, the name some `zones/changes` documentation uses, is
  /// read as `syncToken`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when a key is mistyped.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    syncToken =
      try c.decodeIfPresent(String.self, forKey: .syncToken) ?? c.decodeIfPresent(String.self, forKey: .metaSyncToken)
    resultsLimit = try c.decodeIfPresent(Int.self, forKey: .resultsLimit)
  }

  /// Encodes the body.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  func encodeWireFormat(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encodeIfPresent(syncToken, forKey: .syncToken)
    try c.encodeIfPresent(resultsLimit, forKey: .resultsLimit)
  }
}

extension WebServices.LookupZonesRequest: WireBody {
  private enum Keys: String, CodingKey { case zones }

  /// Decodes `{zones: [{zoneName, ownerRecordName?}]}`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a bad zone name.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    zoneIDs = try c.decode([ZoneID].self, forKey: .zones)
  }

  /// Encodes the body.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  func encodeWireFormat(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(zoneIDs, forKey: .zones)
  }
}

extension WebServices.ModifyZonesRequest: WireBody {
  private enum Keys: String, CodingKey { case operations }
  private enum OperationKeys: String, CodingKey { case operationType, zone }
  private enum ZoneKeys: String, CodingKey { case zoneID }

  /// Decodes `{operations: [{operationType: create|delete, zone: {zoneID}}]}`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming an unknown operation or bad zone.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    var list = try c.nestedUnkeyedContainer(forKey: .operations)
    var operations: [WebServices.ZoneOperation] = []
    while !list.isAtEnd {
      let o = try list.nestedContainer(keyedBy: OperationKeys.self)
      let type = try o.decode(String.self, forKey: .operationType)
      let z = try o.nestedContainer(keyedBy: ZoneKeys.self, forKey: .zone)
      guard let zone = try WireCoding.decodeZoneID(z, key: .zoneID) else {
        throw DecodingError.valueNotFound(
          ZoneID.self, DecodingError.Context(codingPath: z.codingPath, debugDescription: "zone.zoneID is null"))
      }
      switch type {
      case "create": operations.append(.create(zone))
      case "delete": operations.append(.delete(zone))
      default:
        throw DecodingError.dataCorruptedError(
          forKey: .operationType, in: o, debugDescription: "unknown operationType '\(type)'; expected create or delete")
      }
    }
    self.operations = operations
  }

  /// Encodes the body.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  func encodeWireFormat(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    var list = c.nestedUnkeyedContainer(forKey: .operations)
    for operation in operations {
      var o = list.nestedContainer(keyedBy: OperationKeys.self)
      switch operation {
      case .create: try o.encode("create", forKey: .operationType)
      case .delete: try o.encode("delete", forKey: .operationType)
      }
      var z = o.nestedContainer(keyedBy: ZoneKeys.self, forKey: .zone)
      try WireCoding.encodeZoneID(operation.zoneID, into: &z, key: .zoneID)
    }
  }
}

extension WebServices.ZoneRecordChangesRequest: WireBody {
  private enum Keys: String, CodingKey { case zones }

  /// Decodes `{zones: [{zoneID, syncToken?, resultsLimit?, desiredKeys?, desiredRecordTypes?}]}`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the bad entry.
  init(wireFormatFrom decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    zones = try c.decode([Wire<WebServices.RecordChangesRequest>].self, forKey: .zones).map(\.body)
  }

  /// Encodes the body.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  func encodeWireFormat(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(zones.map(Wire.init), forKey: .zones)
  }
}
