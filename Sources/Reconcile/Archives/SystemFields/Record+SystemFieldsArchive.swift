public import Foundation

/// Reconcile's compact system-fields archive, version 1. The byte layout is documented in the DocC article
/// "The system-fields archive format"; keep the two in step.
enum SystemFieldsFormat {
  static let magic: [UInt8] = Array("RCSF".utf8)
  static let version: UInt8 = 1
  static let headerSize = 7  // magic, version, flags
  static let checksumSize = 4

  /// Presence flags, one bit per optional field, in the order the fields follow.
  struct Flags: OptionSet {
    let rawValue: UInt16
    static let changeTag = Flags(rawValue: 1 << 0)
    static let creationDate = Flags(rawValue: 1 << 1)
    static let modificationDate = Flags(rawValue: 1 << 2)
    static let creator = Flags(rawValue: 1 << 3)
    static let lastModifier = Flags(rawValue: 1 << 4)
    static let device = Flags(rawValue: 1 << 5)
    static let parent = Flags(rawValue: 1 << 6)
    static let share = Flags(rawValue: 1 << 7)
    static let deleted = Flags(rawValue: 1 << 8)
    static let all: Flags = [
      .changeTag, .creationDate, .modificationDate, .creator, .lastModifier, .device, .parent, .share, .deleted,
    ]
  }
}

extension Record {
  /// Archives the record's system fields — ID, type, change tag, dates, users, device, parent, share — in Reconcile's
  /// compact binary format. Values, plain or encrypted, are never included.
  ///
  /// Store the result next to your own copy of the record's values; ``init(systemFieldsData:)`` gives back a record
  /// that saves against the server's version. The format is versioned and ends in a CRC-32, and is documented byte by
  /// byte in the DocC article "The system-fields archive format".
  ///
  /// A record whose ID or type breaks CloudKit's rules (see ``validate()``) is archived as it is, but decoding
  /// such an archive throws.
  /// - Returns: Typically 60–150 bytes.
  /// - Complexity: O(*n*) in the total length of the archived strings.
  public func encodeSystemFields() -> Data {
    typealias F = SystemFieldsFormat
    let s = storage.system
    var flags: F.Flags = []
    if s.recordChangeTag != nil { flags.insert(.changeTag) }
    if s.creationDate != nil { flags.insert(.creationDate) }
    if s.modificationDate != nil { flags.insert(.modificationDate) }
    if s.creatorUserRecordName != nil { flags.insert(.creator) }
    if s.lastModifiedUserRecordName != nil { flags.insert(.lastModifier) }
    if s.modifiedByDevice != nil { flags.insert(.device) }
    if storage.parent != nil { flags.insert(.parent) }
    if storage.share != nil { flags.insert(.share) }
    if storage.isDeleted { flags.insert(.deleted) }

    var w = ByteWriter()
    w.write(F.magic)
    w.write(F.version)
    w.write(UInt8(truncatingIfNeeded: flags.rawValue))
    w.write(UInt8(truncatingIfNeeded: flags.rawValue >> 8))
    let id = storage.recordID
    w.writeString(storage.recordType)
    w.writeString(id.recordName)
    w.writeString(id.zoneID.zoneName)
    w.writeString(id.zoneID.ownerName)
    if let v = s.recordChangeTag { w.writeString(v) }
    if let v = s.creationDate { w.writeUInt64(v.timeIntervalSinceReferenceDate.bitPattern) }
    if let v = s.modificationDate { w.writeUInt64(v.timeIntervalSinceReferenceDate.bitPattern) }
    if let v = s.creatorUserRecordName { w.writeString(v) }
    if let v = s.lastModifiedUserRecordName { w.writeString(v) }
    if let v = s.modifiedByDevice { w.writeString(v) }
    if let v = storage.parent { Self.write(v, recordZone: id.zoneID, to: &w) }
    if let v = storage.share { Self.write(v, recordZone: id.zoneID, to: &w) }
    let crc = w.bytes.withUnsafeBytes { CRC32.checksum($0) }
    w.writeUInt32(crc)
    return Data(w.bytes)
  }

  /// Restores a record from ``encodeSystemFields()`` output: its system fields, no values, no changed keys.
  ///
  /// The checksum is verified before anything else is read, so a corrupted or truncated archive is rejected as a whole;
  /// every length is checked against the bytes that remain, so no input traps or allocates more than its own size.
  /// - Parameter systemFieldsData: Bytes written by ``encodeSystemFields()``.
  /// - Throws: ``SystemFieldsArchiveError`` naming what is wrong and where. Passing an Apple keyed archive gives
  ///   ``SystemFieldsArchiveError/notAnArchive(hint:)`` with a hint to use ``init(cloudKitSystemFieldsArchive:)``.
  /// - Complexity: O(*n*) in the size of the data.
  public init(systemFieldsData: Data) throws(SystemFieldsArchiveError) {
    let result: Result<Record, SystemFieldsArchiveError> = systemFieldsData.withUnsafeBytes { buffer in
      do throws(SystemFieldsArchiveError) {
        return .success(try Self.decodeSystemFields(buffer))
      } catch {
        return .failure(error)
      }
    }
    self = try result.get()
  }

  private static func write(_ reference: Reference, recordZone: ZoneID, to w: inout ByteWriter) {
    w.write(reference.action.binaryCode)
    w.writeString(reference.recordID.recordName)
    let zone = reference.recordID.zoneID
    if zone == recordZone {
      w.write(0)
    } else {
      w.write(1)
      w.writeString(zone.zoneName)
      w.writeString(zone.ownerName)
    }
  }

  private static func decodeSystemFields(_ buffer: UnsafeRawBufferPointer) throws(SystemFieldsArchiveError) -> Record {
    typealias F = SystemFieldsFormat
    guard buffer.count >= F.magic.count, buffer.prefix(F.magic.count).elementsEqual(F.magic) else {
      throw .notAnArchive(hint: Self.recogniseForeignFormat(buffer))
    }
    guard buffer.count >= F.headerSize + F.checksumSize else { throw .tooShort(byteCount: buffer.count) }
    let version = buffer[4]
    guard version == F.version else { throw .unsupportedVersion(version) }
    let bodyEnd = buffer.count - F.checksumSize
    var stored: UInt32 = 0
    for i in 0..<4 { stored |= UInt32(buffer[bodyEnd + i]) << (8 * UInt32(i)) }
    let computed = CRC32.checksum(UnsafeRawBufferPointer(rebasing: buffer[0..<bodyEnd]))
    guard stored == computed else { throw .checksumMismatch(stored: stored, computed: computed) }
    let flags = F.Flags(rawValue: UInt16(buffer[5]) | UInt16(buffer[6]) << 8)
    guard F.Flags.all.isSuperset(of: flags) else { throw .unknownFlags(flags.subtracting(.all).rawValue) }

    var reader = ByteReader(UnsafeRawBufferPointer(rebasing: buffer[0..<bodyEnd]))
    _ = try? reader.readUInt32()  // magic, checked above
    _ = try? reader.readByte()  // version
    _ = try? reader.readByte()  // flags, low byte
    _ = try? reader.readByte()  // flags, high byte

    let recordType = try string(&reader, "recordType")
    do {
      try NameRules.checkIdentifier(recordType, kind: .recordType)
    } catch {
      throw .invalidValue(field: "recordType", error)
    }
    let recordID = try recordID(&reader, field: "recordID", zone: nil)
    let box = Storage(recordType: recordType, recordID: recordID)
    if flags.contains(.changeTag) { box.system.recordChangeTag = try string(&reader, "recordChangeTag") }
    if flags.contains(.creationDate) { box.system.creationDate = try date(&reader, "creationDate") }
    if flags.contains(.modificationDate) { box.system.modificationDate = try date(&reader, "modificationDate") }
    if flags.contains(.creator) { box.system.creatorUserRecordName = try string(&reader, "creatorUserRecordName") }
    if flags.contains(.lastModifier) {
      box.system.lastModifiedUserRecordName = try string(&reader, "lastModifiedUserRecordName")
    }
    if flags.contains(.device) { box.system.modifiedByDevice = try string(&reader, "modifiedByDevice") }
    if flags.contains(.parent) { box.parent = try reference(&reader, "parent", recordZone: recordID.zoneID) }
    if flags.contains(.share) { box.share = try reference(&reader, "share", recordZone: recordID.zoneID) }
    box.isDeleted = flags.contains(.deleted)
    guard reader.remaining == 0 else { throw .trailingBytes(count: reader.remaining) }
    return Record(storage: box)
  }

  /// The field name is an autoclosure: it is built only when there is an error to report.
  private static func string(_ r: inout ByteReader, _ field: @autoclosure () -> String) throws(SystemFieldsArchiveError)
    -> String
  {
    do {
      return try r.readString()
    } catch {
      throw archiveError(error, field: field())
    }
  }

  private static func date(_ r: inout ByteReader, _ field: String) throws(SystemFieldsArchiveError) -> Date {
    let offset = r.offset
    guard let bits = try? r.readUInt64() else { throw .truncated(field: field, offset: offset) }
    let seconds = Double(bitPattern: bits)
    let date = Date(timeIntervalSinceReferenceDate: seconds)
    guard seconds.isFinite, Record.representableDates.contains(date) else { throw .invalidDate(field: field) }
    return date
  }

  private static func recordID(_ r: inout ByteReader, field: String, zone: ZoneID?) throws(SystemFieldsArchiveError)
    -> RecordID
  {
    let name = try string(&r, field + ".recordName")
    let zoneID: ZoneID
    if let zone {
      zoneID = zone
    } else {
      let zoneName = try string(&r, field + ".zoneName")
      let ownerName = try string(&r, field + ".ownerName")
      do {
        zoneID = try ZoneID(zoneName: zoneName, ownerName: ownerName)
      } catch {
        throw .invalidValue(field: field + ".zoneID", error)
      }
    }
    do {
      return try RecordID(recordName: name, zoneID: zoneID)
    } catch {
      throw .invalidValue(field: field + ".recordName", error)
    }
  }

  private static func reference(_ r: inout ByteReader, _ field: String, recordZone: ZoneID)
    throws(SystemFieldsArchiveError) -> Reference
  {
    let offset = r.offset
    guard let code = try? r.readByte() else { throw .truncated(field: field, offset: offset) }
    guard let action = Reference.Action(binaryCode: code) else { throw .unknownReferenceAction(field: field, code) }
    let name = try string(&r, field + ".recordName")
    let zoneOffset = r.offset
    guard let zoneMarker = try? r.readByte() else { throw .truncated(field: field + ".zone", offset: zoneOffset) }
    let zone: ZoneID
    switch zoneMarker {
    case 0:
      zone = recordZone
    case 1:
      let zoneName = try string(&r, field + ".zoneName")
      let ownerName = try string(&r, field + ".ownerName")
      do {
        zone = try ZoneID(zoneName: zoneName, ownerName: ownerName)
      } catch {
        throw .invalidValue(field: field + ".zoneID", error)
      }
    default:
      throw .malformed(field: field + ".zone", offset: zoneOffset, reason: "zone marker \(zoneMarker) is not 0 or 1")
    }
    do {
      return Reference(recordID: try RecordID(recordName: name, zoneID: zone), action: action)
    } catch {
      throw .invalidValue(field: field + ".recordName", error)
    }
  }

  private static func archiveError(_ failure: ByteReader.Failure, field: String) -> SystemFieldsArchiveError {
    switch failure {
    case .truncated(let offset, _): return .truncated(field: field, offset: offset)
    case .malformedVarint(let offset): return .malformed(field: field, offset: offset, reason: "bad length")
    case .invalidUTF8(let offset): return .malformed(field: field, offset: offset, reason: "invalid UTF-8")
    }
  }

  private static func recogniseForeignFormat(_ buffer: UnsafeRawBufferPointer) -> String? {
    let head = String(decoding: buffer.prefix(64), as: UTF8.self)
    if head.hasPrefix("bplist") || head.contains("<plist") || head.hasPrefix("<?xml") {
      return "a property list, such as Apple's keyed archive; use Record(cloudKitSystemFieldsArchive:)"
    }
    if head.hasPrefix("{") {
      return "JSON; read CloudKit Web Services JSON with WebServices.Body(json:) or Record(wireJSON:), and Reconcile's "
        + "local format with JSONDecoder"
    }
    return nil
  }
}
