import Foundation

/// Reading CloudKit's archived ID and reference objects, wherever they appear.
extension KeyedArchiveReader {

  func zoneID(_ value: PropertyList?, field: String)
    throws(CloudKitArchiveError) -> ZoneID?
  {
    typealias K = CloudKitArchiveKeys
    guard let dict = try object(value, field: field, expectedClass: K.zoneIDClass) else { return nil }
    guard let zoneName = try string(dict[K.zoneName], field: field + "." + K.zoneName) else {
      throw .missingField(field + "." + K.zoneName)
    }
    // Older archives spell the owner key with a capital O.
    let ownerValue = dict[K.ownerName] ?? dict["OwnerName"]
    let ownerName = try string(ownerValue, field: field + "." + K.ownerName) ?? ZoneID.defaultOwnerName
    do {
      return try ZoneID(zoneName: zoneName, ownerName: ownerName)
    } catch {
      throw .invalidField(field, error)
    }
  }

  func recordIDParts(_ value: PropertyList?, field: String)
    throws(CloudKitArchiveError) -> (name: String, zone: ZoneID)?
  {
    typealias K = CloudKitArchiveKeys
    guard let dict = try object(value, field: field, expectedClass: K.recordIDClass) else { return nil }
    guard let name = try string(dict[K.recordName], field: field + "." + K.recordName) else {
      throw .missingField(field + "." + K.recordName)
    }
    let zone = try zoneID(dict[K.zoneID], field: field + "." + K.zoneID) ?? .default
    return (name, zone)
  }

  func recordID(_ value: PropertyList?, field: String)
    throws(CloudKitArchiveError) -> RecordID?
  {
    guard let (name, zone) = try recordIDParts(value, field: field) else { return nil }
    do {
      return try RecordID(recordName: name, zoneID: zone)
    } catch {
      throw .invalidField(field, error)
    }
  }

  /// A user is archived as a `CKRecordID` whose name is the user record name (which starts with `_`, so it is not
  /// checked as a record name).
  func userRecordName(_ value: PropertyList?, field: String)
    throws(CloudKitArchiveError) -> String?
  {
    try recordIDParts(value, field: field)?.name
  }

  func reference(_ value: PropertyList?, field: String)
    throws(CloudKitArchiveError) -> Reference?
  {
    typealias K = CloudKitArchiveKeys
    guard let dict = try object(value, field: field, expectedClass: K.referenceClass) else { return nil }
    let target = dict[K.referenceRecordID] ?? dict["recordID"]
    guard let recordID = try recordID(target, field: field + ".recordID") else {
      throw .missingField(field + ".recordID")
    }
    let actionValue = dict[K.referenceAction] ?? dict["ReferenceAction"] ?? dict["action"]
    let action: Reference.Action
    switch try integer(actionValue, field: field + ".action") ?? 0 {
    case 0: action = .none
    case 1: action = .deleteSelf
    case let other:
      throw .wrongType(field: field + ".action", expected: "reference action 0 or 1", found: "integer \(other)")
    }
    return Reference(recordID: recordID, action: action)
  }
}

extension KeyedArchiveReader {
  /// The keys of an archived record: `$top` for `encodeSystemFields(with:)`, or the dictionary of the object under
  /// `root` for `archivedData(withRootObject:)`.
  func recordKeys() throws(CloudKitArchiveError) -> [String: PropertyList] {
    typealias K = CloudKitArchiveKeys
    if top[K.recordType] == nil, let root = top[K.root],
      let dict = try object(root, field: K.root, expectedClass: nil),
      let name = try className(of: dict, field: K.root), name == "CKRecord" || name == "CKShare"
    {
      return dict
    }
    return top
  }

  /// Plain data, or an archived `NSData`/`NSMutableData` (`NS.data`).
  func data(_ value: PropertyList?, field: String) throws(CloudKitArchiveError) -> Data? {
    switch try resolve(value, field: field) {
    case nil: return nil
    case .data(let d)?: return d
    case .dictionary(let dict)?:
      if case .data(let d)? = try resolve(dict["NS.data"], field: field + ".NS.data") { return d }
      throw .wrongType(field: field, expected: "data", found: (try className(of: dict, field: field)) ?? "object")
    case let other?: throw .wrongType(field: field, expected: "data", found: other.typeName)
    }
  }

  func bool(_ value: PropertyList?, field: String) throws(CloudKitArchiveError) -> Bool? {
    switch try resolve(value, field: field) {
    case nil: return nil
    case .bool(let b)?: return b
    case .integer(let v)?: return v != 0
    case let other?: throw .wrongType(field: field, expected: "Boolean", found: other.typeName)
    }
  }

  /// The elements (`NS.objects`) of an archived collection, unresolved.
  func elements(of dict: [String: PropertyList], field: String) throws(CloudKitArchiveError) -> [PropertyList] {
    switch try resolve(dict["NS.objects"], field: field + ".NS.objects") {
    case nil: return []
    case .array(let items)?: return items
    case let other?: throw .wrongType(field: field + ".NS.objects", expected: "array", found: other.typeName)
    }
  }

  /// The elements of the collection `value` refers to; `nil` and `$null` are empty.
  func collection(_ value: PropertyList?, field: String) throws(CloudKitArchiveError) -> [PropertyList] {
    guard let dict = try object(value, field: field, expectedClass: nil) else { return [] }
    return try elements(of: dict, field: field)
  }
}

extension KeyedArchiveReader {
  /// A URL stored as a string or as an archived `NSURL` (`NS.relative`, resolved against `NS.base` when present).
  func url(_ value: PropertyList?, field: String) throws(CloudKitArchiveError) -> String? {
    guard let resolved = try resolve(value, field: field) else { return nil }
    if case .dictionary(let dict) = resolved, dict["NS.relative"] != nil {
      let relative = try string(dict["NS.relative"], field: field + ".NS.relative") ?? ""
      let base = try string(dict["NS.base"], field: field + ".NS.base")
      return base.map { $0 + relative } ?? relative
    }
    return try string(value, field: field)
  }
}
