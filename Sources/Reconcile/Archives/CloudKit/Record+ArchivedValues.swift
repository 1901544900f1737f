import Foundation

/// A whole archived `CKRecord` or `CKShare` (`archivedData(withRootObject:)`, not `encodeSystemFields(with:)`) holds its
/// values in a `CKRecordValueStore` under `ValueStore`: `RecordValues`, an `NSDictionary` of key to value. Read here:
/// strings, numbers (an integer or Boolean as `INT64`, a real as `DOUBLE`), `NSDate`s, `NSData`, `CKReference`s, and
/// arrays of one of those. Other values (assets, locations), encrypted values (`EncryptedValueStore`), keys that break
/// CloudKit's rules and values it would refuse (a mixed list, a number that is not finite) are not read yet.
enum ArchivedValues {
  static let store = "ValueStore"
  static let storeClass = "CKRecordValueStore"
  static let recordValues = "RecordValues"
  static let changedKeys = "ChangedKeys"
  static let originalValues = "OriginalValues"

  /// The values a record archive's `ValueStore` holds, by key; empty when it has none.
  static func read(_ top: [String: PropertyList], in archive: KeyedArchiveReader) throws(CloudKitArchiveError)
    -> [(key: String, value: FieldValue)]
  {
    guard let store = try archive.object(top[Self.store], field: Self.store, expectedClass: Self.storeClass),
      let values = try archive.object(
        store[Self.recordValues], field: Self.store + "." + Self.recordValues, expectedClass: nil)
    else { return [] }
    let field = Self.store + "." + Self.recordValues
    let keys: [PropertyList]
    switch try archive.resolve(values["NS.keys"], field: field + ".NS.keys") {
    case .array(let items)?: keys = items
    default: return []
    }
    let objects = try archive.elements(of: values, field: field)
    guard keys.count == objects.count else {
      throw .wrongType(field: field, expected: "as many keys as values", found: "\(keys.count) and \(objects.count)")
    }
    var result: [(key: String, value: FieldValue)] = []
    for (key, object) in zip(keys, objects) {
      guard let name = try archive.string(key, field: field + ".NS.keys"),
        (try? NameRules.checkIdentifier(name, kind: .key)) != nil,
        !result.contains(where: { $0.key == name }),
        let value = try Self.value(object, in: archive, field: field + "." + name, depth: 0)
      else { continue }
      result.append((name, value))
    }
    return result
  }

  /// One archived value, or `nil` for a kind not read.
  private static func value(_ object: PropertyList, in archive: KeyedArchiveReader, field: String, depth: Int)
    throws(CloudKitArchiveError) -> FieldValue?
  {
    switch try archive.resolve(object, field: field) {
    case .string(let text)?: return .string(text)
    case .integer(let number)?: return .int64(number)
    case .bool(let flag)?: return .int64(flag ? 1 : 0)
    case .real(let number)?: return number.isFinite ? .double(number) : nil
    case .data(let bytes)?: return .bytes(bytes)
    case .date(let date)?: return Record.representableDates.contains(date) ? .timestamp(date) : nil
    case .dictionary(let dict)?:
      switch try archive.className(of: dict, field: field) {
      case "NSDate":
        return (try? archive.date(object, field: field)).flatMap { $0 }.map(FieldValue.timestamp)
      case "NSData", "NSMutableData":
        return try archive.data(object, field: field).map(FieldValue.bytes)
      case CloudKitArchiveKeys.referenceClass:
        return try archive.reference(object, field: field).map(FieldValue.reference)
      case "NSArray", "NSMutableArray":
        guard depth == 0 else { return nil }
        var elements: [FieldValue] = []
        for (index, element) in try archive.elements(of: dict, field: field).enumerated() {
          guard let value = try Self.value(element, in: archive, field: "\(field)[\(index)]", depth: 1) else {
            return nil
          }
          elements.append(value)
        }
        // CloudKit's lists hold one type.
        guard let first = elements.first?.type, elements.allSatisfy({ $0.type == first }) else {
          return elements.isEmpty ? .list([]) : nil
        }
        return .list(elements)
      default:
        return nil
      }
    default:
      return nil
    }
  }

  /// The `ValueStore` object for `values` (none when there are none), as `NSKeyedArchiver` writes it.
  static func write(_ values: FieldTable, into b: inout KeyedArchiveBuilder) -> PropertyList? {
    guard !values.isEmpty else { return nil }
    var keys: [PropertyList] = []
    var objects: [PropertyList] = []
    for (key, value) in values {
      guard let object = Self.object(value, into: &b) else { continue }
      keys.append(b.string(key))
      objects.append(object)
    }
    let dictionary = b.object(
      className: "NSDictionary", fields: ["NS.keys": .array(keys), "NS.objects": .array(objects)])
    let changed = b.object(className: "NSArray", fields: ["NS.objects": .array([])])
    let original = b.object(className: "NSDictionary", fields: ["NS.keys": .array([]), "NS.objects": .array([])])
    return b.object(
      className: Self.storeClass,
      fields: [Self.recordValues: dictionary, Self.changedKeys: changed, Self.originalValues: original])
  }

  /// One value as the archiver writes it; `nil` for a kind not written (as not read).
  private static func object(_ value: FieldValue, into b: inout KeyedArchiveBuilder) -> PropertyList? {
    switch value {
    case .string(let text): return b.string(text)
    case .int64(let number): return .integer(number)
    case .double(let number): return .real(number)
    case .timestamp(let date): return b.date(date)
    case .bytes(let bytes): return b.append(.data(bytes))
    case .list(let elements):
      var objects: [PropertyList] = []
      for element in elements {
        guard let object = Self.object(element, into: &b) else { return nil }
        objects.append(object)
      }
      return b.object(className: "NSArray", fields: ["NS.objects": .array(objects)])
    case .reference(let reference): return Record.archive(reference, into: &b)
    case .asset, .location: return nil
    }
  }
}
