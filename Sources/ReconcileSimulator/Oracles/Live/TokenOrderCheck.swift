/// Part of ``Invariant/serverInvariants``, judged as tokens move: within one zone incarnation a device's token never
/// moves back across an answer or a crash; a token the device drops (`nil`, after an expiry, a zone deletion or damaged
/// storage) starts afresh.
struct TokenOrderCheck: WorldListener, Sendable {
  /// Token moves compared: what the check judged.
  private(set) var checks = 0
  private(set) var violations: [InvariantViolation] = []

  mutating func tokenMoved(on device: String, from before: ZoneChangeToken?, to after: ZoneChangeToken?) {
    guard let before, let after, before.zoneID == after.zoneID, before.incarnation == after.incarnation else { return }
    checks += 1
    guard after.sequence < before.sequence else { return }
    violations.append(
      InvariantViolation(.serverInvariants, "\(device)'s zone token went backwards: \(before) → \(after)"))
  }
}
