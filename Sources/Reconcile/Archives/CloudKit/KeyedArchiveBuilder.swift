import Foundation

/// Builds an `NSKeyedArchiver` object graph the way Foundation lays it out: `$objects[0]` is `$null`, equal strings and
/// class descriptions are archived once, objects carry a `$class` UID.
struct KeyedArchiveBuilder {
  private(set) var objects: [PropertyList] = [.string("$null")]
  private var stringUIDs: [String: UInt64] = [:]
  /// Class descriptions by their whole chain: two classes may share a name and not their superclasses.
  private var classUIDs: [[String]: UInt64] = [:]

  /// `$null`'s UID. Computed rather than stored: a stored global holding a boxed enum is reported as a leak by
  /// LeakSanitizer when fuzzing.
  static var null: PropertyList { .uid(0) }

  mutating func append(_ object: PropertyList) -> PropertyList {
    objects.append(object)
    return .uid(UInt64(objects.count - 1))
  }

  mutating func string(_ s: String) -> PropertyList {
    if let uid = stringUIDs[s] { return .uid(uid) }
    let ref = append(.string(s))
    if case .uid(let uid) = ref { stringUIDs[s] = uid }
    return ref
  }

  mutating func optionalString(_ s: String?) -> PropertyList { s.map { string($0) } ?? Self.null }

  /// An object of `className` (whose superclass chain is `className`, `NSObject`) with `fields`.
  mutating func object(className: String, fields: [String: PropertyList]) -> PropertyList {
    object(classes: [className, "NSObject"], fields: fields)
  }

  /// An object whose class chain is `classes`, the class itself first, with `fields`.
  mutating func object(classes: [String], fields: [String: PropertyList]) -> PropertyList {
    var dict = fields
    dict["$class"] = classReference(classes)
    return append(.dictionary(dict))
  }

  /// The class description for `classes` (the class first), archived once per chain.
  private mutating func classReference(_ classes: [String]) -> PropertyList {
    if let uid = classUIDs[classes] { return .uid(uid) }
    let name = classes.first ?? "NSObject"
    let ref = append(.dictionary(["$classname": .string(name), "$classes": .array(classes.map(PropertyList.string))]))
    if case .uid(let uid) = ref { classUIDs[classes] = uid }
    return ref
  }

  mutating func date(_ date: Date?) -> PropertyList {
    guard let date else { return Self.null }
    return object(className: "NSDate", fields: ["NS.time": .real(date.timeIntervalSinceReferenceDate)])
  }

  /// The archive's root dictionary with `top` as `$top`.
  func archive(top: [String: PropertyList]) -> PropertyList {
    .dictionary([
      "$version": .integer(100_000), "$archiver": .string("NSKeyedArchiver"), "$top": .dictionary(top),
      "$objects": .array(objects),
    ])
  }
}
