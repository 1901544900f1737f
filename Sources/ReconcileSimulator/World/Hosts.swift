import Reconcile

/// What surrounds each device's sync client and outlives its process — the device and its OS — and the faults that
/// strike there: the iCloud account the device is signed in to, whether it has a network, whether the app runs (and
/// which account it knew when it quit), whether it runs the newer app, and a torn crash armed for its next answer.
///
/// The world asks the hosts before it drives a client (an app that is not running sends and hears nothing) and tells
/// them what the user and the faults do to a device; a client learns of an account change only through the world.
struct Hosts: Sendable {
  /// The iCloud account each device is signed in to, by device name; a device absent is signed out. Requests reach the
  /// private database of the account signed in when they were sent.
  private(set) var accounts: [String: String] = [:]
  /// Devices whose app is not running (``SimulationStep/quit(device:)``), each with the account it was signed in to
  /// when it quit: at launch it learns of any change since as one.
  private(set) var notRunning: [String: String?] = [:]
  /// Every account a device signed in to during the run: whose databases the end state reads.
  private(set) var accountsUsed: Set<String> = []
  /// Devices without a network: taken offline by the user or a fault, until they come back online.
  private var offline: Set<String> = []
  /// Devices running the simulation's newer app.
  private(set) var upgraded: Set<String> = []
  /// Devices armed to crash between two persistence writes of their next answer, with how many writes come first.
  private var tornCrashes: [String: Int] = [:]

  /// Hosts for devices signed in as `accounts` says (by device name), the ones named in `upgraded` on the newer app.
  init(accounts: [String: String], upgraded: Set<String>) {
    self.accounts = accounts
    self.upgraded = upgraded
  }

  /// Whether the app on `device` is running.
  func isRunning(_ device: String) -> Bool { notRunning.isEmpty || !notRunning.keys.contains(device) }

  /// Whether `device` has a network.
  func isOnline(_ device: String) -> Bool { offline.isEmpty || !offline.contains(device) }

  /// `device` loses its network, or has it back.
  mutating func setOnline(_ device: String, _ online: Bool) {
    if online { offline.remove(device) } else { offline.insert(device) }
  }

  /// Whether `device` runs the simulation's newer app.
  func isUpgraded(_ device: String) -> Bool { upgraded.contains(device) }

  /// The app on `device` quits: it remembers the account it knew.
  mutating func quit(_ device: String) { notRunning[device] = .some(accounts[device]) }

  /// The app on `device` launches; returns the account it knew when it quit (`nil` inside when signed out), or `nil`
  /// when it was running.
  mutating func launch(_ device: String) -> String?? { notRunning.removeValue(forKey: device) }

  /// The user signs `device` in to `user`, or out (`nil`); returns the change, or `nil` when nothing changed.
  mutating func signIn(_ device: String, to user: String?) -> SyncEngine.AccountChange? {
    guard let change = SyncEngine.AccountChange(from: accounts[device], to: user) else { return nil }
    accounts[device] = user
    if let user { accountsUsed.insert(user) }
    return change
  }

  /// `device` now runs the newer app; returns whether it did not before.
  @discardableResult
  mutating func upgrade(_ device: String) -> Bool { upgraded.insert(device).inserted }

  /// Arms a crash of `device` between two persistence writes of its next answer, after `writes` of them.
  mutating func armTornCrash(on device: String, afterWrites writes: Int) { tornCrashes[device] = max(1, writes) }

  /// After how many writes `device`'s armed torn crash strikes, if one is armed.
  func tornCrash(on device: String) -> Int? { tornCrashes.isEmpty ? nil : tornCrashes[device] }

  /// `device`'s torn crash struck.
  mutating func tornCrashStruck(on device: String) { tornCrashes[device] = nil }

  /// Ends every fault armed on the hosts.
  mutating func clearFaults() { tornCrashes.removeAll() }
}
