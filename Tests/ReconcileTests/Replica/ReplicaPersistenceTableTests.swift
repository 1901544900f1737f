import Foundation
import Reconcile
import Testing

/// The persistence contract, crash by crash: an app that keeps its records and the replica's metadata apart writes
/// the metadata first, then the store (``ReplicaPersistence/metadataThenStore``). Every sequence of the lifecycle
/// table is run with a crash after each of its steps, once after both writes and once between them: the two launches
/// must be the same device, and stay the same to the end. Written in the other order, or with the metadata carrying
/// nothing, a torn crash loses a user's deletion or create, and the table says where. A third crash falls after both
/// writes but before the engine's state update carries the step's pending changes: the launch check must leave the
/// engine as a whole crash would.
@Suite("Persistence: a crash between the metadata write and the store write loses nothing")
struct ReplicaPersistenceTableTests {
  typealias Device = RecordLifecycleTableTests.Device
  typealias Step = RecordLifecycleTableTests.Step

  /// How the app writes its two halves after each step.
  enum Order: CustomStringConvertible {
    /// The metadata, carrying the store's unsaved writes, then the store: the contract.
    case metadataThenStore
    /// The metadata, carrying nothing (the replica configured for one transaction), then the store.
    case metadataCarryingNothingThenStore
    /// The store, then the metadata.
    case storeThenMetadata

    var description: String {
      switch self {
      case .metadataThenStore: "metadata (carrying the store's writes), then store"
      case .metadataCarryingNothingThenStore: "metadata (carrying nothing), then store"
      case .storeThenMetadata: "store, then metadata"
      }
    }
  }

  /// What is on disk: the records, and the metadata with the engine's state (its `stateUpdate` goes in the metadata
  /// write).
  struct Disk: Equatable {
    var store: DictionaryReplicaStore
    var metadata: ReplicaMetadata
    var engine: SyncEngine.State
  }

  /// A device that writes after every step, and can be crashed with its last step's writes torn.
  struct App {
    var device: Device
    let order: Order
    var disk: Disk
    /// The disk before the last step's writes.
    var previous: Disk
    /// The user's actions the replica refused (a note a torn crash lost cannot be edited).
    var refusals: [String] = []

    init(order: Order) throws {
      device = try Device(
        flaws: [], persistence: order == .metadataThenStore ? .metadataThenStore : .oneTransaction)
      self.order = order
      disk = Disk(store: device.replica.store, metadata: device.replica.metadata, engine: device.state)
      previous = disk
    }

    /// One step, then both writes.
    mutating func run(_ step: Step) {
      do { try device.run(step) } catch { refusals.append("\(step): \(error)") }
      previous = disk
      disk = Disk(store: device.replica.store, metadata: device.replica.metadata, engine: device.state)
      device.replica.storeSaved()
    }

    /// The process dies: after both of the last step's writes (`.whole`), after only the first (`.torn`), or after
    /// both but before the engine's state update carries the pending changes the step added (`.beforeEngineUpdate`,
    /// which CKSyncEngine delivers later); the app launches from the disk.
    mutating func crash(_ point: CrashPoint) {
      var kept = disk
      switch (point, order) {
      case (.whole, _): break
      case (.torn, .metadataThenStore), (.torn, .metadataCarryingNothingThenStore): kept.store = previous.store
      case (.torn, .storeThenMetadata):
        kept.metadata = previous.metadata
        kept.engine = previous.engine
      case (.beforeEngineUpdate, _):
        kept.engine = previous.engine
      }
      device.replica = ZoneReplica(
        configuration: device.replica.configuration, store: kept.store, metadata: kept.metadata)
      device.replica.relaunch()
      device.state = kept.engine
      disk = kept
    }

    /// What the device holds: its records, its metadata, and what the engine has pending.
    var held: Held {
      Held(
        records: device.replica.store.records, metadata: device.replica.metadata,
        pending: device.state.pendingRecordZoneChanges, refusals: refusals)
    }
  }

  /// Where in a step's writes the crash falls.
  enum CrashPoint {
    case whole, torn, beforeEngineUpdate
  }

  /// What a launch left the device holding.
  struct Held: Equatable {
    var records: [Record]
    var metadata: ReplicaMetadata
    var pending: [SyncEngine.PendingRecordZoneChange]
    var refusals: [String]
  }

  static let created = RecordLifecycleTableTests.created

  /// Every sequence of the lifecycle table, and a few longer lives: each step is an action or event whose writes a
  /// crash can tear.
  static let sequences: [[Step]] =
    RecordLifecycleTableTests.rows.map { $0.given + [$0.event] } + [
      created + [.edit("oat"), .batch, .answerLost, .fetched(tag: "t2", body: "2 l"), .delete, .fetchUnchanged],
      created + [.edit("oat"), .batch, .conflict(tag: "t2", body: "2 l"), .batch, .saved("t3"), .fetchedDeletion],
      created + [.zoneDeleted(.encryptedDataReset), .batch, .saved("t9"), .edit("rye"), .delete, .create("eggs")],
      created + [.delete, .create("eggs"), .batch, .saved("t2"), .accountSwitch, .create("tea")],
      [.create("milk"), .batch, .answerLost, .delete, .relaunch, .fetchedDeletion, .create("oat"), .batch],
    ]

  /// The sequence run with a crash after step `index` at `point`; then the rest.
  /// - Returns: What the device held at the launch after the crash, and at the end.
  static func run(_ steps: [Step], crashingAfter index: Int, at point: CrashPoint, order: Order) throws -> (
    launch: Held, end: Held
  ) {
    var app = try App(order: order)
    for step in steps[...index] { app.run(step) }
    app.crash(point)
    let launch = app.held
    for step in steps[(index + 1)...] { app.run(step) }
    return (launch, app.held)
  }

  /// The sequence crashed after step `index` at `point`, then a batch (the launch check runs before the first), then
  /// the rest: what the device holds then, pending changes in any order.
  static func checked(_ steps: [Step], crashingAfter index: Int, at point: CrashPoint) throws -> Held {
    var app = try App(order: .metadataThenStore)
    for step in steps[...index] { app.run(step) }
    app.crash(point)
    app.run(.batch)
    for step in steps[(index + 1)...] { app.run(step) }
    var held = app.held
    held.pending.sort { "\($0)" < "\($1)" }
    return held
  }

  /// Every (sequence, step) where a torn crash leaves the device other than a whole crash does, in `order`.
  static func tears(in order: Order) throws -> [String] {
    var found: [String] = []
    for steps in sequences {
      for index in steps.indices {
        let whole = try run(steps, crashingAfter: index, at: .whole, order: order)
        let torn = try run(steps, crashingAfter: index, at: .torn, order: order)
        if torn.launch != whole.launch || torn.end != whole.end {
          found.append("\(steps[..<index].map(\.description)) then \(steps[index]) torn")
        }
      }
    }
    return found
  }

  @Test("every sequence of the table runs as written: no step is refused")
  func sequencesRun() throws {
    for steps in Self.sequences {
      let ended = try Self.run(steps, crashingAfter: steps.count - 1, at: .whole, order: .metadataThenStore)
      #expect(ended.end.refusals.isEmpty, "\(steps)")
    }
  }

  @Test("written metadata first, carrying the store's writes, a crash between the two writes is a crash after both")
  func metadataThenStoreLosesNothing() throws {
    let cases = Self.sequences.map(\.count).reduce(0, +)
    #expect(cases > 100, "the table must tear many steps, or passing proves little")
    let tears = try Self.tears(in: .metadataThenStore)
    #expect(tears.isEmpty, "\(tears.joined(separator: "\n"))")
  }

  @Test("the same two writes with the metadata carrying nothing lose a create torn from the store")
  func metadataCarryingNothingLosesACreate() throws {
    let tears = try Self.tears(in: .metadataCarryingNothingThenStore)
    #expect(tears.contains { $0.hasPrefix("[] then create milk torn") }, "\(tears)")
    // The create is gone from the store, and nothing is left to send it.
    let lost = try Self.run(
      [.create("milk"), .batch], crashingAfter: 0, at: .torn, order: .metadataCarryingNothingThenStore)
    #expect(lost.end.records.isEmpty)
  }

  @Test("written store first, a crash between the two writes loses a user's deletion")
  func storeThenMetadataLosesADeletion() throws {
    let tears = try Self.tears(in: .storeThenMetadata)
    let deletion = Self.created + [.delete]
    #expect(tears.contains { $0.hasSuffix("then delete torn") }, "\(tears)")
    // The record is gone from the store, but the metadata owes no deletion and the engine has none pending: the next
    // fetch brings the note back.
    let lost = try Self.run(deletion, crashingAfter: deletion.count - 1, at: .torn, order: .storeThenMetadata)
    #expect(lost.launch.records.isEmpty)
    #expect(lost.launch.metadata.syncState(of: try Self.noteID).deletion == nil)
    #expect(lost.launch.pending.isEmpty)
  }

  @Test("a crash before the engine's state update carries a step's pending changes is made good at launch")
  func engineStateLagIsMadeGood() throws {
    var found: [String] = []
    for steps in Self.sequences {
      for index in steps.indices {
        let whole = try Self.checked(steps, crashingAfter: index, at: .whole)
        let lagging = try Self.checked(steps, crashingAfter: index, at: .beforeEngineUpdate)
        if lagging.records != whole.records || lagging.pending != whole.pending || lagging.refusals != whole.refusals {
          found.append(
            "\(steps[..<index].map(\.description)) then \(steps[index]): \(lagging.pending) for \(whole.pending)")
        }
      }
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  static var noteID: RecordID { get throws { try RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Notes")) } }
}
