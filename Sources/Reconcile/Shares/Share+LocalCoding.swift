/// `Share: Codable` is the lossless local format, as for ``Record``: the record in Reconcile's local record format,
/// the participants, the public permission, the URL and the short GUID. The Web Services form is
/// ``Share/wireJSON()`` and ``Share/init(wireJSON:)``.
extension Share: Codable {
  private enum Keys: String, CodingKey { case record, participants, publicPermission, url, shortGUID }

  /// Decodes a share stored with `encode(to:)`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing or mistyped key, or a record whose type is not `cloudkit.share`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    let record = try c.decode(Record.self, forKey: .record)
    let participants = try c.decode([Participant].self, forKey: .participants)
    let permission = try c.decode(Permission.self, forKey: .publicPermission)
    let url = try c.decodeIfPresent(String.self, forKey: .url)
    let shortGUID = try c.decodeIfPresent(String.self, forKey: .shortGUID)
    do {
      try self.init(
        record: record, participants: participants, publicPermission: permission, url: url, shortGUID: shortGUID)
    } catch {
      throw DecodingError.dataCorruptedError(forKey: .record, in: c, debugDescription: error.description)
    }
  }

  /// Stores the share; see above.
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(record, forKey: .record)
    try c.encode(participants, forKey: .participants)
    try c.encode(publicPermission, forKey: .publicPermission)
    try c.encodeIfPresent(url, forKey: .url)
    try c.encodeIfPresent(shortGUID, forKey: .shortGUID)
  }
}
