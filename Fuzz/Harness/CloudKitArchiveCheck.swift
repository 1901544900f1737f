import Foundation
import Reconcile

/// Fuzzes `Record(cloudKitSystemFieldsArchive:)`: the binary and XML property-list readers and the keyed-archive
/// walk above them. Whatever decodes is written back with `cloudKitSystemFieldsArchive()` and must read back equal.
enum CloudKitArchiveCheck {
  static func check(_ data: Data) throws(FuzzFinding) {
    let record: Record
    do {
      record = try Record(cloudKitSystemFieldsArchive: data)
    } catch {
      try FuzzFinding.requireMessage(error.description, from: "Record(cloudKitSystemFieldsArchive:)")
      return
    }
    try FuzzFinding.requireRoundTrip(record, format: "keyed archive") {
      try Record(cloudKitSystemFieldsArchive: try record.cloudKitSystemFieldsArchive())
    }
  }
}
