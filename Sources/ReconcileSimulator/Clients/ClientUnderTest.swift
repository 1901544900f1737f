/// A sync client plugged into the simulation: a name for replay scripts (`client NAME`) and a way to build one client
/// per device.
///
/// ```swift
/// let mine = ClientUnderTest(name: "my-engine") { setup in MyEngine(device: setup.name, zone: setup.zoneID) }
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
  public var make: @Sendable (ClientSetup) throws -> any SyncClient

  /// Describes a client under test.
  /// - Parameters:
  ///   - name: Its script name.
  ///   - make: Builds the client of one device; a thrown error leaves the device out of the run.
  public init(name: String, make: @escaping @Sendable (ClientSetup) throws -> any SyncClient) {
    self.name = name
    self.make = make
  }

  /// Reconcile's reference client, ``SimulatedDevice``.
  public static let reference = ClientUnderTest(name: "reference") { setup in
    try SimulatedDevice(configuration: SimulatedDevice.Configuration(setup))
  }

  /// The built-in clients.
  public static var builtIns: [ClientUnderTest] { [.reference, .syncEngine] }

  /// Equal when the names are.
  public static func == (lhs: ClientUnderTest, rhs: ClientUnderTest) -> Bool { lhs.name == rhs.name }

  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// The name.
  public var description: String { name }
}
