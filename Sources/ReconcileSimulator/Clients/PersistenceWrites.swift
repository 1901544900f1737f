/// Counts a client's persistence writes while it handles one answer, so a torn crash can land between two of them (see
/// the persistence contract of ``SyncClient``).
///
/// ```swift
/// mutating func receive(_ answer: Result<ServerReply, CloudKitError>, for id: Int, at now: Date,
///                       crashingAfterWrites writes: Int?) -> Bool {
///   self.writes.arm(crashingAfter: writes)
///   handle(answer)                        // calls `if self.writes.wrote() { return }` after each write
///   let torn = self.writes.disarm()
///   if torn { crash() }
///   return torn
/// }
/// ```
package struct PersistenceWrites: Sendable, Hashable {
  /// Writes left before the crash, while one is armed.
  package private(set) var remaining: Int?
  /// Whether the armed crash was reached.
  package private(set) var reached = false

  /// Nothing armed.
  package init() {}

  /// Arms a crash after `writes` writes (at least 1), or nothing for `nil`.
  /// - Parameter writes: Writes that complete before the crash.
  package mutating func arm(crashingAfter writes: Int?) {
    remaining = writes.map { max(1, $0) }
    reached = false
  }

  /// Whether a crash is armed and not yet reached.
  package var isArmed: Bool { remaining != nil }

  /// Counts one completed write.
  /// - Returns: `true` when the crash strikes now: the handler must stop at once.
  package mutating func wrote() -> Bool {
    guard let left = remaining else { return false }
    if left <= 1 {
      remaining = nil
      reached = true
      return true
    }
    remaining = left - 1
    return false
  }

  /// Ends the answer's handling.
  /// - Returns: Whether the crash was reached (the caller then crashes).
  package mutating func disarm() -> Bool {
    let torn = reached
    remaining = nil
    reached = false
    return torn
  }
}
