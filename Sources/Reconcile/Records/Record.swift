public import Foundation

/// A CloudKit record as a value: its identity, typed fields, encrypted fields and the system fields the server sets.
///
/// ```swift
/// var note = Record(recordType: "Note", recordID: try RecordID(recordName: "note-1", zoneID: notes))
/// note["title"] = "Groceries"
/// note["pinned"] = true
/// note.encryptedValues["body"] = "milk, eggs"
/// note.changedKeys        // ["body", "pinned", "title"]
/// try note.validate()
/// ```
///
/// ## Copying
/// `Record` is a value type with copy-on-write storage: copies are cheap, and a copy changes only when written. Values
/// are kept sorted by key, so reading a key is a binary search and every listing is in key order; ``values`` and
/// ``encryptedValuesByKey`` build a dictionary each time they are read.
///
/// ## Changed keys
/// Setting or removing a key, plain or encrypted, adds it to ``changedKeys`` — **even when the new value equals the old one**,
/// as `CKRecord` does, so an explicit write is always sent. A record decoded from an archive or received from a server
/// has no changed keys; ``clearChangedKeys()`` forgets them after a successful save.
///
/// ## Equality
/// `==` compares the record ID, record type, every plain and encrypted value, `parent`, `share`, `isDeleted` and every
/// system field (change tag, dates, users, device). It does **not** compare ``changedKeys``: two records with the same
/// contents are equal whatever was edited locally. Compare `changedKeys` yourself when that matters.
///
/// ## Storing records locally, and the wire format
/// `Record: Codable` is a lossless local format: everything above, changed keys included, round-trips through any
/// coder, so a queue of pending saves can be kept with `JSONEncoder`. The CloudKit Web Services JSON has explicit entry
/// points instead: ``wireJSON()``, ``init(wireJSON:)``, ``init(wireFormatFrom:)`` and ``encodeWireFormat(to:)``.
///
/// ## Bad keys
/// The subscripts accept any key and never trap. A key that breaks CloudKit's rules is reported by ``validate()``, which
/// every boundary (archives, wire encoding, the simulated server) calls before letting the record out.
public struct Record: Sendable {
  /// Values and metadata live in one box so copying a record is one reference-count increment.
  @usableFromInline final class Storage: @unchecked Sendable {
    // Safety: a Storage is only mutated through `Record.mutableStorage`, which copies it first unless uniquely
    // referenced, or while a resolver builds a storage no record holds yet. No access can overlap another, so the
    // dynamic exclusivity checks — a measurable share of every merge — are turned off.
    @exclusivity(unchecked) var recordType: String
    @exclusivity(unchecked) var recordID: RecordID
    @exclusivity(unchecked) var values: FieldTable
    @exclusivity(unchecked) var encrypted: FieldTable
    @exclusivity(unchecked) var changedKeys: Set<String>
    @exclusivity(unchecked) var parent: Reference?
    @exclusivity(unchecked) var share: Reference?
    @exclusivity(unchecked) var isDeleted: Bool
    @exclusivity(unchecked) var system: SystemFields

    init(recordType: String, recordID: RecordID) {
      self.recordType = recordType
      self.recordID = recordID
      self.values = FieldTable()
      self.encrypted = FieldTable()
      self.changedKeys = []
      self.parent = nil
      self.share = nil
      self.isDeleted = false
      self.system = SystemFields()
    }

    /// A copy of `other`, with `changedKeys` instead of its changed keys when given.
    init(copying other: Storage, changedKeys: Set<String>? = nil) {
      recordType = other.recordType
      recordID = other.recordID
      values = other.values
      encrypted = other.encrypted
      self.changedKeys = changedKeys ?? other.changedKeys
      parent = other.parent
      share = other.share
      isDeleted = other.isDeleted
      system = other.system
    }
  }

  /// The fields the server sets, kept together so archives copy them in one go.
  struct SystemFields: Sendable, Hashable {
    var recordChangeTag: String?
    var creationDate: Date?
    var modificationDate: Date?
    var creatorUserRecordName: String?
    var lastModifiedUserRecordName: String?
    var modifiedByDevice: String?
    var creatorDevice: String?
  }

  @usableFromInline var storage: Storage

  /// Creates an empty record that has never been saved: no fields, no system fields, no changed keys.
  ///
  /// The record type is checked by ``validate()``: an ASCII letter, then letters, digits or `_`, at most 255 characters.
  /// - Parameters:
  ///   - recordType: The record's type, such as `Note`.
  ///   - recordID: The record's ID; a new UUID name in the default zone unless given.
  public init(recordType: String, recordID: RecordID = RecordID()) {
    storage = Storage(recordType: recordType, recordID: recordID)
  }

  init(storage: Storage) { self.storage = storage }

  private var mutableStorage: Storage {
    mutating get {
      if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
      return storage
    }
  }

  // MARK: Identity

  /// The record's type, such as `Note`.
  public var recordType: String {
    get { storage.recordType }
    set { mutableStorage.recordType = newValue }
  }

  /// The record's ID.
  public var recordID: RecordID {
    get { storage.recordID }
    set { mutableStorage.recordID = newValue }
  }

  // MARK: Values

  /// The plain (unencrypted) value stored under `key`; setting `nil` removes it. Every write marks `key` changed.
  ///
  /// Writing a plain value removes an encrypted value under the same key: a key has one value.
  /// - Parameter key: A field key; rules are checked by ``validate()``, never here.
  /// - Complexity: Reading is O(log *n*). Writing a key the record has is O(log *n*); adding a key is O(*n*), and so is
  ///   any write when the storage is shared and must be copied first.
  public subscript(key: String) -> FieldValue? {
    get { storage.values[key] }
    set {
      let box = mutableStorage
      box.values[key] = newValue
      // Most records have no encrypted values: skip searching for a key a removal cannot remove.
      if newValue != nil, !box.encrypted.isEmpty { box.encrypted[key] = nil }
      box.changedKeys.insert(key)
    }
  }

  /// The encrypted values of the record, read and written by key.
  ///
  /// CloudKit encrypts these end to end; on the wire they are `ENCRYPTED_BYTES`. They are never written into system-field
  /// archives and never shown by `description`. Assets and references cannot be encrypted (``validate()`` says so).
  public var encryptedValues: EncryptedValues {
    get { EncryptedValues(record: self) }
    _modify {
      // Hand the storage to the view and leave a placeholder behind, so a write through the view finds the storage
      // uniquely referenced and mutates it in place instead of copying the whole record.
      var view = EncryptedValues(record: Record(storage: storage))
      storage = Record.placeholderStorage
      defer { storage = view.record.storage }
      yield &view
    }
  }

  /// Held by a record only while its storage is lent to an ``EncryptedValues`` view; never mutated.
  private static let placeholderStorage = Storage(
    recordType: "", recordID: RecordID(uncheckedRecordName: "", zoneID: .default))

  /// Every key with a value, plain or encrypted, sorted.
  public var allKeys: [String] {
    storage.encrypted.isEmpty ? storage.values.keys : (storage.values.keys + storage.encrypted.keys).sorted()
  }

  /// The plain values by key.
  /// - Complexity: O(*n*): the record keeps its values sorted by key, and builds this dictionary on each read.
  public var values: [String: FieldValue] { storage.values.dictionary }

  /// The encrypted values by key.
  /// - Complexity: O(*n*), as ``values``.
  public var encryptedValuesByKey: [String: FieldValue] { storage.encrypted.dictionary }

  /// The plain values, sorted by key, without building a dictionary.
  package var valueTable: FieldTable { storage.values }

  /// The encrypted values, sorted by key, without building a dictionary.
  package var encryptedValueTable: FieldTable { storage.encrypted }

  /// The keys set or removed since the record was created, decoded, received from a server, or last saved.
  public var changedKeys: Set<String> { storage.changedKeys }

  /// Forgets every changed key; call it after the server accepted the record.
  public mutating func clearChangedKeys() {
    guard !storage.changedKeys.isEmpty else { return }
    mutableStorage.changedKeys = []
  }

  /// Marks `key` as changed without writing it, so the next save sends its current value (or its removal).
  /// - Parameter key: The key to send with the next save.
  public mutating func markChanged(_ key: String) {
    mutableStorage.changedKeys.insert(key)
  }

  // MARK: Relationships

  /// The record's parent, used by sharing: a reference with action ``Reference/Action/none`` in the same zone.
  public var parent: Reference? {
    get { storage.parent }
    set { mutableStorage.parent = newValue }
  }

  /// The share record this record belongs to. Set by the server; a client does not set it.
  public var share: Reference? {
    get { storage.share }
    set { mutableStorage.share = newValue }
  }

  /// Whether the server reported this record as deleted (the Web Services `deleted` flag).
  public var isDeleted: Bool {
    get { storage.isDeleted }
    set { mutableStorage.isDeleted = newValue }
  }

  // MARK: System fields (set by the server)

  /// The server's version tag for this record's contents; `nil` until first saved. A new tag means new contents.
  public var recordChangeTag: String? {
    get { storage.system.recordChangeTag }
    set { mutableStorage.system.recordChangeTag = newValue }
  }

  /// When the server first saved the record.
  public var creationDate: Date? {
    get { storage.system.creationDate }
    set { mutableStorage.system.creationDate = newValue }
  }

  /// When the server last saved the record.
  public var modificationDate: Date? {
    get { storage.system.modificationDate }
    set { mutableStorage.system.modificationDate = newValue }
  }

  /// The record name of the user who created the record.
  public var creatorUserRecordName: String? {
    get { storage.system.creatorUserRecordName }
    set { mutableStorage.system.creatorUserRecordName = newValue }
  }

  /// The record name of the user who last modified the record.
  public var lastModifiedUserRecordName: String? {
    get { storage.system.lastModifiedUserRecordName }
    set { mutableStorage.system.lastModifiedUserRecordName = newValue }
  }

  /// The name of the device that last modified the record.
  public var modifiedByDevice: String? {
    get { storage.system.modifiedByDevice }
    set { mutableStorage.system.modifiedByDevice = newValue }
  }

  /// The device that created the record, as CloudKit Web Services reports it (`created.deviceID`). System-fields
  /// archives (CloudKit's, and Reconcile's) do not hold it, so it is `nil` for a record read from one.
  public var creatorDevice: String? {
    get { storage.system.creatorDevice }
    set { mutableStorage.system.creatorDevice = newValue }
  }

  /// Whether the record has been saved to a server (it has a change tag).
  public var isKnownToServer: Bool { storage.system.recordChangeTag != nil }

  /// A copy of this record with its ID, type, relationships and system fields but no values and no changed keys:
  /// what a system-fields archive holds.
  public var systemFieldsOnly: Record {
    let box = Storage(recordType: storage.recordType, recordID: storage.recordID)
    box.parent = storage.parent
    box.share = storage.share
    box.isDeleted = storage.isDeleted
    box.system = storage.system
    return Record(storage: box)
  }

  var systemFields: SystemFields {
    get { storage.system }
    set { mutableStorage.system = newValue }
  }

  /// Gives `key` exactly the plain and encrypted values `source` has for it, without marking it changed.
  mutating func restore(_ key: String, from source: Record) {
    let box = mutableStorage
    box.values[key] = source.storage.values[key]
    box.encrypted[key] = source.storage.encrypted[key]
  }

  /// Puts back a key's plain and encrypted values and whether it was changed, as they were before a failed write.
  mutating func restoreValue(_ key: String, plain: FieldValue?, encrypted: FieldValue?, changed: Bool) {
    let box = mutableStorage
    box.values[key] = plain
    box.encrypted[key] = encrypted
    if changed { box.changedKeys.insert(key) } else { box.changedKeys.remove(key) }
  }

  /// Gives `key` the value `source` sends for it — its encrypted value when it has one, else its plain value, else none
  /// — without marking `key` changed: what a server stores for a sent key.
  package mutating func takeSentValue(forKey key: String, from source: Record) {
    let encrypted = source.storage.encrypted[key]
    let box = mutableStorage
    box.values[key] = encrypted == nil ? source.storage.values[key] : nil
    box.encrypted[key] = encrypted
  }

  /// Takes every plain and encrypted value of `source`, marking changed each key whose value (or place) differs: the
  /// keys ``hasSameValue(forKey:as:)`` finds unequal, found in one walk over the sorted tables.
  package mutating func takeValues(of source: Record) {
    let differing =
      storage.values.keysDiffering(from: source.storage.values)
      + storage.encrypted.keysDiffering(from: source.storage.encrypted)
    guard !differing.isEmpty else { return }
    let box = mutableStorage
    box.values = source.storage.values
    box.encrypted = source.storage.encrypted
    box.changedKeys.formUnion(differing)
  }

  /// Whether this record and `other` hold the same plain and encrypted values.
  package func hasSameValues(as other: Record) -> Bool {
    storage === other.storage
      || (storage.values == other.storage.values && storage.encrypted == other.storage.encrypted)
  }

  /// Replaces the changed keys wholesale.
  mutating func replaceChangedKeys(with keys: Set<String>) { mutableStorage.changedKeys = keys }

  /// Whether `key` holds the same value, in the same place, as in `other`.
  package func hasSameValue(forKey key: String, as other: Record) -> Bool {
    storage.values[key] == other.storage.values[key] && storage.encrypted[key] == other.storage.encrypted[key]
  }
}

extension Record {
  /// A view of a record's encrypted values; see ``Record/encryptedValues``.
  public struct EncryptedValues: Sendable {
    var record: Record

    /// The encrypted value stored under `key`; setting `nil` removes it. Every write marks `key` changed.
    ///
    /// Writing an encrypted value removes a plain value under the same key.
    /// - Parameter key: A field key.
    public subscript(key: String) -> FieldValue? {
      get { record.storage.encrypted[key] }
      set {
        let box = record.mutableStorage
        box.encrypted[key] = newValue
        if newValue != nil, !box.values.isEmpty { box.values[key] = nil }
        box.changedKeys.insert(key)
      }
    }

    /// The encrypted keys, sorted.
    public var keys: [String] { record.storage.encrypted.keys }
  }
}

extension Record: Hashable {
  /// Compares everything but ``changedKeys``; see "Equality" above.
  public static func == (lhs: Record, rhs: Record) -> Bool {
    if lhs.storage === rhs.storage { return true }
    let l = lhs.storage
    let r = rhs.storage
    return l.recordID == r.recordID && l.recordType == r.recordType && l.system == r.system && l.parent == r.parent
      && l.share == r.share && l.isDeleted == r.isDeleted && l.values == r.values && l.encrypted == r.encrypted
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage.recordID)
    hasher.combine(storage.recordType)
    hasher.combine(storage.system)
    hasher.combine(storage.values)
    hasher.combine(storage.encrypted)
  }
}

extension Record: CustomReflectable {
  /// What `dump`, debuggers and `Mirror` see: every property, with encrypted values as `<encrypted>`. Without it,
  /// reflection would walk the record's storage and print encrypted values in clear.
  public var customMirror: Mirror {
    let s = storage.system
    let encrypted = storage.encrypted.keys.map { (key: $0, value: "<encrypted>") }
    let children: [(label: String?, value: Any)] = [
      ("recordType", storage.recordType), ("recordID", storage.recordID), ("recordChangeTag", s.recordChangeTag as Any),
      ("values", storage.values.map { (key: $0.key, value: $0.value) }),
      ("encryptedValues", encrypted), ("changedKeys", storage.changedKeys.sorted()),
      ("creationDate", s.creationDate as Any), ("modificationDate", s.modificationDate as Any),
      ("creatorUserRecordName", s.creatorUserRecordName as Any),
      ("lastModifiedUserRecordName", s.lastModifiedUserRecordName as Any),
      ("modifiedByDevice", s.modifiedByDevice as Any), ("parent", storage.parent as Any),
      ("share", storage.share as Any), ("isDeleted", storage.isDeleted),
    ]
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension Record: CustomStringConvertible, CustomDebugStringConvertible {
  /// A readable summary: type, ID, change tag and plain values. Encrypted values are shown as `<encrypted>`, never in clear.
  public var description: String {
    var parts = storage.values.map { "\($0.key): \($0.value.description)" }
    parts += storage.encrypted.keys.map { "\($0): <encrypted>" }
    let tag = storage.system.recordChangeTag.map { " tag \($0)" } ?? ""
    return "\(recordType) \(recordID)\(tag) {\(parts.joined(separator: ", "))}"
  }

  /// The summary plus changed keys and system fields. Encrypted values stay redacted.
  public var debugDescription: String {
    let s = storage.system
    var extra: [String] = []
    if !storage.changedKeys.isEmpty { extra.append("changed: \(storage.changedKeys.sorted())") }
    if let d = s.creationDate { extra.append("created: \(d.formatted(.iso8601))") }
    if let d = s.modificationDate { extra.append("modified: \(d.formatted(.iso8601))") }
    if let u = s.lastModifiedUserRecordName { extra.append("by: \(u)") }
    if let d = s.modifiedByDevice { extra.append("device: \(d)") }
    if let p = storage.parent { extra.append("parent: \(p)") }
    if let p = storage.share { extra.append("share: \(p)") }
    if storage.isDeleted { extra.append("deleted") }
    return description + (extra.isEmpty ? "" : " " + extra.joined(separator: "; "))
  }
}
