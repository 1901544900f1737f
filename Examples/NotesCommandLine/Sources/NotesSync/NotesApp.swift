// A notes app written from the article "Using Reconcile with CKSyncEngine" alone, over a store of its own: the notes
// are rows of encoded bytes, as a SQLite table or a folder of files holds them, and every launch reads the rows and
// the sync bookkeeping back from those bytes. `notes-playground --client notes-app` sweeps it.
import Foundation
import Reconcile
public import ReconcileSimulator

/// The app's table of notes: one row of JSON per note, keyed by its ID's name. Every read decodes, every write
/// encodes, so what the replica keeps is what survives a disk.
public struct NoteRows: ReplicaStore, Sendable {
  private(set) var rows: [RecordID: Data] = [:]

  /// An empty table.
  public init() {}

  /// The note in row `id`, decoded; setting encodes it (`nil` deletes the row).
  public subscript(id: RecordID) -> Record? {
    get { rows[id].flatMap { try? JSONDecoder().decode(Record.self, from: $0) } }
    set { rows[id] = newValue.flatMap { try? JSONEncoder().encode($0) } }
  }

  /// The IDs of every row.
  public var recordIDs: [RecordID] { Array(rows.keys) }
}

/// The app's sync delegate: its own table, and the replica's bookkeeping written beside it after every change.
public struct NotesAppDelegate: ReplicaBackedDelegate {
  /// What survives a relaunch: the table's rows as they are, the bookkeeping as last written.
  public struct Saved: Sendable {
    var rows: NoteRows
    var metadata: Data
  }

  /// The sync rules, over the app's table.
  public var replica: ZoneReplica<NoteRows>
  /// The bookkeeping as last written to disk: read back at every launch.
  private var savedMetadata = Data()

  /// The app on a device, configured as the run's setup says, launched from what it saved.
  /// - Throws: The bookkeeping's decoding error — a newer release's format, or bytes that are not metadata: the app
  ///   does not launch on a silent reset of what it owes the server.
  public init(setup: ClientSetup, saved: Saved?) throws {
    let configuration = ReplicaConfiguration(
      zoneID: setup.zoneID, deviceName: setup.name, resolver: FieldMerge(.server, overrides: ["tags": .listUnion]),
      deletePolicy: setup.deletePolicy, schema: setup.schema, zoneLoss: setup.zoneDeletion,
      accountChange: setup.accountChange)
    let metadata = try saved.map { try JSONDecoder().decode(ReplicaMetadata.self, from: $0.metadata) }
    replica = ZoneReplica(
      configuration: configuration, store: saved?.rows ?? NoteRows(), metadata: metadata ?? ReplicaMetadata())
    persist()
  }

  /// The rows and the bookkeeping as last written.
  public var saved: Saved { Saved(rows: replica.store, metadata: savedMetadata) }

  /// Writes the bookkeeping, as the app does after every event and change (the rows are written as they change).
  mutating func persist() { savedMetadata = (try? JSONEncoder().encode(replica.metadata)) ?? Data() }

  /// The replica answers the engine's event; the bookkeeping is written.
  public mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    replica.handleEvent(event, syncEngine: &syncEngine)
    persist()
  }

  /// The replica builds the next batch; the bookkeeping is written (it notes the new notes handed out).
  public mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? {
    defer { persist() }
    return replica.nextRecordZoneChangeBatch(context, syncEngine: &syncEngine)
  }

  /// The user writes a new note.
  public mutating func userCreated(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try replica.create(record, at: now, syncEngine: &syncEngine)
    persist()
  }

  /// The user changes some of a note's fields.
  public mutating func userEdited(
    _ id: RecordID, _ values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws {
    try replica.edit(id, setting: values, at: now, syncEngine: &syncEngine)
    persist()
  }

  /// The user deletes a note.
  public mutating func userDeleted(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try replica.delete(id, at: now, syncEngine: &syncEngine)
    persist()
  }

  /// An upgrade, a forced resync or an account answer changed the bookkeeping: written as any change is.
  public mutating func replicaChanged() { persist() }
}

extension ClientUnderTest {
  /// The notes app over its own table, in a simulated CKSyncEngine.
  public static let notesApp = ClientUnderTest(name: "notes-app") {
    try SimulatedReplicaApp<NotesAppDelegate>(setup: $0)
  }
}
