import Foundation
import Reconcile

/// What happened in a simulated world, as the world reports it to its ``Auditor``.
///
/// The world says what it did and what a device showed; it never judges. Every oracle — the live checks, the record of
/// what users did, the server observer and the end-state judge — learns the run from these events alone, so a new
/// check listens instead of threading bookkeeping through the world.
enum WorldEvent: Sendable {
  /// The app on `device` now knows these keys (`nil`: every key) — at setup, and again after an upgrade.
  case appInstalled(device: String, knownKeys: Set<String>?)
  /// A user acted on `device` (index `index`): what the device showed of the record before the action (the version
  /// the user acted on) and after it (the edit count and stamps it carries).
  case userActed(
    index: Int, device: String, recordID: RecordID, kind: UserHistory.Action.Kind, shownBefore: Record?,
    shownAfter: Record?)
  /// A request left `device` (index `index`); `halted` says whether the device had halted.
  case requestSent(index: Int, device: String, request: ServerRequest, halted: Bool)
  /// The network lost a request on its way to the server.
  case requestLost(device: String, request: ServerRequest)
  /// The server answered a request from `device` (before the answer travels back).
  case serverAnswered(device: String, answer: Result<ServerReply, ServerError>)
  /// The answer to a request that saved `saving` was lost on its way back to `device`.
  case answerLost(device: String, saving: [RecordID], answer: Result<ServerReply, ServerError>)
  /// An answer reached `device` (index `index`); `awaited` says whether the device still waited for it.
  case answerDelivered(
    index: Int, device: String, requestID: Int, answer: Result<ServerReply, ServerError>, saving: [RecordID],
    awaited: Bool)
  /// `device` (index `index`) crashed. A crash while it handled an answer it awaited carries that answer's saves and
  /// deletions (`lostAnswer`): the device cannot know which of them landed.
  case crashed(index: Int, device: String, lostAnswer: (saved: [RecordID], deleted: [RecordID])?)
  /// `device`'s persisted zone token changed (or was checked) across an answer or a crash.
  case tokenMoved(device: String, before: ZoneChangeToken?, after: ZoneChangeToken?)
  /// `device` halted.
  case halted(device: String)
  /// The server changed.
  case serverChanged(ServerEvent)
  /// The zone was deleted at server history position `position`, while the devices showed `shown` (per device).
  case zoneDeleted(position: Int, shown: [[Record]])
  /// `device`'s stored copy of `recordID` was damaged.
  case storageDamaged(device: String, recordID: RecordID)
}
