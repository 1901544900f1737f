import Foundation

/// The baseline a server-side app would otherwise write: plain `Codable` structs of the Web Services shapes, decoded
/// with `JSONDecoder`. A field's value is read by its `type`, as such a client reads it; nothing is checked beyond what
/// `JSONDecoder` checks (no repeated keys, no names, no zones), and records stay loose structs, not ``Record``s.
enum PlainCodableBodies {
  struct Body: Decodable {
    var records: [Record]?
    var continuationMarker: String?
    var syncToken: String?
    var zones: [Zone]?
  }

  struct Zone: Decodable {
    var zoneID: ZoneID
    var records: [Record]?
    var syncToken: String?
    var moreComing: Bool?
  }

  struct ZoneID: Decodable {
    var zoneName: String
    var ownerRecordName: String?
    var zoneType: String?
  }

  struct Stamp: Decodable {
    var timestamp: Int64?
    var userRecordName: String?
    var deviceID: String?
  }

  struct Reference: Decodable {
    var recordName: String
    var action: String?
    var zoneID: ZoneID?
  }

  struct Asset: Decodable {
    var fileChecksum: String?
    var size: Int64?
    var referenceChecksum: String?
    var wrappingKey: String?
    var receipt: String?
    var downloadURL: String?
  }

  struct Location: Decodable {
    var latitude: Double
    var longitude: Double
    var horizontalAccuracy: Double?
    var verticalAccuracy: Double?
    var altitude: Double?
    var speed: Double?
    var course: Double?
    var timestamp: Int64?
  }

  struct Identity: Decodable {
    var userRecordName: String?
    var lookupInfo: [String: String]?
    var nameComponents: [String: String]?
  }

  struct Participant: Decodable {
    var participantId: String?
    var type: String?
    var acceptanceStatus: String?
    var permission: String?
    var userIdentity: Identity?
  }

  struct Record: Decodable {
    var recordName: String
    var recordType: String?
    var recordChangeTag: String?
    var fields: [String: Field]?
    var created: Stamp?
    var modified: Stamp?
    var deleted: Bool?
    var zoneID: ZoneID?
    var parent: Reference?
    var share: Reference?
    var participants: [Participant]?
    var publicPermission: String?
    var shortGUID: String?
    var serverErrorCode: String?
    var reason: String?
  }

  struct Field: Decodable {
    enum Value {
      case string(String)
      case int64(Int64)
      case double(Double)
      case reference(Reference)
      case asset(Asset)
      case location(Location)
      case strings([String])
      case int64s([Int64])
      case doubles([Double])
      case references([Reference])
      case assets([Asset])
      case unknown
    }

    var value: Value
    var type: String?
    var isEncrypted: Bool?

    enum CodingKeys: String, CodingKey { case value, type, isEncrypted }

    init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      type = try c.decodeIfPresent(String.self, forKey: .type)
      isEncrypted = try c.decodeIfPresent(Bool.self, forKey: .isEncrypted)
      switch type {
      case "STRING", "BYTES", "ENCRYPTED_BYTES": value = .string(try c.decode(String.self, forKey: .value))
      case "INT64": value = .int64(try c.decode(Int64.self, forKey: .value))
      case "DOUBLE", "TIMESTAMP": value = .double(try c.decode(Double.self, forKey: .value))
      case "REFERENCE": value = .reference(try c.decode(Reference.self, forKey: .value))
      case "ASSETID": value = .asset(try c.decode(Asset.self, forKey: .value))
      case "LOCATION": value = .location(try c.decode(Location.self, forKey: .value))
      case "STRING_LIST", "BYTES_LIST": value = .strings(try c.decode([String].self, forKey: .value))
      case "INT64_LIST": value = .int64s(try c.decode([Int64].self, forKey: .value))
      case "DOUBLE_LIST", "TIMESTAMP_LIST": value = .doubles(try c.decode([Double].self, forKey: .value))
      case "REFERENCE_LIST": value = .references(try c.decode([Reference].self, forKey: .value))
      case "ASSETID_LIST": value = .assets(try c.decode([Asset].self, forKey: .value))
      default: value = .unknown
      }
    }
  }

  /// Decodes `data` as a body; returns how many records it held, so the work is not optimized away.
  static func decode(_ data: Data) throws -> Int {
    let body = try JSONDecoder().decode(Body.self, from: data)
    return (body.records?.count ?? 0) + (body.zones?.reduce(0) { $0 + ($1.records?.count ?? 0) } ?? 0)
  }
}
