public import Foundation
public import Reconcile

/// One device, as a script's `device add` line sets it up.
public struct DeviceSetup: Sendable, Hashable {
  /// The device's name.
  public var name: String
  /// How far its clock is ahead of true time, in seconds (negative: behind).
  public var clockOffset: TimeInterval
  /// Whether it starts on the simulator's upgraded app version (``SchemaScenario``).
  public var upgraded: Bool
  /// In the playground, the app version whose declared schema it runs; `nil` for none.
  public var schema: SchemaVersion?
  /// The signed-in user, `_user` unless given.
  public var user: String

  /// Describes a device.
  /// - Parameters:
  ///   - name: Its name.
  ///   - clockOffset: Its clock skew in seconds; 0 unless given.
  ///   - upgraded: Whether it starts on the simulator's upgraded app version; `false` unless given.
  ///   - schema: In the playground, the declared app version it runs; none unless given.
  ///   - user: The signed-in user; `_user` unless given.
  public init(
    name: String, clockOffset: TimeInterval = 0, upgraded: Bool = false, schema: SchemaVersion? = nil,
    user: String = "_user"
  ) {
    self.name = name
    self.clockOffset = clockOffset
    self.upgraded = upgraded
    self.schema = schema
    self.user = user
  }
}
