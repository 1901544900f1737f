package import Foundation

/// A field value in the shapes CloudKit's Swift API stores — `String`, `NSNumber`, `Date`, `Data`,
/// `CKRecord.Reference`, `CKAsset`, `CLLocation` and arrays of them — described without CloudKit, so the conversion to
/// and from ``FieldValue`` compiles and is tested everywhere. On Apple platforms the bridge turns each `CKRecord`
/// value into one of these; elsewhere a test builds them directly.
package enum CloudKitValue: Sendable, Hashable {
  /// An `NSString`/`String`.
  case string(String)
  /// An `NSNumber`, which CloudKit stores as `INT64` or `DOUBLE` according to how it was made.
  case number(CloudKitNumber)
  /// An `NSDate`/`Date`.
  case date(Date)
  /// An `NSData`/`Data`.
  case data(Data)
  /// A `CKRecord.Reference`: the target's name, zone and owner, and whether deleting the target deletes the record.
  case reference(recordName: String, zoneName: String, ownerName: String, deleteSelf: Bool)
  /// A `CKAsset`, by its file URL (`nil` for an asset whose file is not on this device).
  case asset(fileURL: URL?)
  /// A `CLLocation`. A negative accuracy, speed or course means "unknown" in Core Location and reads as `nil`.
  case location(Location)
  /// An `NSArray` of one kind of value.
  case list([CloudKitValue])
}

/// The two faces of an `NSNumber` CloudKit distinguishes: integers (`INT64`) and floating point (`DOUBLE`). Booleans are
/// integers, as CloudKit stores them.
package enum CloudKitNumber: Sendable, Hashable {
  /// An integer, a Boolean or a character.
  case integer(Int64)
  /// A `float` or `double`.
  case floatingPoint(Double)

  /// Classifies a number by its Objective-C type encoding (`NSNumber.objCType`): `f` and `d` are floating point,
  /// everything else an integer.
  ///
  /// This is the trap of `NSNumber`: `record["count"] as? Double` succeeds for an `INT64` too, and `as? Int` for a
  /// `DOUBLE` with no fraction, so reading by cast loses the type. The encoding does not.
  /// - Parameters:
  ///   - objCType: The type encoding, such as `"q"` or `"d"`.
  ///   - integer: The value as an integer.
  ///   - double: The value as a double.
  /// - Returns: The number with the type it was stored as.
  package static func classify(objCType: String, integer: Int64, double: Double) -> CloudKitNumber {
    switch objCType {
    case "f", "d": return .floatingPoint(double)
    default: return .integer(integer)
    }
  }
}

/// Why a value or record could not cross between CloudKit's types and Reconcile's.
public enum CloudKitBridgeError: Error, Sendable, Hashable, DescribedError {
  /// A CloudKit value of a kind Reconcile has no field type for (named by its Swift type).
  case unsupportedValue(key: String, type: String)
  /// A list mixes kinds, or holds a list.
  case invalidList(key: String, reason: String)
  /// A name from CloudKit breaks Reconcile's naming rules.
  case invalidName(RecordValidationError)

  /// A sentence naming the key and the problem.
  public var description: String {
    switch self {
    case .unsupportedValue(let key, let type):
      return "field '\(key)' holds a \(type), which CloudKit records cannot store"
    case .invalidList(let key, let reason): return "field '\(key)': \(reason)"
    case .invalidName(let error): return "a CloudKit ID is not valid here: \(error)"
    }
  }
}

extension FieldValue {
  /// The field value a CloudKit value stands for.
  /// - Parameters:
  ///   - value: The value as CloudKit's API holds it.
  ///   - key: The field's key, for errors.
  /// - Throws: ``CloudKitBridgeError`` for a list that mixes kinds or nests, or an invalid reference name.
  package init(cloudKitValue value: CloudKitValue, key: String) throws(CloudKitBridgeError) {
    switch value {
    case .string(let s): self = .string(s)
    case .number(.integer(let v)): self = .int64(v)
    case .number(.floatingPoint(let v)): self = .double(v)
    case .date(let d): self = .timestamp(d)
    case .data(let d): self = .bytes(d)
    case .reference(let name, let zoneName, let ownerName, let deleteSelf):
      do {
        let id = try RecordID(recordName: name, zoneID: ZoneID(zoneName: zoneName, ownerName: ownerName))
        self = .reference(Reference(recordID: id, action: deleteSelf ? .deleteSelf : .none))
      } catch {
        throw .invalidName(error)
      }
    case .asset(let url): self = .asset(Asset(fileURL: url))
    case .location(let location): self = .location(location)
    case .list(let items):
      var values: [FieldValue] = []
      for item in items {
        if case .list = item { throw .invalidList(key: key, reason: "lists of lists are not allowed") }
        values.append(try FieldValue(cloudKitValue: item, key: key))
      }
      if let first = values.first?.type, let other = values.first(where: { $0.type != first }) {
        throw .invalidList(key: key, reason: "the list mixes \(first) and \(other.type)")
      }
      self = .list(values)
    }
  }

  /// The value as CloudKit's API stores it. A `VALIDATE` reference, which `CKRecord.Reference` cannot express, becomes
  /// an action of none; an asset without a local file has a `nil` URL.
  package var cloudKitValue: CloudKitValue {
    switch self {
    case .string(let s): return .string(s)
    case .int64(let v): return .number(.integer(v))
    case .double(let v): return .number(.floatingPoint(v))
    case .timestamp(let d): return .date(d)
    case .bytes(let d): return .data(d)
    case .reference(let r):
      return .reference(
        recordName: r.recordID.recordName, zoneName: r.recordID.zoneID.zoneName,
        ownerName: r.recordID.zoneID.ownerName, deleteSelf: r.action == .deleteSelf)
    case .asset(let a): return .asset(fileURL: a.fileURL)
    case .location(let l): return .location(l)
    case .list(let items): return .list(items.map(\.cloudKitValue))
    }
  }
}
