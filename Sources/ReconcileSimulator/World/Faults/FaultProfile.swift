/// How often the scheduler injects each kind of fault between device actions.
public struct FaultProfile: Sendable, Hashable, CustomStringConvertible {
  /// The preset's name, or `custom`.
  public var name: String
  /// The chance that a step is a fault rather than a device action.
  public var faultRate: Double
  /// Network faults: a lost request, a lost response (applied but unacknowledged), a duplicate, a delay.
  public var network: Bool
  /// Transient server errors with retry-after (networkFailure, zoneBusy, serviceUnavailable, requestRateLimited).
  public var transientErrors: Bool
  /// Crashes, offline spells and clock jumps on devices.
  public var deviceFaults: Bool
  /// Server faults: container-wide throttling, zone and database token expiry, full iCloud storage and zone deletion.
  /// Turning it off turns off all five; ``without(_:)`` leaves out only some.
  public var serverFaults: Bool
  /// Damage to a device's stored records (see `SimulatedDevice.corruptStoredRecord(_:)`).
  public var storageCorruption: Bool
  /// The user signs a device out of its iCloud account, back in, or switches to another account (`_other`); the app
  /// deletes the previous account's local data, as Apple asks.
  public var accountChanges: Bool = false
  /// Swarm testing: each seed draws which fault categories are on and the fault rate (up to ``faultRate``), and
  /// lowers the server's limits at random (change-feed page size, items and bytes per request), so paging,
  /// `limitExceeded`, batch halving and `batchRequestFailed` happen in ordinary runs.
  public var isSwarm: Bool = false
  /// Fault kinds left out (``without(_:)``): the scheduler never injects them, and draws the others as before.
  public var excluded: Set<FaultKind> = []

  /// The profile with some fault kinds left out.
  /// - Parameter kinds: The kinds never to inject, added to those already left out.
  /// - Returns: The same profile, whose ``description`` names what it leaves out.
  public func without(_ kinds: Set<FaultKind>) -> FaultProfile {
    var profile = self
    profile.excluded.formUnion(kinds)
    return profile
  }

  /// Creates a profile.
  /// - Parameters:
  ///   - name: Its name.
  ///   - faultRate: The share of steps that are faults, 0 to 1.
  ///   - network: Network faults on or off.
  ///   - transientErrors: Transient errors on or off.
  ///   - deviceFaults: Device faults on or off.
  ///   - serverFaults: Server faults on or off.
  ///   - storageCorruption: Damaged device storage on or off; off unless given.
  ///   - accountChanges: Account changes on or off; off unless given.
  public init(
    name: String = "custom",
    faultRate: Double,
    network: Bool,
    transientErrors: Bool,
    deviceFaults: Bool,
    serverFaults: Bool,
    storageCorruption: Bool = false,
    accountChanges: Bool = false
  ) {
    self.name = name
    self.faultRate = min(1, max(0, faultRate))
    self.network = network
    self.transientErrors = transientErrors
    self.deviceFaults = deviceFaults
    self.serverFaults = serverFaults
    self.storageCorruption = storageCorruption
    self.accountChanges = accountChanges
  }

  /// No faults: devices act and sync on a perfect network.
  public static let none = FaultProfile(
    name: "none", faultRate: 0, network: false, transientErrors: false, deviceFaults: false, serverFaults: false)
  /// About one step in seven is a network fault, a transient error, a crash, an offline spell or a clock jump.
  public static let flaky = FaultProfile(
    name: "flaky", faultRate: 0.15, network: true, transientErrors: true, deviceFaults: true, serverFaults: false)
  /// A third of the steps are faults, including throttling, token expiry, zone deletion, damaged device storage and
  /// account changes.
  public static let hostile = FaultProfile(
    name: "hostile", faultRate: 0.35, network: true, transientErrors: true, deviceFaults: true, serverFaults: true,
    storageCorruption: true, accountChanges: true)

  /// Swarm testing over every fault category, at up to four steps in ten: each seed draws its own mix and lowers
  /// server limits (see ``isSwarm``).
  public static let swarm: FaultProfile = {
    var profile = FaultProfile(
      name: "swarm", faultRate: 0.4, network: true, transientErrors: true, deviceFaults: true, serverFaults: true,
      storageCorruption: true, accountChanges: true)
    profile.isSwarm = true
    return profile
  }()

  /// The presets by name.
  package static let presets: [FaultProfile] = [.none, .flaky, .hostile, .swarm]

  /// The profile one seed runs with: itself, or under ``isSwarm`` a random subset of its categories (at least one) at a
  /// random rate up to ``faultRate``.
  func draw(_ random: inout SimulationRandom) -> FaultProfile {
    guard isSwarm else { return self }
    var drawn = self
    repeat {
      drawn.network = network && random.chance(0.5)
      drawn.transientErrors = transientErrors && random.chance(0.5)
      drawn.deviceFaults = deviceFaults && random.chance(0.5)
      drawn.serverFaults = serverFaults && random.chance(0.5)
      drawn.storageCorruption = storageCorruption && random.chance(0.3)
    } while !(drawn.network || drawn.transientErrors || drawn.deviceFaults || drawn.serverFaults
      || drawn.storageCorruption) && (network || transientErrors || deviceFaults || serverFaults || storageCorruption)
    drawn.faultRate = faultRate * Double(1 + random.below(8)) / 8
    // Drawn last, apart from the categories that must leave one on: a seed's other draws stay those of earlier releases.
    drawn.accountChanges = accountChanges && random.chance(0.3)
    return drawn
  }

  /// The preset with this name, or `nil`.
  /// - Parameter name: `none`, `flaky`, `hostile` or `swarm`.
  public static func named(_ name: String) -> FaultProfile? { presets.first { $0.name == name } }

  /// The name, and what it leaves out: `hostile without token-expiry, zone-deletion`.
  public var description: String {
    excluded.isEmpty ? name : name + " without " + excluded.map(\.rawValue).sorted().joined(separator: ", ")
  }
}
