package import Foundation
package import Reconcile

/// One method per user operation and host event, as Reconcile's two clients (``SimulatedDevice`` and
/// ``SimulatedSyncEngine``) offer them to their own tests: a client with these gets ``SyncClient/perform(_:at:)`` and
/// ``SyncClient/handle(_:)`` from them, written once.
package protocol ClientMethods {
  /// The user creates a record.
  mutating func create(_ record: Record, at now: Date) throws
  /// The user edits a record's plain and encrypted values.
  mutating func edit(
    _ id: RecordID, setting values: [String: FieldValue?], encrypting encrypted: [String: FieldValue?], at now: Date
  ) throws
  /// The user deletes a record.
  mutating func delete(_ id: RecordID, at now: Date) throws
  /// The device loses its network.
  mutating func goOffline()
  /// The device gets its network back.
  mutating func goOnline()
  /// The user asks for a sync.
  mutating func requestSync()
  /// The app asks to send what is pending.
  mutating func requestSend()
  /// The process ends and the app relaunches from what it persisted.
  mutating func crash()
  /// The user clears a halt.
  mutating func restart()
  /// The user resets sync.
  mutating func resetSync()
  /// The device's account changed.
  mutating func accountChanged(_ change: SyncEngine.AccountChange)
  /// The user answers an account question; whether one was open.
  mutating func answerAccountQuestion(keepingData: Bool) -> Bool
  /// The device's clock jumps.
  mutating func jumpClock(by seconds: TimeInterval)
  /// The app is updated to check records against `schema`.
  mutating func upgrade(to schema: Schema?)
  /// The stored copy of a record is damaged; whether there was one.
  mutating func damageStoredRecord(_ id: RecordID) -> Bool
  /// The host's timer fired: the client times out requests and ends waits.
  mutating func wake(at now: Date)
}

extension SyncClient where Self: ClientMethods {
  /// Carries out the user's operation through the client's own method for it.
  package mutating func perform(_ operation: UserOperation, at now: Date) throws {
    switch operation {
    case .create(let record): try create(record, at: now)
    case .edit(let id, let values, let encrypted): try edit(id, setting: values, encrypting: encrypted, at: now)
    case .delete(let id): try delete(id, at: now)
    }
  }

  /// Hands a host event to the client's own method for it.
  @discardableResult
  package mutating func handle(_ event: HostEvent) -> Bool {
    switch event {
    case .wentOffline: goOffline()
    case .cameOnline: goOnline()
    case .syncRequested: requestSync()
    case .sendRequested: requestSend()
    case .crashed: crash()
    case .restarted: restart()
    case .syncReset: resetSync()
    case .accountChanged(let change): accountChanged(change)
    case .accountQuestionAnswered(let keep): return answerAccountQuestion(keepingData: keep)
    case .clockJumped(let seconds): jumpClock(by: seconds)
    case .upgraded(let schema): upgrade(to: schema)
    case .storageDamaged(let id): return damageStoredRecord(id)
    case .timerFired(let now): wake(at: now)
    }
    return true
  }
}
