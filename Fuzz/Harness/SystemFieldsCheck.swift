import Foundation
import Reconcile
import ReconcileTestSupport

/// Fuzzes `Record(systemFieldsData:)`. Random bytes almost never carry the right CRC-32, so each input is also tried
/// with its checksum recomputed: that lets the fuzzer reach the field decoders behind the checksum.
enum SystemFieldsCheck {
  static func check(_ data: Data) throws(FuzzFinding) {
    try decode(data)
    if data.count >= 4 { try decode(HandBuiltArchives.withChecksum(Array(data.dropLast(4)))) }
  }

  private static func decode(_ data: Data) throws(FuzzFinding) {
    let record: Record
    do {
      record = try Record(systemFieldsData: data)
    } catch {
      try FuzzFinding.requireMessage(error.description, from: "Record(systemFieldsData:)")
      return
    }
    try FuzzFinding.requireRoundTrip(record, format: "system fields") {
      try Record(systemFieldsData: record.encodeSystemFields())
    }
  }
}
