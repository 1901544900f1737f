/// Who sends a request: the signed-in user (if any) and the device, as the server records them on every save.
public struct ClientIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The user's record name, such as `_alice`; `nil` when the device has no iCloud account.
  public var userRecordName: String?
  /// The device's name, written into `Record/modifiedByDevice` by every save it makes.
  public var deviceName: String

  /// Creates an identity.
  /// - Parameters:
  ///   - userRecordName: The signed-in user, or `nil` for no account.
  ///   - deviceName: The device's name.
  public init(userRecordName: String?, deviceName: String) {
    self.userRecordName = userRecordName
    self.deviceName = deviceName
  }

  /// `device (user)`, or `device (no account)`.
  public var description: String { "\(deviceName) (\(userRecordName ?? "no account"))" }
}
