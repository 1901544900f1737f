import Foundation
import Reconcile

/// Fuzzes `Record(systemFieldsData:)`. Random bytes almost never carry the right CRC-32, so each input is also tried
/// with its checksum recomputed: that lets the fuzzer reach the field decoders behind the checksum.
enum SystemFieldsCheck {
  static func check(_ data: Data) throws(FuzzFinding) {
    try decode(data)
    if data.count >= 4 {
      var patched = data
      let body = data.prefix(data.count - 4)
      let crc = checksum(body)
      for i in 0..<4 {
        patched[patched.startIndex + body.count + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i)))
      }
      try decode(patched)
    }
  }

  private static func decode(_ data: Data) throws(FuzzFinding) {
    let record: Record
    do {
      record = try Record(systemFieldsData: data)
    } catch {
      try FuzzFinding.requireMessage(error.description, from: "Record(systemFieldsData:)")
      return
    }
    let again: Record
    do {
      again = try Record(systemFieldsData: record.encodeSystemFields())
    } catch {
      throw FuzzFinding("a decoded record's own archive does not decode: \(error)")
    }
    if again != record { throw FuzzFinding("system fields changed on a round trip: \(record) became \(again)") }
  }

  /// CRC-32 (IEEE 802.3, reflected), bit by bit: the format's checksum, written out here because the library's
  /// table-driven one is internal.
  private static func checksum(_ bytes: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
