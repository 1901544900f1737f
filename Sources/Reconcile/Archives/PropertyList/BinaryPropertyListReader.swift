import Foundation

/// Reads Apple's binary property list format, `bplist00`.
///
/// Every offset, count and reference is checked against the data before use; objects are decoded once and memoised,
/// so shared references cannot blow up time or memory; reference cycles and nesting deeper than
/// ``PropertyListLimits/maximumDepth`` are errors. No input traps.
struct BinaryPropertyListReader {
  private let bytes: [UInt8]
  private let offsetIntSize: Int
  private let objectRefSize: Int
  private let objectCount: Int
  private let offsetTableStart: Int
  private let topObject: Int
  private var cache: [PropertyList?]
  private var inProgress: Set<Int> = []

  static func isBinaryPropertyList(_ data: Data) -> Bool { data.starts(with: Array("bplist0".utf8)) }

  /// Parses `data` and returns its top object.
  static func parse(_ data: Data) throws(PropertyListFailure) -> PropertyList {
    var reader = try BinaryPropertyListReader(bytes: Array(data))
    return try reader.object(at: reader.topObject, depth: 0)
  }

  private init(bytes: [UInt8]) throws(PropertyListFailure) {
    let headerSize = 8
    let trailerSize = 32
    guard bytes.count >= headerSize + trailerSize + 1 else {
      throw PropertyListFailure(offset: nil, reason: "binary plist of \(bytes.count) bytes is too short")
    }
    guard bytes.starts(with: Array("bplist00".utf8)) else {
      throw PropertyListFailure(offset: 0, reason: "unsupported binary plist version")
    }
    let t = bytes.count - trailerSize
    let offsetIntSize = Int(bytes[t + 6])
    let objectRefSize = Int(bytes[t + 7])
    let objectCount = Self.bigEndian(bytes, t + 8, 8)
    let topObject = Self.bigEndian(bytes, t + 16, 8)
    let tableStart = Self.bigEndian(bytes, t + 24, 8)
    guard (1...8).contains(offsetIntSize), (1...8).contains(objectRefSize) else {
      throw PropertyListFailure(
        offset: t, reason: "trailer gives invalid integer sizes \(offsetIntSize)/\(objectRefSize)")
    }
    guard objectCount >= 1, objectCount <= UInt64(bytes.count), topObject < objectCount else {
      throw PropertyListFailure(offset: t, reason: "trailer gives \(objectCount) objects with top object \(topObject)")
    }
    let (tableBytes, overflow) = Int(objectCount).multipliedReportingOverflow(by: offsetIntSize)
    guard !overflow, tableStart >= UInt64(headerSize), tableStart <= UInt64(t),
      UInt64(tableBytes) <= UInt64(t) - tableStart
    else {
      throw PropertyListFailure(offset: t, reason: "offset table at \(tableStart) does not fit in the data")
    }
    self.bytes = bytes
    self.offsetIntSize = offsetIntSize
    self.objectRefSize = objectRefSize
    self.objectCount = Int(objectCount)
    self.offsetTableStart = Int(tableStart)
    self.topObject = Int(topObject)
    self.cache = Array(repeating: nil, count: Int(objectCount))
  }

  /// Big-endian unsigned integer of `width` bytes at `offset`; the caller guarantees the bounds.
  private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> UInt64 {
    var v: UInt64 = 0
    for i in 0..<width { v = v << 8 | UInt64(bytes[offset + i]) }
    return v
  }

  private func read(_ offset: Int, width: Int) throws(PropertyListFailure) -> UInt64 {
    guard offset >= 0, width <= bytes.count, offset <= bytes.count - width else {
      throw PropertyListFailure(offset: offset, reason: "\(width)-byte value runs past the end of the data")
    }
    return Self.bigEndian(bytes, offset, width)
  }

  private mutating func object(at index: Int, depth: Int) throws(PropertyListFailure) -> PropertyList {
    guard index >= 0, index < objectCount else {
      throw PropertyListFailure(
        offset: nil, reason: "object reference \(index) is out of range (\(objectCount) objects)")
    }
    if let cached = cache[index] { return cached }
    guard depth <= PropertyListLimits.maximumDepth else {
      throw PropertyListFailure(offset: nil, reason: "nesting deeper than \(PropertyListLimits.maximumDepth) levels")
    }
    guard inProgress.insert(index).inserted else {
      throw PropertyListFailure(offset: nil, reason: "object \(index) contains itself")
    }
    defer { inProgress.remove(index) }
    let offsetValue = try read(offsetTableStart + index * offsetIntSize, width: offsetIntSize)
    guard offsetValue >= 8, offsetValue < UInt64(offsetTableStart) else {
      throw PropertyListFailure(
        offset: nil, reason: "object \(index) starts at \(offsetValue), outside the object area")
    }
    let value = try decode(at: Int(offsetValue), depth: depth)
    cache[index] = value
    return value
  }

  private mutating func decode(at offset: Int, depth: Int) throws(PropertyListFailure) -> PropertyList {
    let marker = bytes[offset]
    let low = Int(marker & 0x0F)
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08: return .bool(false)
      case 0x09: return .bool(true)
      default: throw PropertyListFailure(offset: offset, reason: "unsupported marker 0x\(String(marker, radix: 16))")
      }
    case 0x1:
      return .integer(try integer(at: offset))
    case 0x2:
      switch low {
      case 2: return .real(Double(Float(bitPattern: UInt32(try read(offset + 1, width: 4)))))
      case 3: return .real(Double(bitPattern: try read(offset + 1, width: 8)))
      default: throw PropertyListFailure(offset: offset, reason: "real of unsupported size")
      }
    case 0x3:
      guard marker == 0x33 else { throw PropertyListFailure(offset: offset, reason: "date of unsupported size") }
      let seconds = Double(bitPattern: try read(offset + 1, width: 8))
      guard seconds.isFinite else { throw PropertyListFailure(offset: offset, reason: "date is not finite") }
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case 0x4:
      let (count, start) = try length(at: offset, unit: 1)
      return .data(Data(bytes[start..<(start + count)]))
    case 0x5:
      let (count, start) = try length(at: offset, unit: 1)
      let slice = bytes[start..<(start + count)]
      guard slice.allSatisfy({ $0 < 0x80 }) else {
        throw PropertyListFailure(offset: offset, reason: "ASCII string holds non-ASCII bytes")
      }
      return .string(String(decoding: slice, as: UTF8.self))
    case 0x6:
      let (count, start) = try length(at: offset, unit: 2)
      var units: [UInt16] = []
      units.reserveCapacity(count)
      for i in 0..<count { units.append(UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])) }
      var text = ""
      var iterator = units.makeIterator()
      var decoder = UTF16()
      loop: while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
        case .emptyInput: break loop
        case .error: throw PropertyListFailure(offset: offset, reason: "UTF-16 string is malformed")
        }
      }
      return .string(text)
    case 0x8:
      return .uid(try read(offset + 1, width: low + 1))
    case 0xA, 0xC:
      let (count, start) = try length(at: offset, unit: objectRefSize)
      var items: [PropertyList] = []
      items.reserveCapacity(count)
      for i in 0..<count {
        let ref = try read(start + i * objectRefSize, width: objectRefSize)
        items.append(try object(at: Int(clamping: ref), depth: depth + 1))
      }
      return .array(items)
    case 0xD:
      let (count, start) = try length(at: offset, unit: 2 * objectRefSize)
      var dict: [String: PropertyList] = [:]
      dict.reserveCapacity(count)
      for i in 0..<count {
        let keyRef = try read(start + i * objectRefSize, width: objectRefSize)
        let valueRef = try read(start + (count + i) * objectRefSize, width: objectRefSize)
        guard case .string(let key) = try object(at: Int(clamping: keyRef), depth: depth + 1) else {
          throw PropertyListFailure(offset: offset, reason: "dictionary key is not a string")
        }
        dict[key] = try object(at: Int(clamping: valueRef), depth: depth + 1)
      }
      return .dictionary(dict)
    default:
      throw PropertyListFailure(offset: offset, reason: "unknown marker 0x\(String(marker, radix: 16))")
    }
  }

  /// An integer object: 1, 2 or 4 bytes unsigned, 8 bytes signed.
  private func integer(at offset: Int) throws(PropertyListFailure) -> Int64 {
    let low = Int(bytes[offset] & 0x0F)
    guard bytes[offset] >> 4 == 0x1, low <= 3 else {
      throw PropertyListFailure(offset: offset, reason: "integer of unsupported size")
    }
    let width = 1 << low
    let raw = try read(offset + 1, width: width)
    return width == 8 ? Int64(bitPattern: raw) : Int64(raw)
  }

  /// The element count of a data, string or collection object and where its contents start; checks that
  /// `count × unit` bytes fit before the offset table.
  private func length(at offset: Int, unit: Int) throws(PropertyListFailure) -> (count: Int, start: Int) {
    var count = Int(bytes[offset] & 0x0F)
    var start = offset + 1
    if count == 0x0F {
      guard start < offsetTableStart else {
        throw PropertyListFailure(offset: offset, reason: "length runs past the data")
      }
      let width = 1 << Int(bytes[start] & 0x0F)
      let value = try integer(at: start)
      guard value >= 0 else { throw PropertyListFailure(offset: offset, reason: "negative length \(value)") }
      count = Int(value)
      start += 1 + width
    }
    let (needed, overflow) = count.multipliedReportingOverflow(by: unit)
    guard !overflow, start <= offsetTableStart, needed <= offsetTableStart - start else {
      throw PropertyListFailure(offset: offset, reason: "length \(count) runs past the object area")
    }
    return (count, start)
  }
}
