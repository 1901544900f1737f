public import Foundation

/// The iCloud account's state as CloudKit caches it: an archived `CKAccountInfo`, as system daemons keep it in their
/// defaults. Its status is `CKAccountStatus`, what `CKContainer.accountStatus()` reports to an app.
///
/// The other fields are CloudKit's own and undocumented; they are read and written back as they are, their numbers
/// unexplained.
public struct AccountInfo: Sendable, Hashable {
  /// `CKAccountStatus`, by its raw value; values Apple adds later are kept as they are.
  public struct Status: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// `CKAccountStatus.couldNotDetermine` (0).
    public static let couldNotDetermine = Status(rawValue: 0)
    /// `CKAccountStatus.available` (1): signed in, with iCloud Drive on for the app.
    public static let available = Status(rawValue: 1)
    /// `CKAccountStatus.restricted` (2): parental controls or device management deny access.
    public static let restricted = Status(rawValue: 2)
    /// `CKAccountStatus.noAccount` (3): no iCloud account is signed in.
    public static let noAccount = Status(rawValue: 3)
    /// `CKAccountStatus.temporarilyUnavailable` (4): signed in, but the account needs the user's attention.
    public static let temporarilyUnavailable = Status(rawValue: 4)

    /// The raw `CKAccountStatus` value.
    public let rawValue: Int64

    /// A status by its raw value.
    /// - Parameter rawValue: The `CKAccountStatus` raw value.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// The case's name, or `unknown (N)`.
    public var description: String {
      switch rawValue {
      case 0: "couldNotDetermine"
      case 1: "available"
      case 2: "restricted"
      case 3: "noAccount"
      case 4: "temporarilyUnavailable"
      default: "unknown (\(rawValue))"
      }
    }
  }

  /// The account's status.
  public var status: Status
  /// Whether the cached credentials are valid (`HasValidCredentials`), when archived.
  public var hasValidCredentials: Bool?
  /// `DeviceToDeviceEncryptionAvailability`, undocumented: 3 in a real archive of an account with end-to-end
  /// encryption available.
  public var deviceToDeviceEncryptionAvailability: Int64?
  /// `AccountPartition`, undocumented.
  public var accountPartition: Int64?
  /// `AccountInfoValidationCounter`, undocumented: a counter CloudKit bumps as it checks the account.
  public var validationCounter: Int64?

  /// Account info with these fields.
  /// - Parameters:
  ///   - status: The account's status.
  ///   - hasValidCredentials: Whether the credentials are valid.
  ///   - deviceToDeviceEncryptionAvailability: The undocumented availability number.
  ///   - accountPartition: The undocumented partition number.
  ///   - validationCounter: The undocumented validation counter.
  public init(
    status: Status, hasValidCredentials: Bool? = nil, deviceToDeviceEncryptionAvailability: Int64? = nil,
    accountPartition: Int64? = nil, validationCounter: Int64? = nil
  ) {
    self.status = status
    self.hasValidCredentials = hasValidCredentials
    self.deviceToDeviceEncryptionAvailability = deviceToDeviceEncryptionAvailability
    self.accountPartition = accountPartition
    self.validationCounter = validationCounter
  }

  /// Reads an `NSKeyedArchiver` archive of a `CKAccountInfo`, binary or XML.
  /// - Parameter data: The archive's bytes.
  /// - Throws: ``CloudKitArchiveError`` naming what is wrong, such as an archive of another class or a status that is
  ///   not a number.
  public init(cloudKitArchive data: Data) throws(CloudKitArchiveError) {
    let archive = try CloudKitArchive(data: data)
    guard case .accountInfo(let info) = archive else {
      throw .unexpectedClass(field: CloudKitArchiveKeys.root, expected: Self.className, found: archive.kind)
    }
    self = info
  }

  /// Writes the account info as `NSKeyedArchiver` writes a `CKAccountInfo`, readable by ``init(cloudKitArchive:)``.
  /// - Returns: A binary property list.
  public func cloudKitArchive() -> Data {
    CloudKitArchive.rootArchive { archiveObject(into: &$0) }
  }

  /// The archived class.
  static let className = "CKAccountInfo"

  private enum Keys {
    static let status = "AccountStatus"
    static let credentials = "HasValidCredentials"
    static let encryption = "DeviceToDeviceEncryptionAvailability"
    static let partition = "AccountPartition"
    static let counter = "AccountInfoValidationCounter"
  }

  /// Reads the archived object's fields.
  init(archived fields: [String: PropertyList], in archive: KeyedArchiveReader, field: String)
    throws(CloudKitArchiveError)
  {
    func path(_ key: String) -> String { field + "." + key }
    guard let status = try archive.integer(fields[Keys.status], field: path(Keys.status)) else {
      throw .missingField(path(Keys.status))
    }
    self.status = Status(rawValue: status)
    hasValidCredentials = try archive.bool(fields[Keys.credentials], field: path(Keys.credentials))
    deviceToDeviceEncryptionAvailability = try archive.integer(fields[Keys.encryption], field: path(Keys.encryption))
    accountPartition = try archive.integer(fields[Keys.partition], field: path(Keys.partition))
    validationCounter = try archive.integer(fields[Keys.counter], field: path(Keys.counter))
  }

  /// The archived object, as `NSKeyedArchiver` writes it.
  func archiveObject(into builder: inout KeyedArchiveBuilder) -> PropertyList {
    var fields: [String: PropertyList] = [Keys.status: .integer(status.rawValue)]
    if let hasValidCredentials { fields[Keys.credentials] = .bool(hasValidCredentials) }
    if let deviceToDeviceEncryptionAvailability {
      fields[Keys.encryption] = .integer(deviceToDeviceEncryptionAvailability)
    }
    if let accountPartition { fields[Keys.partition] = .integer(accountPartition) }
    if let validationCounter { fields[Keys.counter] = .integer(validationCounter) }
    return builder.object(className: Self.className, fields: fields)
  }
}
