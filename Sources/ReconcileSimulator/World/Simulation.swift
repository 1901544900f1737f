public import Foundation
public import Reconcile

/// A deterministic simulated world: one ``SimulatedServer``, several devices of one user, each running a ``ClientUnderTest``,, and a network
/// between them that can lose, duplicate and delay messages — all on virtual time.
///
/// A seeded run generates its steps as it goes (``init(seed:configuration:)``); a replay runs given steps
/// (``init(setup:steps:invariants:)``). Either way the same input gives a byte-identical ``SimulationResult/trace``.
///
/// ```swift
/// var simulation = Simulation(seed: 42, configuration: SimulationConfiguration(resolver: .fieldMerge, faults: .flaky))
/// let result = simulation.run()
/// if !result.passed { print(result.script) }   // a replayable counterexample
/// ```
///
/// After the steps, ``run()`` drives the world to quiescence — faults off, every device online and restarted, syncing
/// until nothing changes — and checks the invariants (``Invariant``).
public struct Simulation: Sendable {
  /// Virtual time that passes after each step.
  public static let stepInterval: TimeInterval = 1
  /// One-way network latency.
  public static let latency: TimeInterval = 0.25
  /// How much later than the original a duplicated request arrives.
  public static let duplicateLag: TimeInterval = 2
  /// The user every device of a run signs in as.
  public static let user = "_user"
  /// The other iCloud account seeded runs switch devices to (``FaultProfile/accountChanges``).
  package static let otherUser = "_other"
  /// The zone every device of a run syncs.
  public static let zoneID: ZoneID = (try? ZoneID(zoneName: "Notes")) ?? .default
  /// The record type of a seeded run's records.
  package static let recordType = "Note"

  /// The world.
  public let setup: SimulationSetup
  /// The seed of a seeded run.
  public let seed: UInt64?
  /// The invariants checked.
  public let invariants: Set<Invariant>
  /// The server.
  public package(set) var server: SimulatedServer
  /// The devices: their sync clients (the reference client unless the setup names another ``ClientUnderTest``), their
  /// names, the hosts around them and what their traffic cost.
  var devices: Devices
  /// The devices' sync clients, in setup order.
  package var clients: [any SyncClient] { devices.clients }
  /// The devices' names, in the same order as ``clients``.
  package var clientNames: [String] { devices.names }
  /// The steps performed so far.
  public internal(set) var steps: [SimulationStep] = []
  /// The trace so far, one line per step and per server change.
  public var trace: [String] { traceEntries.map { $0.line(steps: steps) } }
  var traceEntries: [TraceEntry] = []
  /// Counts so far.
  public internal(set) var statistics = SimulationStatistics()

  /// The network between the devices and the server, with the faults it causes.
  var network = Network()
  /// The app versions a script's `schema` lines declared, each with its schema: what `upgrade NAME VERSION` installs.
  package var declaredApps: [SchemaVersion: Schema] = [:]
  /// The oracles: the world tells them what happens (``WorldListener``) and asks for the verdict.
  var auditor: Auditor
  /// How many of the server's events the auditor has heard.
  var serverEventsReported = 0
  /// Where the steps come from: a seeded run's scheduler, or a replay's given steps.
  var source: StepSource
  let start: Date

  /// A seeded random run.
  /// - Parameters:
  ///   - seed: The seed; the same seed and configuration replay the same run.
  ///   - configuration: Devices, steps, resolver, faults and invariants.
  public init(seed: UInt64, configuration: SimulationConfiguration) {
    var random = SimulationRandom(seed: seed)
    let setup = Scheduler.setup(for: configuration, random: &random)
    self.init(setup: setup, steps: [], invariants: configuration.invariants, seed: seed)
    source = .seeded(Scheduler(seed: random.next(), configuration: configuration), count: configuration.steps)
  }

  /// A replay of given steps.
  /// - Parameters:
  ///   - setup: The world.
  ///   - steps: The steps to perform.
  ///   - invariants: The invariants to check; the ones the resolver promises unless given.
  public init(setup: SimulationSetup, steps: [SimulationStep], invariants: Set<Invariant>? = nil) {
    self.init(
      setup: setup, steps: steps,
      invariants: invariants ?? Self.invariants(for: setup.resolver, deletePolicy: setup.deletePolicy), seed: nil)
  }

  private init(setup: SimulationSetup, steps: [SimulationStep], invariants: Set<Invariant>, seed: UInt64?) {
    self.setup = setup
    self.seed = seed
    self.invariants = invariants
    server = SimulatedServer(configuration: .init(limits: setup.limits, recordsEvents: true))
    start = server.now
    auditor = Auditor(
      rules: Auditor.Rules(
        invariants: invariants, deletePolicy: setup.deletePolicy, zoneDeletion: setup.zoneDeletion,
        editCountKey: setup.resolver.bookkeeping.editCountKey, stampsKey: setup.resolver.bookkeeping.fieldStampsKey,
        contracts: setup.resolver.keyContracts, appsKnowEveryKey: setup.schemas == .none, zoneID: Self.zoneID,
        owner: Self.user, start: start))
    source = .planned(steps)
    devices = Devices(
      setup.devices.compactMap { device in
        (try? setup.client.make(Self.clientSetup(device, setup: setup))).map { (device.name, $0) }
      },
      // Every device of a world starts signed in to the one user's account (`clientSetup`).
      account: Self.user, upgraded: Set(setup.devices.filter(\.upgraded).map(\.name)))
    for device in setup.devices {
      announceApp(on: device.name)
      if device.upgraded { devices.handle(.upgraded(AppSchemas.upgraded(setup.schemas)), on: device.name) }
    }
  }

  /// The invariants a run checks by default: convergence, liveness, server invariants, halted devices, retry-afters,
  /// unknown keys,
  /// damaged storage, no resurrection, no lost records, and the resolver's lost-write contract.
  /// - Parameters:
  ///   - resolver: The resolver.
  ///   - deletePolicy: The delete policy.
  /// - Returns: The invariants.
  public static func invariants(for resolver: ResolverUnderTest, deletePolicy: DeletePolicy) -> Set<Invariant> {
    var set: Set<Invariant> = [
      .convergence, .liveness, .serverInvariants, .haltedDeviceSendsNothing, .retryAfterHonoured, .unknownKeysKept,
      .accountsKeptApart,
      .damagedDataNeverUploaded, .noResurrection, .noLostRecords,
    ]
    if let contract = resolver.lostWriteContract { set.insert(contract) }
    return set
  }

  static func clientSetup(_ device: DeviceSetup, setup: SimulationSetup) -> ClientSetup {
    var client = ClientSetup(
      name: device.name, userRecordName: user, zoneID: zoneID, resolver: setup.resolver.resolver,
      bookkeeping: setup.resolver.bookkeeping, deletePolicy: setup.deletePolicy, schema: AppSchemas.base(setup.schemas),
      clockOffset: device.clockOffset, zoneDeletion: setup.zoneDeletion, defects: setup.defects)
    client.accountChange = setup.accountChange
    return client
  }

  // MARK: Looking

  /// The current virtual time.
  public var now: Date { server.now }

  /// The client of the device with this name.
  /// - Parameter name: A device name.
  package func client(named name: String) -> (any SyncClient)? { devices.index(of: name).map { clients[$0] } }

  /// The index of the client named `name`.
  func index(of name: String) -> Int? { devices.index(of: name) }

  /// Whether the device called `name` has a network (its host's say).
  /// - Parameter name: A device name.
  package func isOnline(_ name: String) -> Bool { devices.hosts.isOnline(name) }

  /// Tells the auditor which keys the app on `device` knows: at setup and after an upgrade.
  mutating func announceApp(on device: String) {
    let keys = AppSchemas.knownKeys(upgraded: devices.hosts.isUpgraded(device), scenario: setup.schemas)
    auditor.appInstalled(on: device, knownKeys: keys)
  }

  // MARK: Running

  /// Performs every step, drives the world to quiescence, and checks the invariants.
  /// - Returns: The steps, trace, violations and statistics.
  public mutating func run() -> SimulationResult { run(quiescing: true) }

  /// Performs every step and, when `quiescing`, drives the world to quiescence and checks the invariants; otherwise
  /// stops after the last step and reports only what broke while running.
  /// - Parameter quiescing: Whether to drive the world to quiescence after the steps.
  /// - Returns: The steps, trace, violations and statistics.
  public mutating func run(quiescing: Bool) -> SimulationResult {
    var index = 0
    while index < source.count {
      let step: SimulationStep
      if var scheduler = source.scheduler.take() {
        // Moved out while it draws (not copied), so its arrays are not shared with `self` and grow in place.
        step = scheduler.next(index: index, world: self)
        source.scheduler = consume scheduler
      } else {
        step = source.planned[index]
      }
      perform(step)
      index += 1
    }
    guard quiescing else { return result(quiescent: nil) }
    let quiet = quiesce()
    return result(quiescent: quiet)
  }

  /// The run so far, judged: the steps performed, the trace, and the invariants.
  /// - Parameter quiescent: What ``quiesce(maximumRounds:requestBudget:)`` returned, or `nil` when the world was not driven to
  ///   quiescence (then only the invariants checked while running apply).
  /// - Returns: The steps, trace, violations and statistics.
  public func result(quiescent: Bool?) -> SimulationResult {
    var statistics = self.statistics
    statistics.virtualSeconds = now.timeIntervalSince(start)
    statistics.tokenChecks = auditor.tokenChecks
    statistics.retryAftersHanded = auditor.retryAftersHanded
    let verdict = judge(quiescent: quiescent)
    return SimulationResult(
      seed: seed, setup: setup, steps: steps, invariants: invariants, traceEntries: traceEntries,
      violations: verdict.violations, outcomes: verdict.outcomes, recordsJudged: verdict.recordsJudged,
      setAside: verdict.setAside, statistics: statistics)
  }
}

/// Where a run's steps come from: a seeded run's scheduler draws them as the run goes; a replay has them given.
struct StepSource: Sendable {
  /// A seeded run's scheduler; `nil` for a replay.
  var scheduler: Scheduler?
  /// A replay's steps; empty for a seeded run.
  let planned: [SimulationStep]
  /// How many steps the run performs.
  let count: Int

  /// The steps a seeded run's `scheduler` draws, `count` of them.
  static func seeded(_ scheduler: Scheduler, count: Int) -> StepSource {
    StepSource(scheduler: scheduler, planned: [], count: count)
  }

  /// A replay of `steps`.
  static func planned(_ steps: [SimulationStep]) -> StepSource {
    StepSource(scheduler: nil, planned: steps, count: steps.count)
  }
}
