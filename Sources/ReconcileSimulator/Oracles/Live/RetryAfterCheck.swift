import Foundation
import Reconcile

/// ``Invariant/retryAfterHonoured``, judged as requests leave: after an answer carrying a retry-after, the device sends
/// nothing until it ends (a crash forgets it).
struct RetryAfterCheck: WorldListener, Sendable {
  /// Answers carrying a retry-after that a device took: what the invariant judged.
  private(set) var handed = 0
  private(set) var violations: [InvariantViolation] = []
  /// Per device (by index), when the latest retry-after handed to it ends, and what asked for it.
  private var notBefore: [Int: (until: Date, why: String)] = [:]

  mutating func requestSent(by index: Int, _ device: String, _ request: ServerRequest, halted: Bool, at now: Date) {
    guard let wait = notBefore.removeValue(forKey: index), now < wait.until else { return }
    let early = CloudKitError.seconds(wait.until.timeIntervalSince(now))
    violations.append(
      InvariantViolation(
        .retryAfterHonoured, "\(device) sent \(request) \(early) before the retry-after of \(wait.why) ended"))
  }

  /// A device took an answer it waited for; a retry-after in it starts a wait.
  mutating func answerDelivered(
    to index: Int, _ device: String, requestID: Int, _ answer: Result<ServerReply, CloudKitError>, saving: [RecordID],
    awaited: Bool, at now: Date
  ) {
    guard awaited, let wait = Self.retryAfter(in: answer) else { return }
    handed += 1
    let until = now.addingTimeInterval(wait.seconds)
    if until > notBefore[index]?.until ?? .distantPast { notBefore[index] = (until, wait.why) }
  }

  /// A crash forgets the wait.
  mutating func crashed(_ index: Int, _ device: String, lostAnswer: (saved: [RecordID], deleted: [RecordID])?) {
    notBefore[index] = nil
  }

  /// The longest retry-after an answer carries, on the request or on one of its items, and the error that carries it.
  static func retryAfter(in answer: Result<ServerReply, CloudKitError>) -> (seconds: TimeInterval, why: String)? {
    var longest: (seconds: TimeInterval, why: String)?
    func consider(_ error: CloudKitError) {
      guard let seconds = error.retryAfter, seconds > 0, seconds > longest?.seconds ?? 0 else { return }
      longest = (seconds, "\(error.code.name) (\(CloudKitError.seconds(seconds)))")
    }
    switch answer {
    case .failure(let error) where error.code == .partialFailure: error.partialErrors.values.forEach(consider)
    case .failure(let error): consider(error)
    case .success(.modifyRecords(let reply)): reply.failures.values.forEach(consider)
    case .success: break
    }
    return longest
  }
}
