import Foundation

extension SyncEngine {
  /// What the engine persists through the app: `CKSyncEngine.State.Serialization`. The app stores the latest one it is
  /// handed in an ``Event/stateUpdate(_:)`` event and gives it back at launch; nothing else of the engine survives a
  /// crash.
  ///
  /// It is `Codable`, so an app stores it with `JSONEncoder` next to its own data, and opaque, as Apple's is: the app
  /// reads the pending changes through ``State``. Equality compares the pending changes and the engine's own part as
  /// it is held: an engine's in-memory state and the same state read back from bytes are not equal until the engine
  /// has read them.
  public struct StateSerialization: Sendable, Hashable, Codable {
    /// Record changes not yet sent, in the order they were added. (Behind the CloudKit adapter these are a copy for
    /// reading; CKSyncEngine keeps its own inside `engineState`.)
    package var pendingRecordZoneChanges = PendingRecordZoneChanges()
    /// Zone changes not yet sent.
    package var pendingDatabaseChanges: [PendingDatabaseChange] = []
    /// The engine's own part — change tokens and whatever else it tracks — opaque to the app.
    package var engineState: EngineState?

    /// An empty state, as at first launch.
    public init() {}
  }

  /// The part of a ``StateSerialization`` only the engine reads: CKSyncEngine's serialization as bytes, or the
  /// simulated engine's change tokens as a value.
  ///
  /// A value stays a value in memory (no encoding on each ``Event/stateUpdate(_:)``); encoding a
  /// ``StateSerialization`` writes it as JSON bytes, and decoding gives those bytes back, which the engine decodes
  /// with ``decode(_:)`` when it launches.
  package struct EngineState: Sendable, Hashable, Codable, CustomStringConvertible {
    private enum Storage: Sendable {
      case value(any Codable & Hashable & Sendable)
      case encoded(Data)
    }
    private let storage: Storage

    /// Holds an engine's state as a value.
    /// - Parameter value: The state.
    package init(_ value: some Codable & Hashable & Sendable) { storage = .value(value) }

    /// Holds an engine's state as its JSON encoding, for a state that is not `Hashable` (CKSyncEngine's).
    /// - Parameter value: The state.
    /// - Throws: What `JSONEncoder` throws.
    package init(encoding value: some Encodable) throws { storage = .encoded(try Self.encoder.encode(value)) }

    /// The state held, as `type`: the value itself, or decoded from the bytes read back.
    /// - Parameter type: The engine's state type.
    /// - Returns: The state.
    /// - Throws: ``SyncEngineError/engineStateMismatch(expected:found:)`` when another engine's state is held, or the
    ///   bytes do not decode as `type` (the decoding error's description is kept).
    package func decode<Value: Decodable>(_ type: Value.Type) throws(SyncEngineError) -> Value {
      switch storage {
      case .value(let value):
        guard let value = value as? Value else {
          throw .engineStateMismatch(expected: "\(Value.self)", found: "\(Swift.type(of: value))")
        }
        return value
      case .encoded(let data):
        do {
          return try JSONDecoder().decode(Value.self, from: data)
        } catch {
          throw .engineStateMismatch(expected: "\(Value.self)", found: "bytes that do not decode: \(error)")
        }
      }
    }

    /// The value held, when it is a `Value` held in memory; `nil` otherwise (no decoding).
    /// - Parameter type: The engine's state type.
    /// - Returns: The value.
    package func value<Value>(as type: Value.Type) -> Value? {
      if case .value(let value) = storage { return value as? Value }
      return nil
    }

    /// Reads the state back as bytes.
    /// - Parameter decoder: The decoder.
    /// - Throws: What the decoder throws.
    package init(from decoder: any Decoder) throws {
      storage = .encoded(try decoder.singleValueContainer().decode(Data.self))
    }

    /// Writes the state as bytes: the JSON encoding of a value, or the bytes held.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoders throw.
    package func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(try encodedBytes())
    }

    private func encodedBytes() throws -> Data {
      switch storage {
      case .value(let value): try Self.encoder.encode(value)
      case .encoded(let data): data
      }
    }

    private static var encoder: JSONEncoder {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      return encoder
    }

    /// Equal when both hold equal values, or equal bytes.
    package static func == (lhs: Self, rhs: Self) -> Bool {
      switch (lhs.storage, rhs.storage) {
      case (.value(let a), .value(let b)): AnyHashable(a) == AnyHashable(b)
      case (.encoded(let a), .encoded(let b)): a == b
      default: false
      }
    }

    /// Hashes the value or the bytes.
    package func hash(into hasher: inout Hasher) {
      switch storage {
      case .value(let value): hasher.combine(AnyHashable(value))
      case .encoded(let data): hasher.combine(data)
      }
    }

    /// The value, or the number of bytes.
    package var description: String {
      switch storage {
      case .value(let value): "\(value)"
      case .encoded(let data): "\(data.count) bytes"
      }
    }
  }

  /// The engine's state the delegate reads and adds pending changes to: `CKSyncEngine.State`.
  ///
  /// Behind the CloudKit adapter it is a copy of CKSyncEngine's pending changes; every add and remove the delegate
  /// makes is replayed, in order, onto the real `CKSyncEngine.State` when the delegate returns.
  public struct State: Sendable, Hashable {
    /// What the engine persists.
    public package(set) var serialization: StateSerialization
    /// Whether the state changed since the last ``Event/stateUpdate(_:)``.
    package var changed = false
    /// Every add and remove, in order, when an adapter replays them onto another engine; `nil` when nobody does.
    package var journal: [Edit]?

    /// One add or remove, for replaying.
    package enum Edit: Sendable, Hashable {
      case addRecordZoneChanges([PendingRecordZoneChange])
      case removeRecordZoneChanges([PendingRecordZoneChange])
      case addDatabaseChanges([PendingDatabaseChange])
      case removeDatabaseChanges([PendingDatabaseChange])
    }

    /// A state holding `serialization`.
    /// - Parameter serialization: What the engine persisted, or an empty serialization.
    public init(_ serialization: StateSerialization = StateSerialization()) { self.serialization = serialization }

    /// Record changes not yet sent.
    public var pendingRecordZoneChanges: [PendingRecordZoneChange] { serialization.pendingRecordZoneChanges.ordered }
    /// Zone changes not yet sent.
    public var pendingDatabaseChanges: [PendingDatabaseChange] { serialization.pendingDatabaseChanges }

    /// Adds record changes to send; one already pending is not added twice, and a save replaces a pending delete of
    /// the same record (and a delete a save).
    /// - Parameter changes: The changes.
    public mutating func add(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) {
      journal?.append(.addRecordZoneChanges(changes))
      for change in changes where serialization.pendingRecordZoneChanges.add(change) { changed = true }
    }

    /// The record changes pending, as the engine holds them: counted, asked about and gone through in order without
    /// building an array (``pendingRecordZoneChanges`` builds one on every read).
    package var pendingRecords: PendingRecordZoneChanges { serialization.pendingRecordZoneChanges }

    /// Removes record changes.
    /// - Parameter changes: The changes.
    public mutating func remove(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) {
      guard !changes.isEmpty else { return }
      journal?.append(.removeRecordZoneChanges(changes))
      if serialization.pendingRecordZoneChanges.remove(changes) { changed = true }
    }

    /// Adds zone changes to send.
    /// - Parameter changes: The changes.
    public mutating func add(pendingDatabaseChanges changes: [PendingDatabaseChange]) {
      journal?.append(.addDatabaseChanges(changes))
      for change in changes where !serialization.pendingDatabaseChanges.contains(change) {
        serialization.pendingDatabaseChanges.append(change)
        changed = true
      }
    }

    /// Removes zone changes.
    /// - Parameter changes: The changes.
    public mutating func remove(pendingDatabaseChanges changes: [PendingDatabaseChange]) {
      guard !changes.isEmpty else { return }
      journal?.append(.removeDatabaseChanges(changes))
      // Zones are few: a scan of the list is cheap.
      let gone = Set(changes)
      let before = serialization.pendingDatabaseChanges.count
      serialization.pendingDatabaseChanges.removeAll { gone.contains($0) }
      if serialization.pendingDatabaseChanges.count != before { changed = true }
    }
  }
}
