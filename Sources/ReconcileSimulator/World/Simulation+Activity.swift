package import Foundation
import Reconcile

extension Simulation {
  /// Whether the device called `name` (or every device, for `nil`) has nothing under way: idle, halted or offline,
  /// with no request or answer of its own on the network.
  package func isSettled(_ name: String?) -> Bool {
    for index in devices.indices where name == nil || devices.names[index] == name {
      let client = devices.clients[index]
      guard client.isIdle || client.isHalted || !devices.isOnline(index) else { return false }
      if network.messages.contains(where: { $0.device == index }) { return false }
    }
    return true
  }

  /// When something next happens by itself — a message arrives, a device wakes, full storage is freed — if anything
  /// will.
  package var nextActivity: Date? {
    var next = network.nextDelivery
    for var client in clients {
      if let wake = client.nextWakeTime, next.map({ wake < $0 }) ?? true { next = wake }
    }
    if let freed = server.nextQuotaFreed, next.map({ freed < $0 }) ?? true { next = freed }
    return next
  }
}
