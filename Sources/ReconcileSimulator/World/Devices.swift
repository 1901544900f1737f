import Foundation
import Reconcile

/// The devices of a world, in setup order: each one's sync client, its name, the host around it (``Hosts``) and what
/// its traffic cost.
///
/// The world asks here whether a device runs, has a network, is signed in or is idle. A device's network changes only
/// through ``setNetwork(of:online:)``, which tells the host and the client together, so the two never drift apart.
struct Devices: Sendable {
  /// The sync clients, made once, at setup.
  var clients: [any SyncClient]
  /// The devices' names, in the same order: steps name devices, the server records the name on every save, and the
  /// world, not the client, keeps it.
  let names: [String]
  /// What surrounds each client and outlives its process: account, network, whether the app runs, app version.
  var hosts: Hosts
  /// What each device's traffic cost.
  var counts: [DeviceCounts]

  /// The devices `made` (name and client), every one signed in to `account`, those named in `upgraded` on the newer
  /// app.
  init(_ made: [(name: String, client: any SyncClient)], account: String, upgraded: Set<String>) {
    clients = made.map(\.client)
    names = made.map(\.name)
    hosts = Hosts(
      accounts: Dictionary(names.map { ($0, account) }, uniquingKeysWith: { first, _ in first }), upgraded: upgraded)
    counts = Array(repeating: DeviceCounts(), count: made.count)
  }

  /// The devices' positions.
  var indices: Range<Int> { clients.indices }

  /// The position of the device named `name`.
  func index(of name: String) -> Int? { names.firstIndex(of: name) }

  /// Whether the app on the device at `index` is running (not quit).
  func isRunning(_ index: Int) -> Bool { hosts.isRunning(names[index]) }

  /// Whether the device at `index` has a network.
  func isOnline(_ index: Int) -> Bool { hosts.isOnline(names[index]) }

  /// Whether the device at `index` is signed in to an iCloud account.
  func isSignedIn(_ index: Int) -> Bool { hosts.accounts[names[index]] != nil }

  /// Whether every device is idle, halted, or signed out (waiting, with what it holds, for its user to sign in).
  var allIdle: Bool {
    indices.allSatisfy { clients[$0].isIdle || clients[$0].isHalted || !isSignedIn($0) }
  }

  /// The device at `index` loses its network or has it back: its host notes it, which the scheduler and the settling
  /// check read, and its client hears of it.
  mutating func setNetwork(of index: Int, online: Bool) {
    hosts.setOnline(names[index], online)
    clients[index].handle(online ? .cameOnline : .wentOffline)
  }

  /// Tells the client of the device named `name` what happened around it.
  /// - Returns: What the client's ``SyncClient/handle(_:)`` returned; `false` for no such device.
  @discardableResult
  mutating func handle(_ event: HostEvent, on name: String) -> Bool {
    guard let index = index(of: name) else { return false }
    return clients[index].handle(event)
  }
}
