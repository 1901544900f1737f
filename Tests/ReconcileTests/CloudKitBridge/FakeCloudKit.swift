import Foundation
import Reconcile

/// A stand-in for `CKRecord` that behaves as CloudKit documents it: every set marks the key changed, encrypted values
/// live apart from plain ones, system fields come from the server.
final class FakeCKRecord: CloudKitRecordBridging {
  var bridgedRecordType: String
  var bridgedRecordID: (recordName: String, zoneName: String, ownerName: String)
  var bridgedSystemFields = CloudKitSystemFields()
  var plain: [String: CloudKitValue] = [:]
  var encrypted: [String: CloudKitValue] = [:]
  var changed: [String] = []
  var bridgedParent: (recordName: String, zoneName: String, ownerName: String)? {
    didSet { parentWrites += 1 }
  }
  var parentWrites = 0

  init(type: String, name: String, zone: String = "Notes", owner: String = "__defaultOwner__") {
    bridgedRecordType = type
    bridgedRecordID = (name, zone, owner)
  }

  var bridgedKeys: [String] { Array(plain.keys) + Array(encrypted.keys) }
  var bridgedChangedKeys: [String] { changed }

  func bridgedValue(forKey key: String) -> (value: CloudKitValue, encrypted: Bool)? {
    if let value = plain[key] { return (value, false) }
    if let value = encrypted[key] { return (value, true) }
    return nil
  }

  func setBridgedValue(_ value: CloudKitValue?, forKey key: String, encrypted isEncrypted: Bool) {
    if isEncrypted { encrypted[key] = value } else { plain[key] = value }
    if !changed.contains(key) { changed.append(key) }
  }

  /// As a fetched record: no changed keys.
  func markFetched(tag: String) {
    changed = []
    bridgedSystemFields.recordChangeTag = tag
  }
}

/// A stand-in for `CKError`.
struct FakeCKError: CloudKitErrorBridging {
  var bridgedCode: Int
  var bridgedRetryAfter: Double?
  var bridgedMessage: String?
  var bridgedConflictRecords: (client: FakeCKRecord?, ancestor: FakeCKRecord?, server: FakeCKRecord?) = (nil, nil, nil)
  var bridgedPartialErrors: [(id: (recordName: String, zoneName: String, ownerName: String), error: FakeCKError)] = []
}
