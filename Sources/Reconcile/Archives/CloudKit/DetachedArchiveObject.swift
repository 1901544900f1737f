/// A value of an `NSKeyedArchiver` archive lifted out with every object it refers to, so it can be written into another
/// archive unchanged: what Reconcile keeps of keys it does not interpret (a zone's change tokens, key IDs and dates).
/// No UID of the archive it came from survives inside it: each is replaced by what it referred to.
indirect enum DetachedArchiveObject: Hashable, Sendable {
  /// `$null`.
  case null
  /// A plain value stored in place: a number, a Boolean, a string, data or a date.
  case value(PropertyList)
  /// An array stored in place, such as a collection's `NS.objects`.
  case array([DetachedArchiveObject])
  /// A dictionary without a class, stored in place.
  case dictionary([String: DetachedArchiveObject])
  /// An entry of `$objects` without a class (a string, data, a bare array), referred to by UID.
  case object(DetachedArchiveObject)
  /// A keyed object in `$objects`: its class chain (`$classes`, the class itself first) and its fields.
  case instance(classes: [String], fields: [String: DetachedArchiveObject])

  /// How deep objects may nest: a change token or a date is two levels; a hostile archive's chain of references stops
  /// here with an error rather than exhausting the stack.
  static let maximumDepth = 16
}

extension KeyedArchiveReader {
  /// `value` with every object it refers to, read out of this archive.
  /// - Throws: ``CloudKitArchiveError`` naming `field` when a reference points past `$objects`, a class is malformed,
  ///   or objects nest deeper than ``DetachedArchiveObject/maximumDepth`` (a cycle does).
  func detached(_ value: PropertyList, field: String, depth: Int = 0) throws(CloudKitArchiveError)
    -> DetachedArchiveObject
  {
    guard depth < DetachedArchiveObject.maximumDepth else {
      throw .wrongType(
        field: field, expected: "objects nested at most \(DetachedArchiveObject.maximumDepth) deep",
        found: "deeper nesting")
    }
    switch value {
    case .uid:
      guard let object = try resolve(value, field: field) else { return .null }
      guard case .dictionary(let fields) = object, let classReference = fields["$class"] else {
        return .object(try detached(object, field: field, depth: depth + 1))
      }
      guard case .dictionary(let description)? = try resolve(classReference, field: field + ".$class"),
        case .string(let name)? = description["$classname"]
      else { throw .wrongType(field: field + ".$class", expected: "class description", found: "something else") }
      var classes: [String] = []
      if case .array(let chain)? = description["$classes"] {
        for case .string(let ancestor) in chain { classes.append(ancestor) }
      }
      if classes.first != name { classes.insert(name, at: 0) }
      var detachedFields: [String: DetachedArchiveObject] = [:]
      for (key, member) in fields where key != "$class" {
        detachedFields[key] = try detached(member, field: field + "." + key, depth: depth + 1)
      }
      return .instance(classes: classes, fields: detachedFields)
    case .array(let items):
      var detachedItems: [DetachedArchiveObject] = []
      for (index, item) in items.enumerated() {
        detachedItems.append(try detached(item, field: "\(field)[\(index)]", depth: depth + 1))
      }
      return .array(detachedItems)
    case .dictionary(let members):
      var detachedMembers: [String: DetachedArchiveObject] = [:]
      for (key, member) in members {
        detachedMembers[key] = try detached(member, field: field + "." + key, depth: depth + 1)
      }
      return .dictionary(detachedMembers)
    default:
      return .value(value)
    }
  }
}

extension KeyedArchiveBuilder {
  /// Writes `detached` and every object it holds into this archive; returns what stands for it where it is stored.
  /// Members are written in key order, so the same object writes the same bytes in every run.
  mutating func attach(_ detached: DetachedArchiveObject) -> PropertyList {
    switch detached {
    case .null: return Self.null
    case .value(let value): return value
    case .array(let items): return .array(items.map { attach($0) })
    case .dictionary(let members): return .dictionary(attach(members))
    case .object(.value(.string(let text))): return string(text)
    case .object(let stored): return append(attach(stored))
    case .instance(let classes, let fields): return object(classes: classes, fields: attach(fields))
    }
  }

  private mutating func attach(_ members: [String: DetachedArchiveObject]) -> [String: PropertyList] {
    var attached: [String: PropertyList] = [:]
    for key in members.keys.sorted() { attached[key] = members[key].map { attach($0) } }
    return attached
  }
}
