public import Foundation
public import Reconcile

/// A delegate built around ``ExampleSyncDelegate``: everything it does not implement itself goes to ``inner``, so a
/// conformer writes only what it changes — an app's own bookkeeping on some events, or, in a test, a deliberate bug
/// the oracles must catch.
///
/// ```swift
/// struct CountingDelegate: ExampleSyncDelegateWrapper {
///   var inner: ExampleSyncDelegate
///   var fetched = 0
///   init(setup: ClientSetup) throws { inner = ExampleSyncDelegate(setup: setup) }
///   mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
///     if case .fetchedRecordZoneChanges(let changes) = event { fetched += changes.modifications.count }
///     inner.handleEvent(event, syncEngine: &syncEngine)
///   }
/// }
/// ```
public protocol ExampleSyncDelegateWrapper: SimulatedSyncEngineDelegate {
  /// The delegate everything else goes to.
  var inner: ExampleSyncDelegate { get set }
}

extension ExampleSyncDelegateWrapper {
  /// Forwards to ``inner``.
  public mutating func handleEvent(_ event: SyncEngine.Event, syncEngine: inout SyncEngine.State) {
    inner.handleEvent(event, syncEngine: &syncEngine)
  }

  /// Forwards to ``inner``.
  public mutating func nextRecordZoneChangeBatch(
    _ context: SyncEngine.SendChangesContext, syncEngine: inout SyncEngine.State
  ) -> SyncEngine.RecordZoneChangeBatch? { inner.nextRecordZoneChangeBatch(context, syncEngine: &syncEngine) }

  /// Forwards to ``inner``.
  public var stateSerialization: SyncEngine.StateSerialization? { inner.stateSerialization }

  /// Forwards to ``inner``.
  public mutating func relaunch() { inner.relaunch() }

  /// Forwards to ``inner``.
  public mutating func create(_ record: Record, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try inner.create(record, at: now, syncEngine: &syncEngine)
  }

  /// Forwards to ``inner``.
  public mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], at now: Date, syncEngine: inout SyncEngine.State
  ) throws { try inner.edit(id, setting: values, at: now, syncEngine: &syncEngine) }

  /// Forwards to ``inner``.
  public mutating func delete(_ id: RecordID, at now: Date, syncEngine: inout SyncEngine.State) throws {
    try inner.delete(id, at: now, syncEngine: &syncEngine)
  }

  /// Forwards to ``inner``.
  public var records: [Record] { inner.records }

  /// Forwards to ``inner``.
  public mutating func takeDecisions() -> [SyncDecision] { inner.takeDecisions() }

  /// Forwards to ``inner``.
  public func record(_ id: RecordID) -> Record? { inner.record(id) }

  /// Forwards to ``inner``.
  public var haltReason: HaltReason? { inner.haltReason }
  /// The inner delegate's record states.
  public var recordSyncStates: [RecordID: RecordSyncState] { inner.recordSyncStates }

  /// Forwards to ``inner``.
  public mutating func jumpClock(by seconds: TimeInterval) { inner.jumpClock(by: seconds) }

  /// Forwards to ``inner``.
  public mutating func upgrade(to schema: Schema?) { inner.upgrade(to: schema) }

  /// Forwards to ``inner``.
  public var accountChangeResponse: AccountChangePolicy { inner.accountChangeResponse }

  /// Forwards to ``inner``.
  public mutating func answerAccountQuestion(keepingData: Bool, syncEngine: inout SyncEngine.State) -> Bool {
    inner.answerAccountQuestion(keepingData: keepingData, syncEngine: &syncEngine)
  }
  /// Forwards to the wrapped delegate.
  public mutating func resetSync(replacing old: SyncEngine.State, syncEngine: inout SyncEngine.State) {
    inner.resetSync(replacing: old, syncEngine: &syncEngine)
  }
}
