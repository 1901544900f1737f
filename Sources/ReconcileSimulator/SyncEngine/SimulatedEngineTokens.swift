import Reconcile

/// The simulated engine's own part of a `SyncEngine.StateSerialization`: its change tokens and fetch progress, kept
/// as a value in `SyncEngine.StateSerialization.engineState`.
///
/// Apple's `CKSyncEngine.State` reference page says the engine keeps "server change tokens (for databases and record
/// zones)… and so on" in the state the app persists. Which zones still need fetching is not named there, but it must
/// be kept beside the database token: the database token moves past a zone's change as soon as the database changes
/// are fetched, so an engine relaunched before that zone's pages all arrived would otherwise never fetch them. This
/// stand-in keeps it; what Apple's engine keeps exactly cannot be confirmed without it.
struct SimulatedEngineTokens: Sendable, Hashable, Codable {
  /// The database change token.
  var database: DatabaseChangeToken?
  /// Each zone's change token.
  var zones: [ZoneID: ZoneChangeToken] = [:]
  /// Zones the database changes named whose fetch has not yet reached the end, in the order to fetch them.
  var zonesNeedingFetch: [ZoneID] = []
  /// Zones this engine saved (created) that no deletion has been reported for: with the zones it holds tokens for,
  /// those a listing of the database from the beginning must name, or they are gone.
  var savedZones: Set<ZoneID>? = nil

  /// The zones this engine knows of: those it holds a token for and those it saved.
  var knownZones: Set<ZoneID> { Set(zones.keys).union(savedZones ?? []) }

  /// The tokens a serialization holds; none for a first launch or another engine's state.
  init(_ serialization: SyncEngine.StateSerialization?) {
    self = (try? serialization?.engineState?.decode(Self.self)) ?? Self()
  }

  init() {}
}
