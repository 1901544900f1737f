package import Foundation
package import Reconcile

/// What happens to a client from outside its sync code: the device, its OS and its user around the app. The world
/// hands each to the client it concerns; the client answers what its app does.
package enum HostEvent: Sendable {
  /// The device loses its network.
  case wentOffline
  /// The device gets its network back.
  case cameOnline
  /// The user asks for a sync (pull to refresh): fetch, then send.
  case syncRequested
  /// The app asks to send what is pending now (devices that send after every edit).
  case sendRequested
  /// The process ends and the app relaunches from what it persisted.
  case crashed
  /// The user clears a halt: the client syncs again.
  case restarted
  /// The user resets sync: tokens and sync state dropped, everything fetched again, unsent changes kept.
  case syncReset
  /// The device's iCloud account changed.
  case accountChanged(SyncEngine.AccountChange)
  /// The user answers the question an account change asked: keep the records for the account signed in now, or not.
  case accountQuestionAnswered(keepingData: Bool)
  /// The device's clock jumps by the interval (back, when negative).
  case clockJumped(TimeInterval)
  /// The app is updated to a version that checks records against the schema (`nil`: no checks).
  case upgraded(Schema?)
  /// The stored copy of the record is damaged on disk.
  case storageDamaged(RecordID)
  /// The host's timer fired at the time the client asked for (``SyncClient/nextWakeTime``): it times out requests and
  /// ends waits.
  case timerFired(Date)
}
