package import Foundation

/// The parts of a `CKRecord` the bridge reads and writes, described without CloudKit.
///
/// On Apple platforms `CKRecord` conforms (a thin layer that only forwards to CloudKit's API); tests conform a small
/// class, so all the conversion logic — types, encrypted values, changed keys, system fields — runs on every platform.
package protocol CloudKitRecordBridging: AnyObject {
  /// The record's type.
  var bridgedRecordType: String { get }
  /// The record's name, zone name and zone owner.
  var bridgedRecordID: (recordName: String, zoneName: String, ownerName: String) { get }
  /// The server-set fields.
  var bridgedSystemFields: CloudKitSystemFields { get }
  /// Every key with a value, plain or encrypted.
  var bridgedKeys: [String] { get }
  /// The keys set since the record was fetched or created (`changedKeys()`).
  var bridgedChangedKeys: [String] { get }
  /// The value under `key` and whether it is in `encryptedValues`; `nil` when the key has no value.
  func bridgedValue(forKey key: String) -> (value: CloudKitValue, encrypted: Bool)?
  /// Sets (or, with `nil`, removes) the value under `key`, in `encryptedValues` when `encrypted`.
  func setBridgedValue(_ value: CloudKitValue?, forKey key: String, encrypted: Bool)
  /// The record's parent reference: the target's name, and whether one is set.
  var bridgedParent: (recordName: String, zoneName: String, ownerName: String)? { get set }
}

/// A record's server-set fields as CloudKit reports them.
package struct CloudKitSystemFields: Sendable, Hashable {
  /// The change tag.
  package var recordChangeTag: String?
  /// When the server first saved the record.
  package var creationDate: Date?
  /// When the server last saved the record.
  package var modificationDate: Date?
  /// The creator's user record name.
  package var creatorUserRecordName: String?
  /// The last modifier's user record name.
  package var lastModifiedUserRecordName: String?
  /// The share record's name, when the record is shared.
  package var shareRecordName: String?

  /// Creates system fields.
  /// - Parameters:
  ///   - recordChangeTag: The change tag.
  ///   - creationDate: The creation date.
  ///   - modificationDate: The modification date.
  ///   - creatorUserRecordName: The creator.
  ///   - lastModifiedUserRecordName: The last modifier.
  ///   - shareRecordName: The share record's name.
  package init(
    recordChangeTag: String? = nil, creationDate: Date? = nil, modificationDate: Date? = nil,
    creatorUserRecordName: String? = nil, lastModifiedUserRecordName: String? = nil, shareRecordName: String? = nil
  ) {
    self.recordChangeTag = recordChangeTag
    self.creationDate = creationDate
    self.modificationDate = modificationDate
    self.creatorUserRecordName = creatorUserRecordName
    self.lastModifiedUserRecordName = lastModifiedUserRecordName
    self.shareRecordName = shareRecordName
  }
}

extension ZoneID {
  /// The zone a `CKRecordZone.ID` names.
  /// - Parameter id: Its zone name and owner name.
  /// - Throws: ``CloudKitBridgeError/invalidName(_:)`` when Reconcile cannot hold the name.
  package init(bridging id: (zoneName: String, ownerName: String)) throws(CloudKitBridgeError) {
    do {
      self = try ZoneID(zoneName: id.zoneName, ownerName: id.ownerName)
    } catch {
      throw .invalidName(error)
    }
  }
}

extension RecordID {
  /// The record a `CKRecord.ID` names.
  /// - Parameter id: Its record name, zone name and owner name.
  /// - Throws: ``CloudKitBridgeError/invalidName(_:)`` when Reconcile cannot hold the name.
  package init(bridging id: (recordName: String, zoneName: String, ownerName: String)) throws(CloudKitBridgeError) {
    do {
      self = try RecordID(
        recordName: id.recordName, zoneID: ZoneID(zoneName: id.zoneName, ownerName: id.ownerName))
    } catch {
      throw .invalidName(error)
    }
  }
}

extension Record {
  /// The record a CloudKit record holds: ID, type, every plain and encrypted value with its CloudKit type, system
  /// fields, parent and share, and the keys CloudKit marks changed.
  ///
  /// ```swift
  /// let record = try Record(bridging: ckRecord)        // CKRecord conforms on Apple platforms
  /// ```
  /// - Parameter source: A `CKRecord`, or anything that describes one.
  /// - Throws: ``CloudKitBridgeError`` naming a value Reconcile cannot hold or an invalid name.
  package init(bridging source: some CloudKitRecordBridging) throws(CloudKitBridgeError) {
    let recordID = try RecordID(bridging: source.bridgedRecordID)
    let zone = recordID.zoneID
    var record = Record(recordType: source.bridgedRecordType, recordID: recordID)
    for key in source.bridgedKeys.sorted() {
      guard let (value, encrypted) = source.bridgedValue(forKey: key) else { continue }
      let field = try FieldValue(cloudKitValue: value, key: key)
      if encrypted { record.encryptedValues[key] = field } else { record[key] = field }
    }
    let system = source.bridgedSystemFields
    record.recordChangeTag = system.recordChangeTag
    record.creationDate = system.creationDate
    record.modificationDate = system.modificationDate
    record.creatorUserRecordName = system.creatorUserRecordName
    record.lastModifiedUserRecordName = system.lastModifiedUserRecordName
    if let parent = source.bridgedParent {
      record.parent = Reference(recordID: try RecordID(bridging: parent), action: .none)
    }
    if let share = system.shareRecordName {
      record.share = Reference(
        recordID: try RecordID(bridging: (share, zone.zoneName, zone.ownerName)), action: .none)
    }
    record.replaceChangedKeys(with: Set(source.bridgedChangedKeys))
    self = record
  }

  /// Writes this record's ``changedKeys`` — each key's value, plain or encrypted, or its removal — and its parent onto
  /// a CloudKit record, and nothing else.
  ///
  /// Apply a resolved record onto the server's `CKRecord` (from `serverRecordChanged`) and save that: the save carries
  /// the server's change tag, and only what the merge changed is marked changed. Rebuilding a `CKRecord` from scratch
  /// instead marks every key changed, which turns the next three-way merge into a conflict on every key.
  ///
  /// ```swift
  /// let resolved = try FieldMerge().resolve(conflict)
  /// resolved.apply(to: serverRecord)                 // the CKRecord from the error: `apply(to:)` on Apple platforms
  /// ```
  /// - Parameter target: The CloudKit record to write onto, usually the server's version.
  package func apply(bridgingTo target: some CloudKitRecordBridging) {
    for key in changedKeys.sorted() {
      if let value = storage.encrypted[key] {
        target.setBridgedValue(value.cloudKitValue, forKey: key, encrypted: true)
      } else if let value = storage.values[key] {
        target.setBridgedValue(value.cloudKitValue, forKey: key, encrypted: false)
      } else {
        // A removal: clear the key wherever the target holds it.
        let encrypted = target.bridgedValue(forKey: key)?.encrypted ?? false
        target.setBridgedValue(nil, forKey: key, encrypted: encrypted)
      }
    }
    let parent = storage.parent.map {
      ($0.recordID.recordName, $0.recordID.zoneID.zoneName, $0.recordID.zoneID.ownerName)
    }
    if parent?.0 != target.bridgedParent?.recordName || parent?.1 != target.bridgedParent?.zoneName {
      target.bridgedParent = parent
    }
  }
}
