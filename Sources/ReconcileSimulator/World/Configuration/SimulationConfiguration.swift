public import Reconcile

/// Which app versions the devices of a run have, and which one an `upgrade` step installs.
public enum SchemaScenario: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Devices have no schema: nothing is checked.
  case none
  /// Devices start on app 1.0; `upgrade` installs 1.1, which adds the `color` field. Older devices accept newer-minor
  /// records and keep the keys they do not know.
  case minorUpgrade = "minor"
  /// Devices start on app 1.0; `upgrade` installs 2.0, which adds `color`. Older devices halt on 2.0 records until
  /// they upgrade too.
  case majorUpgrade = "major"

  /// The scenario's script name.
  public var description: String { rawValue }
}

/// Everything a run needs besides its steps: the world a replay script's header describes.
public struct SimulationSetup: Sendable, Hashable {
  /// The resolver every device uses.
  public var resolver: ResolverUnderTest
  /// The delete policy every device uses.
  public var deletePolicy: DeletePolicy
  /// The app versions in play.
  public var schemas: SchemaScenario
  /// The devices.
  public var devices: [DeviceSetup]
  /// What devices do when their zone is deleted by another client.
  public var zoneDeletion: ZoneLossPolicy
  /// What devices do with their local data when their iCloud account changes; `.deleteLocalData` unless set.
  public var accountChange: AccountChangePolicy = .deleteLocalData
  /// Deliberate mistakes every device makes (for showing that an invariant catches them); none unless given.
  public var defects: Set<ClientDefect>
  /// The server's request limits (lowered at random by swarm testing).
  public var limits: SimulatedServer.Limits
  /// Whether devices send their queue right after each user action, without fetching first (see
  /// ``Workload/sendsAfterEdits``).
  public var sendsAfterEdits: Bool
  /// The sync client every device runs; ``ClientUnderTest/reference`` unless given.
  public var client: ClientUnderTest

  /// Creates a setup.
  /// - Parameters:
  ///   - resolver: The resolver.
  ///   - deletePolicy: The delete policy.
  ///   - schemas: The schema scenario.
  ///   - devices: The devices.
  ///   - zoneDeletion: `.dropLocalData` unless given.
  ///   - defects: None unless given.
  ///   - limits: CloudKit's unless given.
  ///   - sendsAfterEdits: `false` unless given.
  ///   - client: ``ClientUnderTest/reference`` unless given.
  public init(
    resolver: ResolverUnderTest, deletePolicy: DeletePolicy, schemas: SchemaScenario, devices: [DeviceSetup],
    zoneDeletion: ZoneLossPolicy = .dropLocalData, defects: Set<ClientDefect> = [],
    limits: SimulatedServer.Limits = .cloudKit, sendsAfterEdits: Bool = false, client: ClientUnderTest = .reference
  ) {
    self.client = client
    self.limits = limits
    self.sendsAfterEdits = sendsAfterEdits
    self.resolver = resolver
    self.deletePolicy = deletePolicy
    self.schemas = schemas
    self.devices = devices
    self.zoneDeletion = zoneDeletion
    self.defects = defects
  }
}

/// What a seeded random run looks like.
public struct SimulationConfiguration: Sendable, Hashable {
  /// How many devices, 1 to 26.
  public var deviceCount: Int
  /// How many steps the scheduler generates.
  public var steps: Int
  /// The resolver every device uses.
  public var resolver: ResolverUnderTest
  /// The delete policy every device uses.
  public var deletePolicy: DeletePolicy
  /// How often faults happen.
  public var faults: FaultProfile
  /// The app versions in play.
  public var schemas: SchemaScenario
  /// The invariants checked; the ones the resolver promises unless given.
  public var invariants: Set<Invariant>
  /// What devices do when their zone is deleted by another client; `.dropLocalData` unless set.
  public var zoneDeletion: ZoneLossPolicy = .dropLocalData
  /// What devices do with their local data when their iCloud account changes; `.deleteLocalData` unless set.
  public var accountChange: AccountChangePolicy = .deleteLocalData
  /// Deliberate mistakes every device makes; none unless set.
  public var defects: Set<ClientDefect> = []
  /// What users do; ``Workload/colliding`` unless set.
  public var workload: Workload = .colliding
  /// The sync client every device runs; ``ClientUnderTest/reference`` unless set.
  public var client: ClientUnderTest = .reference
  /// The largest clock skew, in seconds, a device other than the first starts with; 120 unless set. 0 keeps every
  /// clock true: device faults then crash a device where they would have moved its clock.
  public var maximumClockSkew = 120
  /// Records the zone holds before the run that the workload never touches (names sorting before the workload's),
  /// brought to every device by ``Simulation/populate()``: the benchmark's measure of whether a step costs more in a
  /// bigger zone. 0 unless set; a run that populates nothing draws exactly what it drew before.
  package var populatedRecords = 0

  /// Creates a configuration.
  /// - Parameters:
  ///   - deviceCount: 3 unless given.
  ///   - steps: 200 unless given.
  ///   - resolver: Your resolver; see ``ResolverUnderTest``.
  ///   - deletePolicy: `.deleteWins` unless given.
  ///   - faults: `.none` unless given.
  ///   - schemas: `.none` unless given.
  ///   - invariants: The invariants to check; ``Simulation/invariants(for:deletePolicy:)`` unless given.
  public init(
    deviceCount: Int = 3,
    steps: Int = 200,
    resolver: ResolverUnderTest,
    deletePolicy: DeletePolicy = .deleteWins,
    faults: FaultProfile = .none,
    schemas: SchemaScenario = .none,
    invariants: Set<Invariant>? = nil
  ) {
    self.deviceCount = min(26, max(1, deviceCount))
    self.steps = max(0, steps)
    self.resolver = resolver
    self.deletePolicy = deletePolicy
    self.faults = faults
    self.schemas = schemas
    self.invariants = invariants ?? Simulation.invariants(for: resolver, deletePolicy: deletePolicy)
  }

  /// Creates a configuration with a built-in resolver.
  /// - Parameters:
  ///   - deviceCount: 3 unless given.
  ///   - steps: 200 unless given.
  ///   - resolver: `field-merge` unless given.
  ///   - deletePolicy: `.deleteWins` unless given.
  ///   - faults: `.none` unless given.
  ///   - schemas: `.none` unless given.
  ///   - invariants: The invariants to check; ``Simulation/invariants(for:deletePolicy:)`` unless given.
  public init(
    deviceCount: Int = 3,
    steps: Int = 200,
    resolver: ResolverChoice = .fieldMerge,
    deletePolicy: DeletePolicy = .deleteWins,
    faults: FaultProfile = .none,
    schemas: SchemaScenario = .none,
    invariants: Set<Invariant>? = nil
  ) {
    self.init(
      deviceCount: deviceCount, steps: steps, resolver: ResolverUnderTest(resolver), deletePolicy: deletePolicy,
      faults: faults, schemas: schemas, invariants: invariants)
  }
}
