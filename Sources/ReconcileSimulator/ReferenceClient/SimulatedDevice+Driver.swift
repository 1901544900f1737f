extension SimulatedDevice {
  /// Syncs with `server` directly — no network, no faults — until the device is idle, halted or gives up, moving the
  /// server's virtual clock through every wait.
  ///
  /// ```swift
  /// var server = SimulatedServer()
  /// var phone = try SimulatedDevice(configuration: .init(name: "phone", zoneID: notes))
  /// try phone.create(note, at: server.now)
  /// let requests = phone.sync(with: &server)
  /// ```
  /// - Parameters:
  ///   - server: The server.
  ///   - maximumRequests: A bound on requests, so a livelock ends; 10,000 unless given.
  /// - Returns: How many requests were sent.
  @discardableResult
  package mutating func sync(with server: inout SimulatedServer, maximumRequests: Int = 10_000) -> Int {
    requestSync()
    var sent = 0
    while sent < maximumRequests {
      if let outgoing = nextRequest(at: server.now) {
        sent += 1
        let answer = server.handle(outgoing.request, from: identity)
        receive(answer, for: outgoing.id, at: server.now)
        continue
      }
      guard let wake = nextWakeTime, status != .idle else { break }
      server.advanceClock(to: wake)
      checkTimeout(at: server.now)
    }
    return sent
  }
}
