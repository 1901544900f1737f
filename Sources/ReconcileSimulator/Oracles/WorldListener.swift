import Foundation
package import Reconcile

/// What happens in a simulated world, as the world reports it to its ``Auditor``: one requirement per kind of event.
///
/// The world says what it did and what a device showed; it never judges. Every oracle — the live checks, the record of
/// what users did, the server observer and the end-state judge — learns the run from these calls alone, so a new check
/// listens (it implements the events it needs; the rest do nothing) instead of threading bookkeeping through the
/// world. Events are calls rather than values so the world hands over what it holds without copying it.
protocol WorldListener {
  /// The app on `device` now knows these keys (`nil`: every key) — at setup, and again after an upgrade.
  mutating func appInstalled(on device: String, knownKeys: Set<String>?)
  /// A user acted on `device`: what the device showed of the record before the action (the version the user acted on)
  /// and after it (the edit count and stamps it carries).
  mutating func userActed(
    on device: String, recordID: RecordID, kind: UserAction, shownBefore: Record?, shownAfter: Record?,
    at now: Date)
  /// A request left device `index`, named `device`; `halted` says whether the device had halted.
  mutating func requestSent(by index: Int, _ device: String, _ request: ServerRequest, halted: Bool, at now: Date)
  /// The network lost a request on its way to the server.
  mutating func requestLost(by device: String, _ request: ServerRequest)
  /// The server answered a request from `device` (before the answer travels back).
  mutating func serverAnswered(_ device: String, _ answer: Result<ServerReply, CloudKitError>)
  /// The answer to a request that saved `saving` was lost on its way back to `device`.
  mutating func answerLost(to device: String, saving: [RecordID], _ answer: Result<ServerReply, CloudKitError>)
  /// An answer reached device `index`; `awaited` says whether the device still waited for it.
  mutating func answerDelivered(
    to index: Int, _ device: String, requestID: Int, _ answer: Result<ServerReply, CloudKitError>, saving: [RecordID],
    awaited: Bool, at now: Date)
  /// Device `index` crashed. A crash while it handled an answer it awaited carries that answer's saves and deletions
  /// (`lostAnswer`): the device cannot know which of them landed.
  mutating func crashed(_ index: Int, _ device: String, lostAnswer: (saved: [RecordID], deleted: [RecordID])?)
  /// `device`'s persisted zone token may have moved, across an answer or a crash.
  mutating func tokenMoved(on device: String, from before: ZoneChangeToken?, to after: ZoneChangeToken?)
  /// `device` halted.
  mutating func halted(_ device: String)
  /// The server changed.
  mutating func serverChanged(_ event: ServerEvent)
  /// The zone was deleted at server history position `position`, for `reason`, while the devices showed `shown`
  /// (per device).
  mutating func zoneDeleted(
    position: Int, reason: SyncEngine.ZoneDeletion.Reason, shown: [(device: String, records: [Record])], at now: Date)
  /// `device`'s stored copy of `recordID` was damaged.
  mutating func storageDamaged(on device: String, recordID: RecordID, at now: Date)
  /// The database feed was compacted: old database tokens expired, and with them what the feed said of zones gone.
  /// (`device` names the one device that forgot its place in the feed: its user reset sync.)
  mutating func databaseFeedCompacted(for device: String?, at now: Date)
  /// `device`'s iCloud account changed; it is now signed in to `account` (`nil`: signed out). Its app answers with
  /// `response`.
  mutating func accountChanged(on device: String, to account: String?, response: AccountChangePolicy, at now: Date)
  /// A user on a device signed in to `account` (`nil`: signed out) wrote these values.
  mutating func userWrote(_ values: [FieldValue?], under account: String?)
}

/// What a user did to a record, as the world reports it.
package enum UserAction: Sendable {
  /// A new record with these values.
  case create([String: FieldValue])
  /// Set these keys (`nil` removes the key).
  case edit([String: FieldValue?])
  /// The record deleted.
  case delete
}

/// A listener hears only the events it implements.
extension WorldListener {
  mutating func appInstalled(on device: String, knownKeys: Set<String>?) {}
  mutating func userActed(
    on device: String, recordID: RecordID, kind: UserAction, shownBefore: Record?, shownAfter: Record?,
    at now: Date
  ) {}
  mutating func requestSent(by index: Int, _ device: String, _ request: ServerRequest, halted: Bool, at now: Date) {}
  mutating func requestLost(by device: String, _ request: ServerRequest) {}
  mutating func serverAnswered(_ device: String, _ answer: Result<ServerReply, CloudKitError>) {}
  mutating func answerLost(to device: String, saving: [RecordID], _ answer: Result<ServerReply, CloudKitError>) {}
  mutating func answerDelivered(
    to index: Int, _ device: String, requestID: Int, _ answer: Result<ServerReply, CloudKitError>, saving: [RecordID],
    awaited: Bool, at now: Date
  ) {}
  mutating func crashed(_ index: Int, _ device: String, lostAnswer: (saved: [RecordID], deleted: [RecordID])?) {}
  mutating func tokenMoved(on device: String, from before: ZoneChangeToken?, to after: ZoneChangeToken?) {}
  mutating func halted(_ device: String) {}
  mutating func serverChanged(_ event: ServerEvent) {}
  mutating func zoneDeleted(
    position: Int, reason: SyncEngine.ZoneDeletion.Reason, shown: [(device: String, records: [Record])], at now: Date
  ) {}
  mutating func storageDamaged(on device: String, recordID: RecordID, at now: Date) {}
  mutating func databaseFeedCompacted(for device: String?, at now: Date) {}
  mutating func accountChanged(
    on device: String, to account: String?, response: AccountChangePolicy, at now: Date
  ) {}
  mutating func userWrote(_ values: [FieldValue?], under account: String?) {}
}
