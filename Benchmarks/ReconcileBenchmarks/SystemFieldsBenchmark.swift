import Foundation
import Reconcile

/// Encode + decode of one record's system fields in Reconcile's format, Apple's keyed archive, and Web Services JSON.
struct SystemFieldsBenchmark {
  struct Result {
    let name: String
    let nsPerRoundTrip: Double
    let bytes: Int
  }

  /// A record shaped like the real QSCompany fixture: custom zone, change tag, both dates, users and device.
  static func sampleRecord() throws -> Record {
    let zone = try ZoneID(zoneName: "QSCloudKitCustomZoneName")
    var record = Record(
      recordType: "QSCompany",
      recordID: try RecordID(recordName: "QSCompany.1739C6A5-C07E-48A5-B83E-AB07694F23DF", zoneID: zone))
    record.recordChangeTag = "4"
    record.creationDate = Date(timeIntervalSinceReferenceDate: 523_319_906.484)
    record.modificationDate = Date(timeIntervalSinceReferenceDate: 523_319_906.484)
    record.creatorUserRecordName = "__defaultOwner__"
    record.lastModifiedUserRecordName = "__defaultOwner__"
    record.modifiedByDevice = "Manuel’s MacBook Air"
    return record
  }

  static func run(iterations: Int) throws -> [Result] {
    let record = try sampleRecord()

    let reconcileBytes = record.encodeSystemFields().count
    let reconcile = try nanosecondsPerCall(iterations: iterations) {
      let decoded = try Record(systemFieldsData: record.encodeSystemFields())
      return decoded.recordChangeTag?.utf8.count ?? 0
    }

    let keyedBytes = try record.cloudKitSystemFieldsArchive().count
    let keyed = try nanosecondsPerCall(iterations: max(1, iterations / 20)) {
      let decoded = try Record(cloudKitSystemFieldsArchive: try record.cloudKitSystemFieldsArchive())
      return decoded.recordChangeTag?.utf8.count ?? 0
    }

    let jsonBytes = try record.wireJSON().count
    let json = try nanosecondsPerCall(iterations: max(1, iterations / 20)) {
      let decoded = try Record(wireJSON: try record.wireJSON())
      return decoded.recordChangeTag?.utf8.count ?? 0
    }
    precondition(reconcile.sink > 0 && keyed.sink > 0 && json.sink > 0)  // keeps the work from being optimised away

    return [
      Result(name: "Reconcile system-fields archive", nsPerRoundTrip: reconcile.ns, bytes: reconcileBytes),
      Result(name: "Apple keyed archive (NSKeyedArchiver bplist)", nsPerRoundTrip: keyed.ns, bytes: keyedBytes),
      Result(name: "Web Services JSON (JSONEncoder/JSONDecoder)", nsPerRoundTrip: json.ns, bytes: jsonBytes),
    ]
  }
}
