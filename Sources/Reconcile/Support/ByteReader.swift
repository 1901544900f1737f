/// Reads what ``ByteWriter`` writes, checking every length against the bytes that remain. It never traps: running out
/// of bytes or meeting a malformed varint throws ``ByteReader/Failure``.
struct ByteReader: ~Copyable {
  enum Failure: Error, Equatable {
    /// `needed` bytes were wanted at `offset` but fewer remain.
    case truncated(offset: Int, needed: Int)
    /// A varint at `offset` is longer than ten bytes or overflows 64 bits.
    case malformedVarint(offset: Int)
    /// The string at `offset` is not valid UTF-8.
    case invalidUTF8(offset: Int)
  }

  private let base: UnsafeRawBufferPointer
  private(set) var offset: Int

  init(_ buffer: UnsafeRawBufferPointer) {
    base = buffer
    offset = 0
  }

  var remaining: Int { base.count - offset }

  mutating func readByte() throws(Failure) -> UInt8 {
    guard offset < base.count else { throw .truncated(offset: offset, needed: 1) }
    defer { offset += 1 }
    return base[offset]
  }

  mutating func readUInt32() throws(Failure) -> UInt32 {
    guard remaining >= 4 else { throw .truncated(offset: offset, needed: 4) }
    var v: UInt32 = 0
    for i in 0..<4 { v |= UInt32(base[offset + i]) << (8 * UInt32(i)) }
    offset += 4
    return v
  }

  mutating func readUInt64() throws(Failure) -> UInt64 {
    guard remaining >= 8 else { throw .truncated(offset: offset, needed: 8) }
    var v: UInt64 = 0
    for i in 0..<8 { v |= UInt64(base[offset + i]) << (8 * UInt64(i)) }
    offset += 8
    return v
  }

  mutating func readVarint() throws(Failure) -> UInt64 {
    let start = offset
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = try readByte()
      if shift == 63 && byte > 1 { throw .malformedVarint(offset: start) }
      result |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return result }
      shift += 7
      if shift > 63 { throw .malformedVarint(offset: start) }
    }
  }

  /// A varint length, then that many bytes of UTF-8. The length is checked before anything is allocated.
  mutating func readString() throws(Failure) -> String {
    let lengthOffset = offset
    let length = try readVarint()
    guard length <= UInt64(remaining) else { throw .truncated(offset: lengthOffset, needed: Int(clamping: length)) }
    let count = Int(length)
    let slice = UnsafeRawBufferPointer(rebasing: base[offset..<(offset + count)])
    guard let string = UTF8Text.string(validating: slice) else {
      throw .invalidUTF8(offset: offset)
    }
    offset += count
    return string
  }
}
