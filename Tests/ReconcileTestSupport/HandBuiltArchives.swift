public import Foundation

/// Reconcile system-fields archives written byte by byte, to say what no encoder would: absurd lengths, overlong
/// varints, dates past any calendar. Each gets a correct CRC-32, so a decoder reads past the checksum into the fields.
/// The hostile-input tests, the benchmark's hostile section and the fuzz harness share it.
public enum HandBuiltArchives {
  /// A whole archive: magic, version 1, `flags`, `body`, and the checksum.
  public static func systemFields(flags: UInt16 = 0, body: [UInt8]) -> Data {
    withChecksum(Array("RCSF".utf8) + [1, UInt8(flags & 0xFF), UInt8(flags >> 8)] + body)
  }

  /// `bytes` followed by their CRC-32, little-endian, as the archive ends.
  public static func withChecksum(_ bytes: [UInt8]) -> Data {
    let crc = crc32(bytes)
    return Data(bytes + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * UInt32($0))) })
  }

  /// A string field: its UTF-8 length as a varint, then the bytes.
  public static func string(_ s: String) -> [UInt8] { varint(UInt64(s.utf8.count)) + Array(s.utf8) }

  /// Eight bytes, most significant first, as binary property lists write their trailer and offsets.
  public static func bigEndian64(_ v: UInt64) -> [UInt8] {
    (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) }
  }

  /// LEB128, as the archive writes lengths.
  public static func varint(_ value: UInt64) -> [UInt8] {
    var v = value
    var out: [UInt8] = []
    repeat {
      out.append(UInt8(v & 0x7F) | (v >= 0x80 ? 0x80 : 0))
      v >>= 7
    } while v != 0
    return out
  }

  /// CRC-32 (IEEE 802.3, reflected), bit by bit: the format's checksum, written out because the library's is internal.
  public static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
