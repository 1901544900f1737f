public import Foundation

/// One word for what a device is doing.
public enum DeviceStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
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
  public var description: String { rawValue }
}

/// What a sync engine should be able to tell about itself (seed 004, "Diagnostics").
public struct DeviceDiagnostics: Sendable, Hashable {
  /// One word for what the device is doing.
  public var status: DeviceStatus
  /// Records queued to send.
  public var queuedCount: Int
  /// Records the device holds.
  public var recordCount: Int
  /// Records with a server change tag (known to the server).
  public var recordsWithChangeTags: Int
  /// When the device last finished fetching changes.
  public var lastSuccessfulFetch: Date?
  /// When the server last accepted a save or delete from the device.
  public var lastSuccessfulSave: Date?
  /// The operation in flight, if any.
  public var inFlightOperation: String?
  /// The last operation that got an answer, and how it went.
  public var lastCompletedOperation: String?
  /// The current wait between operations.
  public var throttle: TimeInterval
  /// Retries of the current operation so far.
  public var retryCount: Int
  /// The error that caused the last retry or halt.
  public var lastError: String?
  /// Why the device halted, if it did.
  public var haltReason: HaltReason?
}
