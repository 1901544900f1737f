package import Reconcile

/// A sync client plugged into the simulation: a name for replay scripts (`client NAME`) and a way to build one client
/// per device.
///
/// Your own sync code plugs in as a CKSyncEngine-shaped delegate: the simulation runs it inside a simulated
/// CKSyncEngine, as Apple's engine runs it in the app.
///
/// ```swift
/// let mine = ClientUnderTest(name: "my-engine") { setup in try MyDelegate(setup: setup) }
/// var configuration = SimulationConfiguration(resolver: .fieldMerge, faults: .flaky)
/// configuration.client = mine
/// let report = PropertyRunner(configuration: configuration, seeds: 0..<500).run()
/// // report.failures[0].script names `client my-engine`; replay it with Simulation.replay(script, clients: [mine])
/// ```
///
/// Two clients under test are equal when their names are.
public struct ClientUnderTest: Sendable, Hashable, CustomStringConvertible {
  /// The name scripts use; it must not be a built-in's name.
  public var name: String
  /// Builds the client of one device.
  package var make: @Sendable (ClientSetup) throws -> any SyncClient
  /// The one resolver this client's runs may name, when it merges by a rule of its own whatever the resolver: its
  /// runs are judged by that resolver's contract, and a run naming another is refused. `nil` (the default) for a
  /// client that merges with the run's resolver.
  public var ownRule: String?
  /// Whether the client's apps can ask the user what to do with local data on an account change
  /// (`account-change ask`); the built-in reference client and Apple's sample cannot.
  package var canAskOnAccountChange: Bool

  /// Describes a client that speaks the simulator's own request dialect (the reference client, the simulated engine).
  /// - Parameters:
  ///   - name: Its script name.
  ///   - ownRule: The one resolver name its runs may use, when it merges by a rule of its own; `nil` unless given.
  ///   - canAskOnAccountChange: Whether its apps can ask the user what to do on an account change; `true` unless
  ///     given.
  ///   - make: Builds the client of one device; a thrown error leaves the device out of the run.
  package init(
    name: String, ownRule: String? = nil, canAskOnAccountChange: Bool = true,
    make: @escaping @Sendable (ClientSetup) throws -> any SyncClient
  ) {
    self.name = name
    self.ownRule = ownRule
    self.canAskOnAccountChange = canAskOnAccountChange
    self.make = make
  }

  /// Why a run of this client with the resolver named `resolver` means nothing, or `nil` when it is fine.
  /// - Parameter resolver: A resolver's script name.
  package func refusal(ofResolver resolver: String) -> String? {
    guard let ownRule, ownRule != resolver else { return nil }
    return "client \(name) merges by its own rule, not with a resolver: --resolver \(resolver) would judge it by a "
      + "contract it never tries to keep; use --resolver \(ownRule)"
  }

  /// Why a run of this client whose apps answer an account change with `response` means nothing, or `nil` when it is
  /// fine: a client whose apps cannot ask (``canAskOnAccountChange``) cannot run `ask`.
  /// - Parameter response: What the run's apps do on an account change.
  package func refusal(ofAccountChange response: AccountChangePolicy) -> String? {
    guard response == .ask, !canAskOnAccountChange else { return nil }
    return "client \(name) never asks what to do on an account change: account-change ask needs a client whose "
      + "delegate asks, such as sync-engine (Reconcile's ZoneReplica), or yours"
  }

  /// Equal when the names are.
  public static func == (lhs: ClientUnderTest, rhs: ClientUnderTest) -> Bool { lhs.name == rhs.name }

  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// The name.
  public var description: String { name }
}
