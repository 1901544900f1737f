import Foundation

/// Navigates an `NSKeyedArchiver` archive: `$objects`, `$top`, UIDs, class names, and the Foundation encodings of
/// strings and dates. Reading is tolerant: unknown keys are ignored, and strings and dates are accepted both as plain
/// plist values and as archived `NSString`/`NSDate` objects.
struct KeyedArchiveReader {
  let objects: [PropertyList]
  let top: [String: PropertyList]

  init(data: Data) throws(CloudKitArchiveError) {
    let root: PropertyList
    do {
      if BinaryPropertyListReader.isBinaryPropertyList(data) {
        root = try BinaryPropertyListReader.parse(data)
      } else if XMLPropertyListReader.looksLikeXML(data) {
        root = try XMLPropertyListReader.parse(data)
      } else {
        throw CloudKitArchiveError.notAPropertyList
      }
    } catch let failure as PropertyListFailure {
      throw .malformedPropertyList(offset: failure.offset, reason: failure.reason)
    } catch {
      throw .notAPropertyList
    }
    guard case .dictionary(let dict) = root else { throw .notAKeyedArchive(reason: "top level is a \(root.typeName)") }
    if let archiver = dict["$archiver"], archiver != .string("NSKeyedArchiver") {
      throw .notAKeyedArchive(reason: "$archiver is not NSKeyedArchiver")
    }
    guard case .array(let objects)? = dict["$objects"] else { throw .notAKeyedArchive(reason: "no $objects array") }
    guard case .dictionary(let top)? = dict["$top"] else { throw .notAKeyedArchive(reason: "no $top dictionary") }
    self.objects = objects
    self.top = top
  }

  /// The object a value stands for: a UID is looked up in `$objects`; `$null` (and absence) is `nil`.
  func resolve(_ value: PropertyList?, field: String) throws(CloudKitArchiveError) -> PropertyList? {
    guard let value else { return nil }
    guard case .uid(let uid) = value else { return value }
    guard uid < UInt64(objects.count) else { throw .invalidObjectReference(field: field, uid: uid) }
    let object = objects[Int(uid)]
    // Only UID 0 is nil, as NSKeyedUnarchiver reads it; a string "$null" anywhere else is a string.
    return uid == 0 && object == .string("$null") ? nil : object
  }

  /// The class name of an archived object (`$class` → `$classname`).
  func className(of object: [String: PropertyList], field: String) throws(CloudKitArchiveError) -> String? {
    guard case .dictionary(let cls)? = try resolve(object["$class"], field: field + ".$class"),
      case .string(let name)? = cls["$classname"]
    else { return nil }
    return name
  }

  /// An archived object as a dictionary, checking its class when `expectedClass` is given.
  func object(_ value: PropertyList?, field: String, expectedClass: String?) throws(CloudKitArchiveError)
    -> [String: PropertyList]?
  {
    guard let resolved = try resolve(value, field: field) else { return nil }
    guard case .dictionary(let dict) = resolved else {
      throw .wrongType(field: field, expected: expectedClass ?? "object", found: resolved.typeName)
    }
    if let expectedClass, let found = try className(of: dict, field: field), found != expectedClass {
      throw .unexpectedClass(field: field, expected: expectedClass, found: found)
    }
    return dict
  }

  func string(_ value: PropertyList?, field: String) throws(CloudKitArchiveError) -> String? {
    switch try resolve(value, field: field) {
    case nil: return nil
    case .string(let s)?: return s
    case .dictionary(let dict)?:
      // An archived NSString or NSMutableString.
      if case .string(let s)? = try resolve(dict["NS.string"], field: field) { return s }
      throw .wrongType(field: field, expected: "string", found: (try className(of: dict, field: field)) ?? "object")
    case let other?: throw .wrongType(field: field, expected: "string", found: other.typeName)
    }
  }

  /// A plist date or an archived `NSDate`, held to ``Record/representableDates``.
  func date(_ value: PropertyList?, field: String) throws(CloudKitArchiveError) -> Date? {
    let date: Date
    switch try resolve(value, field: field) {
    case nil: return nil
    case .date(let d)?: date = d
    case .dictionary(let dict)?:
      // An archived NSDate: seconds since 2001-01-01 under NS.time.
      switch try resolve(dict["NS.time"], field: field + ".NS.time") {
      case .real(let t)? where t.isFinite: date = Date(timeIntervalSinceReferenceDate: t)
      case .integer(let t)?: date = Date(timeIntervalSinceReferenceDate: Double(t))
      default: throw .wrongType(field: field, expected: "NSDate", found: "object without a finite NS.time")
      }
    case let other?: throw .wrongType(field: field, expected: "date", found: other.typeName)
    }
    guard Record.representableDates.contains(date) else {
      throw .wrongType(field: field, expected: "a date within 100,000,000 days of 1970", found: "\(date)")
    }
    return date
  }

  func integer(_ value: PropertyList?, field: String) throws(CloudKitArchiveError) -> Int64? {
    switch try resolve(value, field: field) {
    case nil: return nil
    case .integer(let v)?: return v
    case .bool(let b)?: return b ? 1 : 0
    case let other?: throw .wrongType(field: field, expected: "integer", found: other.typeName)
    }
  }
}
