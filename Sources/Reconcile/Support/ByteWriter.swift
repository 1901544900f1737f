/// Appends little-endian integers, LEB128 lengths and UTF-8 strings to a byte buffer.
struct ByteWriter {
  var bytes: [UInt8]

  init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  mutating func write(_ byte: UInt8) { bytes.append(byte) }

  mutating func write(_ raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

  mutating func writeUInt32(_ value: UInt32) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func writeUInt64(_ value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  /// Unsigned LEB128: seven bits per byte, low bits first, the high bit set on every byte but the last.
  mutating func writeVarint(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  /// A varint byte count, then the UTF-8 bytes.
  mutating func writeString(_ string: String) {
    var s = string
    s.withUTF8 { utf8 in
      writeVarint(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }
}
