import Foundation

/// How an encrypted value travels as `ENCRYPTED_BYTES`.
///
/// CloudKit's own clients encrypt typed values and the Web Services see only `ENCRYPTED_BYTES`. Reconcile keeps the
/// type: `.bytes` that do not start with the magic are sent as they are (so opaque ciphertext from a real server reads
/// back as `.bytes`); any other value is wrapped as `"RCEV"`, format version 1, then the value in the tagged binary form
/// below. Bytes that start with the magic but do not parse as an envelope read back as plain `.bytes`.
///
/// Tagged form: a tag byte (1 string, 2 int64, 3 double, 4 timestamp, 5 bytes, 6 reference, 7 asset, 8 location,
/// 9 list, 10 asset with a local file URL as a seventh part), then: strings and bytes as a LEB128 length and the bytes; int64 as 8 bytes little-endian; double and
/// timestamp (seconds since 2001-01-01) as the 8-byte IEEE 754 bit pattern; a list as a LEB128 count and its elements;
/// a location as a presence byte (bits for accuracy, altitude, speed, course, timestamp) and the numbers present.
enum EncryptedValueEnvelope {
  static let magic: [UInt8] = Array("RCEV".utf8)
  static let version: UInt8 = 1
  /// Lists nest one level at most in valid records; this bound only stops hostile input from recursing deeply.
  static let maximumDepth = 8

  static func encode(_ value: FieldValue) -> Data {
    if case .bytes(let data) = value, !data.starts(with: magic) { return data }
    var w = ByteWriter()
    w.write(magic)
    w.write(version)
    write(value, to: &w)
    return Data(w.bytes)
  }

  /// The tagged form of any value, always wrapped (bytes included), for local storage that must read back exactly.
  static func encodeTagged(_ value: FieldValue) -> Data {
    var w = ByteWriter()
    w.write(magic)
    w.write(version)
    write(value, to: &w)
    return Data(w.bytes)
  }

  /// Reads ``encodeTagged(_:)`` output; `nil` when the bytes are not exactly one tagged value.
  static func decodeTagged(_ data: Data) -> FieldValue? {
    guard data.starts(with: magic) else { return nil }
    return data.withUnsafeBytes { buffer in
      var r = ByteReader(buffer)
      guard (try? r.readUInt32()) != nil, (try? r.readByte()) == version,
        let value = try? read(&r, depth: 0), r.remaining == 0
      else { return nil }
      return value
    }
  }

  static func decode(_ data: Data) -> FieldValue {
    guard data.starts(with: magic) else { return .bytes(data) }
    let parsed: FieldValue? = data.withUnsafeBytes { buffer in
      var r = ByteReader(buffer)
      guard (try? r.readUInt32()) != nil, (try? r.readByte()) == version,
        let value = try? read(&r, depth: 0), r.remaining == 0
      else { return nil }
      return value
    }
    return parsed ?? .bytes(data)
  }

  private static func write(_ value: FieldValue, to w: inout ByteWriter) {
    switch value {
    case .string(let s):
      w.write(1)
      w.writeString(s)
    case .int64(let v):
      w.write(2)
      w.writeUInt64(UInt64(bitPattern: v))
    case .double(let v):
      w.write(3)
      w.writeUInt64(v.bitPattern)
    case .timestamp(let d):
      w.write(4)
      w.writeUInt64(d.timeIntervalSinceReferenceDate.bitPattern)
    case .bytes(let d):
      w.write(5)
      w.writeVarint(UInt64(d.count))
      w.write(d)
    case .reference(let r):
      w.write(6)
      w.write(r.action.binaryCode)
      w.writeString(r.recordID.recordName)
      w.writeString(r.recordID.zoneID.zoneName)
      w.writeString(r.recordID.zoneID.ownerName)
    case .asset(let a):
      // Tag 10 is an asset with a local file URL, a seventh part; assets without one keep tag 7.
      w.write(a.fileURL == nil ? 7 : 10)
      var parts = [
        a.fileChecksum, a.size.map(String.init), a.referenceChecksum, a.wrappingKey, a.receipt, a.downloadURL,
      ]
      if let url = a.fileURL { parts.append(url.absoluteString) }
      for part in parts {
        w.write(part == nil ? 0 : 1)
        if let part { w.writeString(part) }
      }
    case .location(let l):
      w.write(8)
      w.writeUInt64(l.latitude.bitPattern)
      w.writeUInt64(l.longitude.bitPattern)
      let optionals = [l.horizontalAccuracy, l.verticalAccuracy, l.altitude, l.speed, l.course]
      var presence: UInt8 = 0
      for (i, v) in optionals.enumerated() where v != nil { presence |= 1 << UInt8(i) }
      if l.timestamp != nil { presence |= 1 << 5 }
      w.write(presence)
      for v in optionals { if let v { w.writeUInt64(v.bitPattern) } }
      if let t = l.timestamp { w.writeUInt64(t.timeIntervalSinceReferenceDate.bitPattern) }
    case .list(let items):
      w.write(9)
      w.writeVarint(UInt64(items.count))
      for item in items { write(item, to: &w) }
    }
  }

  private struct Invalid: Error {}

  private static func read(_ r: inout ByteReader, depth: Int) throws -> FieldValue {
    guard depth <= maximumDepth else { throw Invalid() }
    let tag = try r.readByte()
    switch tag {
    case 1: return .string(try r.readString())
    case 2: return .int64(Int64(bitPattern: try r.readUInt64()))
    case 3: return .double(Double(bitPattern: try r.readUInt64()))
    case 4: return .timestamp(try date(&r))
    case 5:
      let count = try r.readVarint()
      guard count <= UInt64(r.remaining) else { throw Invalid() }
      var bytes: [UInt8] = []
      bytes.reserveCapacity(Int(count))
      for _ in 0..<count { bytes.append(try r.readByte()) }
      return .bytes(Data(bytes))
    case 6:
      guard let action = Reference.Action(binaryCode: try r.readByte()) else { throw Invalid() }
      let name = try r.readString()
      let zone = try ZoneID(zoneName: try r.readString(), ownerName: try r.readString())
      return .reference(Reference(recordID: try RecordID(recordName: name, zoneID: zone), action: action))
    case 7, 10:
      var parts: [String?] = []
      for _ in 0..<(tag == 7 ? 6 : 7) { parts.append(try r.readByte() == 1 ? try r.readString() : nil) }
      var fileURL: URL?
      if tag == 10 {
        guard let text = parts[6], let url = URL(string: text) else { throw Invalid() }
        fileURL = url
      }
      let size: Int64?
      if let text = parts[1] {
        guard let v = Int64(text) else { throw Invalid() }
        size = v
      } else {
        size = nil
      }
      return .asset(
        Asset(
          fileChecksum: parts[0], size: size, referenceChecksum: parts[2], wrappingKey: parts[3], receipt: parts[4],
          downloadURL: parts[5], fileURL: fileURL))
    case 8:
      let latitude = Double(bitPattern: try r.readUInt64())
      let longitude = Double(bitPattern: try r.readUInt64())
      let presence = try r.readByte()
      var optionals: [Double?] = []
      for i in 0..<5 {
        optionals.append(presence & (1 << UInt8(i)) != 0 ? Double(bitPattern: try r.readUInt64()) : nil)
      }
      let timestamp = presence & (1 << 5) != 0 ? try date(&r) : nil
      return .location(
        Location(
          latitude: latitude, longitude: longitude, horizontalAccuracy: optionals[0], verticalAccuracy: optionals[1],
          altitude: optionals[2], speed: optionals[3], course: optionals[4], timestamp: timestamp))
    case 9:
      let count = try r.readVarint()
      // Every element takes at least two bytes, so a larger count cannot be honest.
      guard count <= UInt64(r.remaining) else { throw Invalid() }
      var items: [FieldValue] = []
      for _ in 0..<count { items.append(try read(&r, depth: depth + 1)) }
      return .list(items)
    default:
      throw Invalid()
    }
  }

  private static func date(_ r: inout ByteReader) throws -> Date {
    let seconds = Double(bitPattern: try r.readUInt64())
    let date = Date(timeIntervalSinceReferenceDate: seconds)
    guard seconds.isFinite, Record.representableDates.contains(date) else { throw Invalid() }
    return date
  }
}
