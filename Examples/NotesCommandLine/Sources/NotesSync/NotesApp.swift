// A notes app written from the article "Using Reconcile with CKSyncEngine" alone, over a store of its own: the notes
// are rows of encoded bytes, as a SQLite table or a folder of files holds them, and every launch reads the rows and
// the sync bookkeeping back from those bytes. `notes-playground --client notes-app` sweeps it.
import Foundation
import Reconcile
public import ReconcileSimulator

/// The app's table of notes: one row of JSON per note, keyed by its ID's name. Every read decodes, every write
/// encodes, so what the replica keeps is what survives a disk.
struct NoteRows: ReplicaStore {
  private(set) var rows: [RecordID: Data] = [:]

  subscript(id: RecordID) -> Record? {
    get { rows[id].flatMap { try? JSONDecoder().decode(Record.self, from: $0) } }
    set { rows[id] = newValue.flatMap { try? JSONEncoder().encode($0) } }
  }

  var recordIDs: [RecordID] { Array(rows.keys) }
}

/// The app's sync delegate: its own table, and the replica's bookkeeping written beside it after every change.
struct NotesAppDelegate: SyncEngineDelegate {
  var replica: ZoneReplica<NoteRows>
  /// The bookkeeping as last written to disk: read back at every launch.
  private(set) var savedMetadata = Data()

  init(configuration: ReplicaConfiguration, rows: NoteRows = NoteRows(), metadata: ReplicaMetadata = ReplicaMetadata())
  {
    replica = ZoneReplica(configuration: configuration, store: rows, metadata: metadata)
    persist()
  }

  /// Writes the bookkeeping, as the app does after every event and change (the rows are written as they change).
  mutating func persist() { savedMetadata = (try? JSONEncoder().encode(replica.metadata)) ?? Data() }

  mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    replica.handleEvent(event, syncEngine: &syncEngine)
    persist()
  }

  mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? {
    defer { persist() }
    return replica.nextRecordZoneChangeBatch(context, syncEngine: &syncEngine)
  }
}

/// The app as the simulation drives it: the user's operations call what its UI would.
public struct SimulatedNotesApp: SimulatedSyncEngineDelegate {
  var app: NotesAppDelegate
  var clockOffset: TimeInterval

  /// The app on a new device, configured as the run's setup says.
  public init(setup: ClientSetup) throws {
    let configuration = ReplicaConfiguration(
      zoneID: setup.zoneID, deviceName: setup.name, resolver: FieldMerge(.server, overrides: ["tags": .listUnion]),
      deletePolicy: setup.deletePolicy, schema: setup.schema, zoneLoss: setup.zoneDeletion,
      accountChange: setup.accountChange)
    app = NotesAppDelegate(configuration: configuration)
    clockOffset = setup.clockOffset
  }

  /// Hands the engine's event to the app's delegate.
  public mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    app.handleEvent(event, syncEngine: &syncEngine)
  }

  /// The app's delegate builds the next batch.
  public mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? { app.nextRecordZoneChangeBatch(context, syncEngine: &syncEngine) }

  /// The engine state the app last wrote.
  public var stateSerialization: SyncEngine.StateSerialization? { app.replica.metadata.stateSerialization }

  /// Launched again from the disk: the rows as they are, the bookkeeping as last written.
  public mutating func relaunch() {
    let metadata = (try? JSONDecoder().decode(ReplicaMetadata.self, from: app.savedMetadata)) ?? ReplicaMetadata()
    app = NotesAppDelegate(configuration: app.replica.configuration, rows: app.replica.store, metadata: metadata)
  }

  /// What the list shows.
  public var records: [Record] { app.replica.store.records }
  /// One note as the app shows it.
  public func record(_ id: RecordID) -> Record? { app.replica.store[id] }
  /// Why the app stopped syncing, if it did.
  public var haltReason: HaltReason? { app.replica.halt.map(HaltReason.init) }
  /// A new app version is installed.
  public mutating func upgrade(to schema: Schema?) {
    app.replica.upgrade(to: schema)
    app.persist()
  }
  /// The device's clock jumps.
  public mutating func jumpClock(by seconds: TimeInterval) { clockOffset += seconds }
  /// The user resets sync: the replica keeps what the old engine had pending.
  public mutating func resetSync(replacing old: SyncEngine.State, syncEngine: inout SyncEngine.State) {
    app.replica.resetSync(replacing: old, syncEngine: &syncEngine)
    app.persist()
  }
  /// What the app handed over before deleting it.
  public var localDataDeletions: [LocalDataDeletion] { app.replica.discarded }
  /// The app's account policy.
  public var accountChangeResponse: AccountChangeResponse { app.replica.configuration.accountChange }
  /// The user answers the account question.
  public mutating func answerAccountQuestion(keepingData: Bool, syncEngine: inout SyncEngine.State) -> Bool {
    defer { app.persist() }
    return app.replica.resolveAccountChange(keepingData: keepingData, syncEngine: &syncEngine)
  }

  /// The user writes a new note.
  public mutating func create(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try app.replica.create(record, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine)
    app.persist()
  }

  /// The user changes some of a note's fields.
  public mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws {
    try app.replica.edit(id, setting: values, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine)
    app.persist()
  }

  /// The user deletes a note.
  public mutating func delete(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try app.replica.delete(id, at: now.addingTimeInterval(clockOffset), syncEngine: &syncEngine)
    app.persist()
  }
}

extension ClientUnderTest {
  /// The notes app over its own table, in a simulated CKSyncEngine.
  public static let notesApp = ClientUnderTest(name: "notes-app") {
    try SimulatedSyncEngine<SimulatedNotesApp>(setup: $0)
  }
}
