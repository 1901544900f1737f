public import Foundation
public import Reconcile

/// The built-in CKSyncEngine delegate: an app's store (a dictionary) and Reconcile's `ZoneReplica`, which keeps
/// every sync rule. Under ``Rules/reconcile`` (the `sync-engine` client) the replica merges with the run's resolver;
/// under ``Rules/appleSample`` (`sync-engine-sample`) it does what Apple's CKSyncEngine sample app does:
/// **whole-record last-writer-wins on a modification date the device writes**, kept in the record's encrypted values
/// (`modifiedAt`).
///
/// - A fetched record replaces the local copy when its modification date is at least the local one; otherwise the local
///   values stay on top of the server's system fields.
/// - A `serverRecordChanged` failure merges the server's record the same way and re-adds the save.
/// - `unknownItem` (the record was deleted on the server) re-uploads it under `.editWins` and drops it under
///   `.deleteWins`.
/// - A deleted zone, or `zoneNotFound` on a save, drops what the server had acknowledged and re-uploads into a
///   re-created zone the records it never had (under `ZoneLossPolicy.reuploadLocalData`, everything).
/// - Deletions carry no change tag, so one sent blindly could delete a record created anew elsewhere under the same ID.
///   Each deletion waits for a fetch that starts after it; a fetched record with another creation date cancels it, and
///   one written since by another device settles it by the delete policy. A new record never handed to the engine is
///   deleted locally only. The engine fetches when the network returns, before it sends.
/// - It removes pending saves of records it no longer has when it builds a batch: a crash between its own write and
///   the engine's `stateUpdate` leaves such changes.
///
/// It persists every change at once; ``relaunch()`` loses only which deletions the fetch under way covers.
///
/// **Its known flaw** is the sample's: a fetched record's values win only when its modification date is later, and
/// the date comes from the writing device's clock. When a save lands later than another device's but carries an older
/// date — a clock running behind, or a save retried after a lost answer — a device that already showed the newer-dated
/// copy keeps it, and no longer matches the server. The property runner finds this within a few seeds with clock skew
/// (``Invariant/convergence``) and shrinks it to a few steps; with true clocks it takes lost answers (flaky faults).
/// Whole-record merging also loses one side of concurrent edits to different keys, which field-merge's
/// ``Invariant/oneSidedChangesKept`` reports. Under `.deleteWins`, a deletion whose record another device re-created
/// (by a conflict merge onto the deleted record) can still delete the new one.
public struct ExampleSyncDelegate: SimulatedSyncEngineDelegate {
  /// The encrypted field holding the device-written modification date, under ``Rules/appleSample``.
  package static let modifiedAtKey = "modifiedAt"

  /// How the delegate merges: Apple's sample's rule, or Reconcile's.
  public enum Rules: Sendable, Hashable {
    /// Whole-record last-writer-wins on the device-written `modifiedAt`, as Apple's sample
    /// app does. The setup's resolver, bookkeeping and schema are not used.
    case appleSample
    /// The setup's resolver (guarded by its schema) over the last server version the app knew as the ancestor, the
    /// setup's bookkeeping on every edit, and the schema's check: a record from a newer major version is never edited
    /// here, a conflict with one halts the delegate (the user's change kept until an upgrade), and keys this app does
    /// not know are never removed.
    case reconcile
  }

  /// The app's records and the sync rules; everything persists at once.
  package internal(set) var replica: ZoneReplica<DictionaryReplicaStore>
  /// How it merges.
  public let rules: Rules
  var clockOffset: TimeInterval

  /// The first launch.
  /// - Parameter setup: The device and the zone.
  public init(setup: ClientSetup) {
    self.init(setup: setup, rules: .reconcile)
  }

  /// The first launch, with the given merge rules.
  /// - Parameters:
  ///   - setup: The device, the zone, and the app's merge rules.
  ///   - rules: Apple's sample's, or Reconcile's.
  public init(setup: ClientSetup, rules: Rules) {
    var configuration = ReplicaConfiguration(
      zoneID: setup.zoneID, deviceName: setup.name, resolver: setup.resolver, bookkeeping: setup.bookkeeping,
      deletePolicy: setup.deletePolicy, schema: setup.schema, zoneLoss: setup.zoneDeletion)
    if rules == .appleSample {
      configuration.rule = .lastModifiedWins(key: Self.modifiedAtKey)
    } else {
      configuration.accountChange = setup.accountChange
    }
    configuration.flaws = Set(setup.defects.compactMap(\.replicaFlaw))
    replica = ZoneReplica(configuration: configuration, store: DictionaryReplicaStore())
    replica.recordsDecisions = true
    self.rules = rules
    clockOffset = setup.clockOffset
  }

  /// What the app was handed before local data went: its hook before deletion.
  public var localDataDeletions: [LocalDataDeletion] {
    replica.discarded
  }

  /// What the replica does with the records when the account changes.
  public var accountChangeResponse: AccountChangePolicy { replica.configuration.accountChange }

  /// Hands the user's answer to the replica.
  public mutating func answerAccountQuestion(keepingData: Bool, syncEngine: inout SyncEngine.State) -> Bool {
    replica.resolveAccountChange(keepingData: keepingData, syncEngine: &syncEngine)
  }

  /// A new app version is installed: its schema checks what is fetched and edited from now on, and a halt over a
  /// newer app's record is lifted.
  public mutating func upgrade(to schema: Schema?) { replica.upgrade(to: schema) }

  /// Why the app stopped syncing.
  public var haltReason: HaltReason? { replica.halt.map(HaltReason.init) }
  /// The replica's record states.
  public var recordSyncStates: [RecordID: RecordSyncState] { replica.metadata.recordStates }

  /// The latest persisted state.
  public var stateSerialization: SyncEngine.StateSerialization? { replica.metadata.stateSerialization }

  /// Everything is on disk already; only the answer to a request in flight may be lost.
  public mutating func relaunch() { replica.relaunch() }

  /// Re-adds what the old engine had pending, and lists the zone from the beginning again.
  public mutating func resetSync(replacing old: SyncEngine.State, syncEngine: inout SyncEngine.State) {
    replica.resetSync(replacing: old, syncEngine: &syncEngine)
  }

  /// Every record, sorted by ID.
  public var records: [Record] { replica.store.records }

  /// The replica's decisions since the last call, for the trace.
  public mutating func takeDecisions() -> [SyncDecision] { replica.takeDecisions() }

  /// One record.
  public func record(_ id: RecordID) -> Record? { replica.store[id] }

  /// Moves the device clock.
  public mutating func jumpClock(by seconds: TimeInterval) { clockOffset += seconds }

  /// Stores the record and queues its save (and the zone, the first time).
  public mutating func create(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State) throws {
    do { try replica.create(record, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine) } catch {
      throw DeviceError(error)
    }
  }

  /// Changes the record, stamps it and queues its save.
  public mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws {
    do { try replica.edit(id, setting: values, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine) } catch
    {
      throw DeviceError(error)
    }
  }

  /// Removes the record and queues its deletion.
  public mutating func delete(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws {
    do { try replica.delete(id, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine) } catch {
      throw DeviceError(error)
    }
  }

  /// The replica's next batch.
  public mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? { replica.nextRecordZoneChangeBatch(context, syncEngine: &syncEngine) }

  /// Hands the event to the replica.
  public mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    replica.handleEvent(event, syncEngine: &syncEngine)
  }
}

extension DeviceError {
  /// The replica's refusal of a user's action, as the simulator's clients name it.
  init(_ error: ReplicaError) {
    switch error {
    case .recordNotFound(let id): self = .recordNotFound(id)
    case .recordExists(let id): self = .recordExists(id)
    case .schema(let halt): self = .schema(halt)
    case .bookkeeping(let id, let reason): self = .bookkeeping(id, reason)
    }
  }
}

/// The built-in CKSyncEngine-style client.
package typealias ExampleSyncEngine = SimulatedSyncEngine<ExampleSyncDelegate>

extension ClientUnderTest {
  /// A simulated CKSyncEngine with the ``ExampleSyncDelegate`` under Reconcile's rules (script name `sync-engine`):
  /// the run's resolver, delete policy and schema.
  public static let syncEngine = ClientUnderTest(name: "sync-engine") { setup in try ExampleSyncEngine(setup: setup) }

  /// A simulated CKSyncEngine with the ``ExampleSyncDelegate`` under Apple's sample's rules (script name
  /// `sync-engine-sample`): whole-record last-writer-wins on a device-written date, whatever the run's resolver.
  /// Its rule promises no more than server last-writer-wins, so its runs name `server-lww` and no other resolver.
  public static let syncEngineSample = ClientUnderTest(
    name: "sync-engine-sample", ownRule: "server-lww", canAskOnAccountChange: false
  ) { setup in
    SimulatedSyncEngine(delegate: ExampleSyncDelegate(setup: setup, rules: .appleSample), setup: setup)
  }
}
