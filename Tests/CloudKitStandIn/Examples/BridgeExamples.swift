// The README's and the DocC article's CloudKit code, compiled by Scripts/check-cloudkit-bridge.sh against the stand-in,
// so the examples cannot drift from the bridge's API. Never run.
import CloudKit
import Foundation
import Reconcile

// README: the bridge in five lines.
func readmeBridge(ckRecord: CKRecord, error: CKError, resolver: FieldMerge) throws {
  let record = try Record(ckRecord)  // every value typed, encrypted values, changed keys
  let failure = try CloudKitError(bridging: error)  // CKError → a typed error
  if let conflict = failure.conflict, let server = error.serverRecord {
    try resolver.resolve(conflict).apply(to: server)  // write only what the merge changed
  }
  _ = record.ckRecord  // a new CKRecord from a Record
}

// Article: saving an edit and resolving a conflict.
struct NoteStore {
  var clock: HybridLogicalClock
  let resolver = FieldMerge(.editCount(key: "editCount"), overrides: ["body": .localClock(key: "editedAt")])
  var pending: [Record] = []

  mutating func userEdited(_ note: inout Record, title: String) throws {
    note["title"] = .string(title)
    try resolver.stampEdit(&note, clock: &clock)
    pending.append(note)
    _ = try JSONEncoder().encode(pending)  // lossless: changed keys survive a relaunch
  }

  mutating func received(_ fetched: CKRecord) throws -> Record {
    let record = try Record(fetched)
    try resolver.observeStamps(of: record, clock: &clock)
    return record
  }

  func resolve(_ error: CKError) throws -> CKRecord? {
    let failure = try CloudKitError(bridging: error)
    guard failure.code == .serverRecordChanged, let conflict = failure.conflict, let server = error.serverRecord else {
      return nil
    }
    let merged = try resolver.resolve(conflict)
    merged.apply(to: server)
    return server  // save this: it carries the server's change tag
  }
}
