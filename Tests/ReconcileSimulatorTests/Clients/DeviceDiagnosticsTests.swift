import Foundation
import ReconcileSimulator
import Testing

/// What a device tells about itself in the playground's views: the reference client its own diagnostics, any other
/// client what every client shows, with a status word from its halt, its host's network and its idleness.
@Suite("Diagnostics: every client gets a status word, from its own diagnostics or from what every client shows")
struct DeviceDiagnosticsTests {
  @Test(
    "offline, then syncing with a change queued, then idle once it is sent: for the built-in and the engine client",
    arguments: ["reference", "sync-engine"])
  func statusFollowsTheDevice(_ client: String) throws {
    var session = SimulationSession()
    for line in ["client \(client)", "device add phone", "phone offline", "phone create Note/n1 title=\"milk\""] {
      _ = try session.interpret(line)
    }
    #expect(try Self.diagnostics(session).status == .offline)
    _ = try session.interpret("phone online")
    let queued = try Self.diagnostics(session)
    #expect(queued.status == .syncing)
    #expect(queued.queuedCount >= 1)
    for line in ["phone sync", "advance 10s"] { _ = try session.interpret(line) }
    let settled = try Self.diagnostics(session)
    #expect(settled.status == .idle)
    #expect(settled.queuedCount == 0)
    #expect(settled.recordCount == 1 && settled.recordsWithChangeTags == 1)
  }

  /// What the session's phone tells now.
  static func diagnostics(_ session: SimulationSession) throws -> DeviceDiagnostics {
    let world = try #require(session.current)
    let phone = try #require(world.client(named: "phone"))
    return DeviceDiagnostics(of: phone, online: world.isOnline("phone"))
  }
}
