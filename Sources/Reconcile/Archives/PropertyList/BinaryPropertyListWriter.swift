import Foundation

/// Writes `bplist00` binary property lists. Equal scalars (strings, numbers, UIDs) are written once and shared, as
/// Apple's writer does.
struct BinaryPropertyListWriter {
  private var objects: [[UInt8]] = []
  private var scalarIndex: [PropertyList: Int] = [:]
  private var refSize = 1

  static func write(_ root: PropertyList) -> Data {
    var writer = BinaryPropertyListWriter()
    // Reference width depends on the object count, which is known only after flattening; count first.
    writer.refSize = Self.byteWidth(UInt64(Self.countObjects(root)))
    let top = writer.add(root)
    return writer.serialize(top: top)
  }

  /// An upper bound on the objects `root` flattens to (scalars counted before sharing).
  private static func countObjects(_ value: PropertyList) -> Int {
    switch value {
    case .array(let items): return 1 + items.reduce(0) { $0 + countObjects($1) }
    case .dictionary(let dict): return 1 + dict.reduce(0) { $0 + 1 + countObjects($1.value) }
    default: return 1
    }
  }

  private static func byteWidth(_ value: UInt64) -> Int {
    value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
  }

  private mutating func add(_ value: PropertyList) -> Int {
    switch value {
    case .array(let items):
      let index = reserve()
      let refs = items.map { add($0) }
      var out = header(0xA, count: items.count)
      for ref in refs { append(ref, width: refSize, to: &out) }
      objects[index] = out
      return index
    case .dictionary(let dict):
      let index = reserve()
      let keys = dict.keys.sorted()
      let keyRefs = keys.map { add(.string($0)) }
      let valueRefs = keys.map { add(dict[$0] ?? .bool(false)) }
      var out = header(0xD, count: keys.count)
      for ref in keyRefs + valueRefs { append(ref, width: refSize, to: &out) }
      objects[index] = out
      return index
    default:
      if let existing = scalarIndex[value] { return existing }
      let index = objects.count
      objects.append(encodeScalar(value))
      scalarIndex[value] = index
      return index
    }
  }

  private mutating func reserve() -> Int {
    objects.append([])
    return objects.count - 1
  }

  private func encodeScalar(_ value: PropertyList) -> [UInt8] {
    switch value {
    case .bool(let b): return [b ? 0x09 : 0x08]
    case .integer(let v):
      if v >= 0 && v <= 0xFF { return [0x10, UInt8(v)] }
      var out: [UInt8]
      if v >= 0 && v <= 0xFFFF {
        out = [0x11]
        append(Int(v), width: 2, to: &out)
      } else if v >= 0 && v <= 0xFFFF_FFFF {
        out = [0x12]
        append(Int(v), width: 4, to: &out)
      } else {
        out = [0x13]
        appendBits(UInt64(bitPattern: v), width: 8, to: &out)
      }
      return out
    case .real(let d):
      var out: [UInt8] = [0x23]
      appendBits(d.bitPattern, width: 8, to: &out)
      return out
    case .date(let date):
      var out: [UInt8] = [0x33]
      appendBits(date.timeIntervalSinceReferenceDate.bitPattern, width: 8, to: &out)
      return out
    case .data(let data):
      return header(0x4, count: data.count) + Array(data)
    case .string(let s):
      if s.utf8.allSatisfy({ $0 < 0x80 }) { return header(0x5, count: s.utf8.count) + Array(s.utf8) }
      let units = Array(s.utf16)
      var out = header(0x6, count: units.count)
      for unit in units { out += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
      return out
    case .uid(let v):
      let width = Self.byteWidth(v)
      var out: [UInt8] = [0x80 | UInt8(width - 1)]
      appendBits(v, width: width, to: &out)
      return out
    case .array, .dictionary:
      return []  // handled by add(_:)
    }
  }

  private func header(_ kind: UInt8, count: Int) -> [UInt8] {
    if count < 15 { return [kind << 4 | UInt8(count)] }
    return [kind << 4 | 0x0F] + encodeScalar(.integer(Int64(count)))
  }

  private func append(_ value: Int, width: Int, to out: inout [UInt8]) {
    appendBits(UInt64(value), width: width, to: &out)
  }

  private func appendBits(_ value: UInt64, width: Int, to out: inout [UInt8]) {
    for i in stride(from: width - 1, through: 0, by: -1) {
      out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))))
    }
  }

  private func serialize(top: Int) -> Data {
    var out = Array("bplist00".utf8)
    var offsets: [Int] = []
    offsets.reserveCapacity(objects.count)
    for object in objects {
      offsets.append(out.count)
      out += object
    }
    let tableStart = out.count
    let offsetSize = Self.byteWidth(UInt64(tableStart))
    for offset in offsets { append(offset, width: offsetSize, to: &out) }
    out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
    appendBits(UInt64(objects.count), width: 8, to: &out)
    appendBits(UInt64(top), width: 8, to: &out)
    appendBits(UInt64(tableStart), width: 8, to: &out)
    return Data(out)
  }
}
