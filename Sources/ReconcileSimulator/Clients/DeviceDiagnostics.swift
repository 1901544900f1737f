package import Foundation
package import Reconcile

/// One word for what a device is doing.
package enum DeviceStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Nothing to do.
  case idle
  /// An operation is in flight or about to be sent.
  case syncing
  /// Waiting out a retry-after, a backoff or the throttle.
  case waiting
  /// The device has no network.
  case offline
  /// Stopped until restarted; see ``HaltReason``.
  case halted

  /// The word.
  package var description: String { rawValue }
}

/// A sync client that tells more about itself than every client shows (``SyncClient``): its status word, queue,
/// throttle, retries, last error and clock, for the playground's views. The world asks for it only when a view is
/// drawn, so it is not part of the contract the simulation drives every client through.
package protocol DiagnosableClient: SyncClient {
  /// What the client tells about itself now.
  var diagnostics: DeviceDiagnostics { get }
}

/// What a sync engine should be able to tell about itself (seed 004, "Diagnostics").
package struct DeviceDiagnostics: Sendable, Hashable {
  /// One word for what the device is doing.
  package var status: DeviceStatus
  /// Records queued to send.
  package var queuedCount: Int
  /// Records the device holds.
  package var recordCount: Int
  /// Records with a server change tag (known to the server).
  package var recordsWithChangeTags: Int
  /// When the device last finished fetching changes.
  package var lastSuccessfulFetch: Date?
  /// When the server last accepted a save or delete from the device.
  package var lastSuccessfulSave: Date?
  /// The operation in flight, if any.
  package var inFlightOperation: String?
  /// The last operation that got an answer, and how it went.
  package var lastCompletedOperation: String?
  /// The current wait between operations.
  package var throttle: TimeInterval
  /// Retries of the current operation so far.
  package var retryCount: Int
  /// The error that caused the last retry or halt.
  package var lastError: String?
  /// Why the device halted, if it did.
  package var haltReason: HaltReason?
  /// How far the device's clock is from true time now, after any jumps.
  package var clockOffset: TimeInterval = 0
  /// The app version whose schema the device checks records against, if it runs a declared one.
  package var appVersion: String?
  /// What each queued change is (`save`, `delete`, …), by record.
  package var queuedKinds: [RecordID: String] = [:]
}

extension DeviceDiagnostics {
  /// What any client tells about itself: a ``DiagnosableClient``'s own diagnostics; for another client, what every
  /// client shows (its records, queue and halt) with the status word they give, and nothing it does not tell.
  /// - Parameters:
  ///   - client: The client.
  ///   - online: Whether its device has a network (its host knows; a client that tells its status knows too).
  ///   - clockOffset: Its clock's offset as the device was set up, for a client that does not tell its clock.
  package init(of client: any SyncClient, online: Bool, clockOffset: TimeInterval = 0) {
    if let own = (client as? any DiagnosableClient)?.diagnostics {
      self = own
      return
    }
    let records = client.records
    let status: DeviceStatus =
      client.isHalted ? .halted : !online ? .offline : client.isIdle ? .idle : .syncing
    self.init(
      status: status, queuedCount: client.pendingChangeCount, recordCount: records.count,
      recordsWithChangeTags: records.filter { $0.recordChangeTag != nil }.count, lastSuccessfulFetch: nil,
      lastSuccessfulSave: nil, inFlightOperation: nil, lastCompletedOperation: nil, throttle: 0, retryCount: 0,
      lastError: nil, haltReason: client.haltReason, clockOffset: clockOffset)
  }
}
