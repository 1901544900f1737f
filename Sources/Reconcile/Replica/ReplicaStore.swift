/// Where a ``ZoneReplica`` keeps the app's records: the app's own database (SwiftData, GRDB, files) behind a small
/// protocol, so the records stay in the app's store and the replica keeps only the sync bookkeeping.
///
/// A record is stored on the system fields of the last server version the replica knew (none for a record the server
/// never acknowledged), with the user's unsent values on top: keep both, as ``Record``'s `Codable` form does.
/// Write a store's changes in the same transaction as the replica's ``ZoneReplica/metadata`` when you can; see
/// ``ZoneReplica`` for what a crash between the two writes may leave.
public protocol ReplicaStore: Sendable {
  /// The record stored under `id`; setting `nil` removes it.
  subscript(id: RecordID) -> Record? { get set }
  /// Every record ID stored, in any order.
  var recordIDs: [RecordID] { get }
}

extension ReplicaStore {
  /// Removes the record stored under `id` and returns it.
  /// - Parameter id: The record's ID.
  /// - Returns: The record removed, or `nil` when none was stored.
  @discardableResult
  public mutating func removeValue(forKey id: RecordID) -> Record? {
    let record = self[id]
    if record != nil { self[id] = nil }
    return record
  }

  /// Every record stored, sorted by ID.
  public var records: [Record] { recordIDs.sorted().compactMap { self[$0] } }

  /// The records stored, by ID: a copy, for rules that compare what was held before a wholesale change.
  var snapshot: [RecordID: Record] {
    Dictionary(uniqueKeysWithValues: recordIDs.compactMap { id in self[id].map { (id, $0) } })
  }
}

/// A ``ReplicaStore`` in a dictionary: for tests, and for small apps that persist it whole (it is `Codable`).
public struct DictionaryReplicaStore: ReplicaStore, Hashable, Codable {
  private var storage: [RecordID: Record]

  /// A store holding `records`.
  /// - Parameter records: The records, each under its own ID.
  public init(_ records: [Record] = []) {
    storage = Dictionary(records.map { ($0.recordID, $0) }) { _, last in last }
  }

  /// The record stored under `id`; setting `nil` removes it.
  public subscript(id: RecordID) -> Record? {
    get { storage[id] }
    set { storage[id] = newValue }
  }

  /// Every record ID stored.
  public var recordIDs: [RecordID] { Array(storage.keys) }

  /// Whether the store holds no record.
  public var isEmpty: Bool { storage.isEmpty }
}
