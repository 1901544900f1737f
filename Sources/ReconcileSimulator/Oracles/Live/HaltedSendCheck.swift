import Foundation

/// ``Invariant/haltedDeviceSendsNothing``, judged as requests leave: a halted device sends nothing until it restarts.
struct HaltedSendCheck: WorldListener, Sendable {
  /// Halts seen: what the invariant judged.
  private(set) var halts = 0
  private(set) var violations: [InvariantViolation] = []

  mutating func halted(_ device: String) { halts += 1 }

  mutating func requestSent(by index: Int, _ device: String, _ request: ServerRequest, halted: Bool, at now: Date) {
    guard halted else { return }
    violations.append(InvariantViolation(.haltedDeviceSendsNothing, "halted \(device) sent \(request)"))
  }
}
