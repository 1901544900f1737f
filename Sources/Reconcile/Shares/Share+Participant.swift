extension Share {
  /// The case of `cases` whose wire name is `name`.
  static func named<E>(_ name: String, in cases: [E], _ wireName: (E) -> String) -> E? {
    cases.first { wireName($0) == name }
  }

  /// What a participant, or anyone with the share's URL, may do. Raw values are `CKShare.ParticipantPermission`'s.
  public enum Permission: Int, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// Not known to this client.
    case unknown = 0
    /// No access.
    case none = 1
    /// Read only.
    case readOnly = 2
    /// Read and write.
    case readWrite = 3

    /// The Web Services spelling: `UNKNOWN`, `NONE`, `READ_ONLY`, `READ_WRITE`.
    package var wireName: String { ["UNKNOWN", "NONE", "READ_ONLY", "READ_WRITE"][rawValue] }

    /// Reads the Web Services spelling.
    /// - Parameter wireName: `UNKNOWN`, `NONE`, `READ_ONLY` or `READ_WRITE`.
    package init?(wireName: String) {
      guard let match = Share.named(wireName, in: Self.allCases, \.wireName) else { return nil }
      self = match
    }

    /// The wire name.
    public var description: String { wireName }
  }

  /// A participant's part in the share. Raw values are `CKShare.ParticipantType`'s.
  public enum Role: Int, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// Not known to this client.
    case unknown = 0
    /// The share's owner.
    case owner = 1
    /// A participant who may add and remove others.
    case administrator = 2
    /// Someone the owner invited.
    case privateUser = 3
    /// Someone who joined through the share's public URL.
    case publicUser = 4

    /// The Web Services spelling: `UNKNOWN`, `OWNER`, `ADMINISTRATOR`, `PRIVATE_USER`, `PUBLIC_USER`.
    package var wireName: String { ["UNKNOWN", "OWNER", "ADMINISTRATOR", "PRIVATE_USER", "PUBLIC_USER"][rawValue] }

    /// Reads the Web Services spelling; `USER` is read as ``privateUser``.
    /// - Parameter wireName: A type name from a participant dictionary.
    package init?(wireName: String) {
      if wireName == "USER" {
        self = .privateUser
        return
      }
      guard let match = Share.named(wireName, in: Self.allCases, \.wireName) else { return nil }
      self = match
    }

    /// The wire name.
    public var description: String { wireName }
  }

  /// Whether a participant has accepted. Raw values are `CKShare.ParticipantAcceptanceStatus`'s.
  public enum AcceptanceStatus: Int, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// Not known to this client.
    case unknown = 0
    /// Invited, not yet accepted.
    case pending = 1
    /// Accepted: the shared records are in the participant's shared database.
    case accepted = 2
    /// Removed from the share.
    case removed = 3

    /// The Web Services spelling: `UNKNOWN`, `PENDING`, `ACCEPTED`, `REMOVED`.
    package var wireName: String { ["UNKNOWN", "PENDING", "ACCEPTED", "REMOVED"][rawValue] }

    /// Reads the Web Services spelling.
    /// - Parameter wireName: `UNKNOWN`, `PENDING`, `ACCEPTED` or `REMOVED`.
    package init?(wireName: String) {
      guard let match = Share.named(wireName, in: Self.allCases, \.wireName) else { return nil }
      self = match
    }

    /// The wire name.
    public var description: String { wireName }
  }

  /// How a user is found: by email address, phone number or user record name (`CKUserIdentity.LookupInfo`).
  public struct LookupInfo: Sendable, Hashable, Codable {
    /// The email address.
    public var emailAddress: String?
    /// The phone number.
    public var phoneNumber: String?
    /// The user record name.
    public var userRecordName: String?

    /// Creates lookup info.
    /// - Parameters:
    ///   - emailAddress: The email address.
    ///   - phoneNumber: The phone number.
    ///   - userRecordName: The user record name.
    public init(emailAddress: String? = nil, phoneNumber: String? = nil, userRecordName: String? = nil) {
      self.emailAddress = emailAddress
      self.phoneNumber = phoneNumber
      self.userRecordName = userRecordName
    }
  }

  /// Who a participant is (`CKUserIdentity`).
  public struct UserIdentity: Sendable, Hashable, Codable {
    /// The user's record name (`_` and hex for iCloud users), when known.
    public var userRecordName: String?
    /// The given name, when the user shared it.
    public var givenName: String?
    /// The family name, when the user shared it.
    public var familyName: String?
    /// How the user was looked up.
    public var lookupInfo: LookupInfo?
    /// Whether the user has an iCloud account, when known.
    public var hasICloudAccount: Bool?

    /// Creates an identity.
    /// - Parameters:
    ///   - userRecordName: The user's record name.
    ///   - givenName: The given name.
    ///   - familyName: The family name.
    ///   - lookupInfo: How the user was looked up.
    ///   - hasICloudAccount: Whether the user has an iCloud account.
    public init(
      userRecordName: String? = nil, givenName: String? = nil, familyName: String? = nil,
      lookupInfo: LookupInfo? = nil, hasICloudAccount: Bool? = nil
    ) {
      self.userRecordName = userRecordName
      self.givenName = givenName
      self.familyName = familyName
      self.lookupInfo = lookupInfo
      self.hasICloudAccount = hasICloudAccount
    }
  }

  /// One person's part in a share (`CKShare.Participant`).
  public struct Participant: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The server's ID for the participant, when known.
    public var participantID: String?
    /// Who the participant is.
    public var userIdentity: UserIdentity
    /// Owner, administrator, invited or public user.
    public var role: Role
    /// What the participant may do.
    public var permission: Permission
    /// Whether the participant has accepted.
    public var acceptanceStatus: AcceptanceStatus
    /// Whether this participant is the user who read the share (archives only).
    public var isCurrentUser: Bool

    /// Creates a participant.
    /// - Parameters:
    ///   - participantID: The server's ID for the participant.
    ///   - userIdentity: Who the participant is.
    ///   - role: The participant's role.
    ///   - permission: What the participant may do.
    ///   - acceptanceStatus: Whether the participant has accepted.
    ///   - isCurrentUser: Whether this is the user who read the share.
    public init(
      participantID: String? = nil, userIdentity: UserIdentity, role: Role, permission: Permission,
      acceptanceStatus: AcceptanceStatus, isCurrentUser: Bool = false
    ) {
      self.participantID = participantID
      self.userIdentity = userIdentity
      self.role = role
      self.permission = permission
      self.acceptanceStatus = acceptanceStatus
      self.isCurrentUser = isCurrentUser
    }

    /// Who, in what role, with what permission and status, for logs.
    public var description: String {
      let who =
        userIdentity.userRecordName ?? userIdentity.lookupInfo?.emailAddress ?? userIdentity.lookupInfo?.phoneNumber
        ?? "?"
      return "\(who) \(role) \(permission) \(acceptanceStatus)"
    }
  }
}
