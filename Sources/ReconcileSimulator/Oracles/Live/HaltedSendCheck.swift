/// ``Invariant/haltedDeviceSendsNothing``, judged as requests leave: a halted device sends nothing until it restarts.
struct HaltedSendCheck: Sendable {
  /// Halts seen: what the invariant judged.
  private(set) var halts = 0
  private(set) var violations: [InvariantViolation] = []

  mutating func deviceHalted() { halts += 1 }

  mutating func requestSent(by device: String, _ request: ServerRequest, halted: Bool) {
    guard halted else { return }
    violations.append(InvariantViolation(.haltedDeviceSendsNothing, "halted \(device) sent \(request)"))
  }
}
