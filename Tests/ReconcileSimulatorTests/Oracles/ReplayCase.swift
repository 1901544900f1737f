import Foundation
import ReconcileSimulator
import Testing

/// A shrunk counterexample that must now replay with every invariant held, named by the behaviour it pins.
struct ReplayCase: Sendable, CustomTestStringConvertible {
  var behaviour: String
  var script: String
  /// Clients the script may name beyond the built-in ones.
  var clients: [ClientUnderTest] = []
  var testDescription: String { behaviour }

  /// Replays the script and records every broken invariant.
  func expectHeld(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let result = try Simulation.replay(script, clients: clients)
    #expect(result.passed, "\(behaviour): \(result.violations)", sourceLocation: sourceLocation)
  }
}
