import Reconcile

/// The simulated engine's own part of a `SyncEngine.StateSerialization`: its change tokens, kept as a value
/// in `SyncEngine.StateSerialization.engineState`.
struct SimulatedEngineTokens: Sendable, Hashable, Codable {
  /// The database change token.
  var database: DatabaseChangeToken?
  /// Each zone's change token.
  var zones: [ZoneID: ZoneChangeToken] = [:]

  /// The tokens a serialization holds; none for a first launch or another engine's state.
  init(_ serialization: SyncEngine.StateSerialization?) {
    self = (try? serialization?.engineState?.decode(Self.self)) ?? Self()
  }

  init() {}
}

extension SyncEngine.State {
  /// The simulated engine's token for `zone`: `nil` before its first fetch, and after the token expired (the fetch
  /// starts from the beginning). A CKSyncEngine delegate cannot see this; ``ExampleSyncDelegate`` reads it to know a
  /// fetch brings the whole zone.
  func simulatedZoneToken(_ zone: ZoneID) -> ZoneChangeToken? { SimulatedEngineTokens(serialization).zones[zone] }
}
