package import Foundation
package import Reconcile

/// What one device's traffic cost, as the world saw it: the requests it sent, the errors in the answers it took (items
/// of a save included), the time it waited after an error before sending again, and the answers lost on their way to
/// it. The script language's `show diagnostics` and `expect NAME requests|errors|waited …` read these.
package struct DeviceCounts: Sendable, Hashable {
  /// Requests the device sent.
  package var requests = 0
  /// Errors in the answers it took, by name (`serviceUnavailable`, `limitExceeded`, …), per-item errors included.
  package var errors: [String: Int] = [:]
  /// Virtual seconds between an answer carrying an error and the device's next request: the retry-afters, backoffs
  /// and throttles it honoured. A device that sends nothing after an error adds nothing.
  package var waited: TimeInterval = 0
  /// Answers the network lost on their way to the device.
  package var lostAnswers = 0
  /// When the latest answer carrying an error reached the device, until it sends again.
  var erroredAt: Date?

  /// No traffic yet.
  package init() {}

  /// A request left the device at `now`.
  mutating func sent(at now: Date) {
    requests += 1
    if let erroredAt {
      waited += max(0, now.timeIntervalSince(erroredAt))
      self.erroredAt = nil
    }
  }

  /// The device took `answer` at `now`: its errors are counted, and an error starts the wait ``sent(at:)`` ends.
  mutating func took(_ answer: Result<ServerReply, CloudKitError>, at now: Date) {
    if countErrors(in: answer) { erroredAt = now }
  }

  /// Counts the errors in `answer` by name: a request's error, each failed item of a save (or of a partial failure).
  /// - Returns: Whether there was any.
  @discardableResult
  package mutating func countErrors(in answer: Result<ServerReply, CloudKitError>) -> Bool {
    switch answer {
    case .failure(let error) where error.code == .partialFailure:
      for item in error.partialErrors.values { errors[item.code.name, default: 0] += 1 }
      return true
    case .failure(let error):
      errors[error.code.name, default: 0] += 1
      return true
    case .success(.modifyRecords(let reply)) where !reply.failures.isEmpty:
      for error in reply.failures.values { errors[error.code.name, default: 0] += 1 }
      return true
    case .success:
      return false
    }
  }
}
