public import Foundation

/// Keys of a share's record dictionary beyond a record's, and of its participants.
private enum ShareWireKeys: String, CodingKey {
  case participants, publicPermission, shortGUID, shortTokenHash, url
}

private enum ParticipantWireKeys: String, CodingKey {
  case participantId, userIdentity, type, acceptanceStatus, permission
}

private enum IdentityWireKeys: String, CodingKey { case userRecordName, nameComponents, lookupInfo }
private enum NameWireKeys: String, CodingKey { case givenName, familyName }
private enum LookupWireKeys: String, CodingKey { case emailAddress, phoneNumber, userRecordName }

extension Share {
  /// Decodes a Web Services record dictionary of type `cloudkit.share`: the record (see
  /// ``Record/init(wireFormatFrom:)``) plus `participants`, `publicPermission` and `shortGUID`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the bad field, or when the record's type is not `cloudkit.share`.
  public init(wireFormatFrom decoder: any Decoder) throws {
    let record = try Record(wireFormatFrom: decoder)
    let c = try decoder.container(keyedBy: ShareWireKeys.self)
    var participants: [Participant] = []
    if c.contains(.participants) {
      var list = try c.nestedUnkeyedContainer(forKey: .participants)
      while !list.isAtEnd {
        let p = try list.nestedContainer(keyedBy: ParticipantWireKeys.self)
        participants.append(try Self.participant(p))
      }
    }
    let permission = try Self.wireEnum(c, .publicPermission, Permission.init(wireName:)) ?? Permission.none
    let url = try c.decodeIfPresent(String.self, forKey: .url)
    let shortGUID = try c.decodeIfPresent(String.self, forKey: .shortGUID)
    do {
      try self.init(
        record: record, participants: participants, publicPermission: permission, url: url, shortGUID: shortGUID)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Reads one share record dictionary with the strict checks of ``WireJSON/check(_:maximumDepth:)``.
  /// - Parameter data: The share's record dictionary.
  /// - Throws: ``WireJSONError`` naming the problem and where.
  public init(wireJSON data: Data) throws(WireJSONError) {
    self = try WebServices.decode(Wire<Share>.self, from: data, zone: nil, what: "share JSON").body
  }

  /// The share as a Web Services record dictionary with its participants, in JSON with sorted keys.
  /// - Returns: The JSON.
  /// - Throws: ``WireJSONError/invalidRecord(path:reason:)`` when the record fails validation.
  public func wireJSON() throws(WireJSONError) -> Data {
    try WebServices.encode(Wire(self))
  }

  /// Encodes the share as a record dictionary with its participants.
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError` when the record fails validation.
  public func encodeWireFormat(to encoder: any Encoder) throws {
    try record.encodeWireFormat(to: encoder)
    var c = encoder.container(keyedBy: ShareWireKeys.self)
    try c.encode(publicPermission.wireName, forKey: .publicPermission)
    try c.encodeIfPresent(shortGUID, forKey: .shortGUID)
    try c.encodeIfPresent(url, forKey: .url)
    var list = c.nestedUnkeyedContainer(forKey: .participants)
    for participant in participants {
      var p = list.nestedContainer(keyedBy: ParticipantWireKeys.self)
      try p.encodeIfPresent(participant.participantID, forKey: .participantId)
      try p.encode(participant.role.wireName, forKey: .type)
      try p.encode(participant.permission.wireName, forKey: .permission)
      try p.encode(participant.acceptanceStatus.wireName, forKey: .acceptanceStatus)
      var i = p.nestedContainer(keyedBy: IdentityWireKeys.self, forKey: .userIdentity)
      let identity = participant.userIdentity
      try i.encodeIfPresent(identity.userRecordName, forKey: .userRecordName)
      var n = i.nestedContainer(keyedBy: NameWireKeys.self, forKey: .nameComponents)
      try n.encodeIfPresent(identity.givenName, forKey: .givenName)
      try n.encodeIfPresent(identity.familyName, forKey: .familyName)
      if let info = identity.lookupInfo {
        var l = i.nestedContainer(keyedBy: LookupWireKeys.self, forKey: .lookupInfo)
        try l.encodeIfPresent(info.emailAddress, forKey: .emailAddress)
        try l.encodeIfPresent(info.phoneNumber, forKey: .phoneNumber)
        try l.encodeIfPresent(info.userRecordName, forKey: .userRecordName)
      }
    }
  }

  private static func wireEnum<K: CodingKey, E>(
    _ c: KeyedDecodingContainer<K>, _ key: K, _ make: (String) -> E?
  ) throws -> E? {
    guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
    guard let value = make(text) else {
      throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "unknown value '\(text)'")
    }
    return value
  }

  private static func participant(_ p: KeyedDecodingContainer<ParticipantWireKeys>) throws -> Participant {
    var identity = UserIdentity()
    if p.contains(.userIdentity) {
      let i = try p.nestedContainer(keyedBy: IdentityWireKeys.self, forKey: .userIdentity)
      identity.userRecordName = try i.decodeIfPresent(String.self, forKey: .userRecordName)
      if i.contains(.nameComponents) {
        let n = try i.nestedContainer(keyedBy: NameWireKeys.self, forKey: .nameComponents)
        identity.givenName = try n.decodeIfPresent(String.self, forKey: .givenName)
        identity.familyName = try n.decodeIfPresent(String.self, forKey: .familyName)
      }
      if i.contains(.lookupInfo) {
        let l = try i.nestedContainer(keyedBy: LookupWireKeys.self, forKey: .lookupInfo)
        identity.lookupInfo = LookupInfo(
          emailAddress: try l.decodeIfPresent(String.self, forKey: .emailAddress),
          phoneNumber: try l.decodeIfPresent(String.self, forKey: .phoneNumber),
          userRecordName: try l.decodeIfPresent(String.self, forKey: .userRecordName))
      }
    }
    return Participant(
      participantID: try p.decodeIfPresent(String.self, forKey: .participantId), userIdentity: identity,
      role: try wireEnum(p, .type, Role.init(wireName:)) ?? .unknown,
      permission: try wireEnum(p, .permission, Permission.init(wireName:)) ?? .unknown,
      acceptanceStatus: try wireEnum(p, .acceptanceStatus, AcceptanceStatus.init(wireName:)) ?? .unknown)
  }
}

// A share coded as the Web Services dictionary inside a body: `Wire<Share>`.
extension Share: WireBody {}
