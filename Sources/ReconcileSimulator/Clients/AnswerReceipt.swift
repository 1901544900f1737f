package import Reconcile

/// What a client made of an answer it was handed (``SyncClient/receive(_:for:at:crashingAfterWrites:)``).
package struct AnswerReceipt: Sendable, Hashable {
  /// Whether the client still waited for this answer when it came. `false` for an answer to a request it gave up on
  /// (timed out, gone offline, sent before a crash) or heard already (a duplicate), which it ignores. The oracles use it
  /// to know which saves a client never heard back about.
  package var wasAwaited: Bool
  /// Whether a torn crash struck between two persistence writes; `false` when none was armed, or the answer needed
  /// fewer writes (it was handled whole).
  package var tornCrash: Bool
  /// The sync decisions the client made since its last receipt — what a fetch brought, how a conflict merged key by
  /// key and what it gave away, what a deletion did, what went with a zone — for the trace (`show log`, `replay`,
  /// `--json`). Empty for a client that does not report them.
  package var decisions: [SyncDecision]

  /// A receipt.
  /// - Parameters:
  ///   - wasAwaited: Whether the client waited for the answer.
  ///   - tornCrash: Whether a torn crash struck.
  ///   - decisions: The decisions made since the last receipt.
  package init(wasAwaited: Bool, tornCrash: Bool = false, decisions: [SyncDecision] = []) {
    self.wasAwaited = wasAwaited
    self.tornCrash = tornCrash
    self.decisions = decisions
  }
}
