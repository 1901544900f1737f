public import Foundation

/// An archived `CKShare.Metadata`: what an invitation tells the app that opens it — the share (its system fields and
/// participants), the shared root record, the container, and the invited user's own role, permission and acceptance.
///
/// The invitation's tokens are kept as Apple's opaque bytes (``tokens``), for writing back. Apple's other keys
/// (protection data, out-of-network matches, the root record itself when fetched) are not read; writing back keeps
/// what is modelled here.
public struct ShareMetadata: Sendable, Hashable {
  /// The container's identifier (`iCloud.com.example.App`).
  public var containerIdentifier: String?
  /// `CKContainer.ID`'s environment, by raw value (undocumented; 2 in a real invitation from a development build).
  public var containerEnvironment: Int64?
  /// The share.
  public var share: Share
  /// The shared root record's ID (`nil` for a zone-wide share).
  public var rootRecordID: RecordID?
  /// The shared root record's type.
  public var rootRecordType: String?
  /// The invited user's role.
  public var participantRole: Share.Role?
  /// The invited user's permission.
  public var participantPermission: Share.Permission?
  /// Whether the invited user has accepted.
  public var participantStatus: Share.AcceptanceStatus?
  /// The invited user, as a participant of the share.
  public var callingParticipant: Share.Participant?
  /// The share's owner.
  public var ownerIdentity: Share.UserIdentity?
  /// The records of the shared hierarchy Apple lists with the invitation (`SharedItemHierarchyIDs`, undocumented;
  /// the root record's ID in a real one).
  public var sharedItemHierarchyIDs: [RecordID] = []
  /// The invitation's opaque token data by archive key — among ``tokenKeys`` — as Apple wrote it. They are secrets
  /// that let a device accept the share: kept so a written-back archive still works, and never printed (`inspect`
  /// shows their sizes).
  public var tokens: [String: Data] = [:]

  /// The archive keys read into ``tokens``: `PublicToken`, `PrivateToken`, `ProtectedFullToken`, `EncryptedData`.
  public static let tokenKeys = ["EncryptedData", "PrivateToken", "ProtectedFullToken", "PublicToken"]

  /// Metadata for `share`; every other field empty.
  /// - Parameter share: The share.
  public init(share: Share) { self.share = share }

  /// The archived class.
  static let className = "CKShareMetadata"

  private enum Keys {
    static let container = "ContainerID"
    static let containerClass = "CKContainerID"
    static let containerIdentifier = "ContainerIdentifier"
    static let environment = "Environment"
    static let share = "Share"
    static let rootRecordID = "RootRecordID"
    static let rootRecordType = "RootRecordType"
    static let role = "ParticipantType"
    static let permission = "ParticipantPermission"
    static let status = "ParticipantStatus"
    static let callingParticipant = "CallingParticipant"
    static let owner = "OwnerIdentity"
    static let hierarchy = "SharedItemHierarchyIDs"
  }

  /// Reads the archived object's fields.
  init(archived fields: [String: PropertyList], in archive: KeyedArchiveReader, field: String)
    throws(CloudKitArchiveError)
  {
    func path(_ key: String) -> String { field + "." + key }
    guard let shareKeys = try archive.object(fields[Keys.share], field: path(Keys.share), expectedClass: "CKShare"),
      case .share(let share) = try CloudKitArchive.recordOrShare(shareKeys, in: archive)
    else { throw .missingField(path(Keys.share)) }
    self.share = share
    if let container = try archive.object(
      fields[Keys.container], field: path(Keys.container), expectedClass: Keys.containerClass)
    {
      containerIdentifier = try archive.string(
        container[Keys.containerIdentifier], field: path(Keys.container) + "." + Keys.containerIdentifier)
      containerEnvironment = try archive.integer(
        container[Keys.environment], field: path(Keys.container) + "." + Keys.environment)
    }
    rootRecordID = try archive.recordID(fields[Keys.rootRecordID], field: path(Keys.rootRecordID))
    rootRecordType = try archive.string(fields[Keys.rootRecordType], field: path(Keys.rootRecordType))
    func known<E: RawRepresentable<Int>>(_ type: E.Type, _ key: String) throws(CloudKitArchiveError) -> E? {
      try Share.enumValue(type, archive.integer(fields[key], field: path(key)), field: path(key))
    }
    participantRole = try known(Share.Role.self, Keys.role)
    participantPermission = try known(Share.Permission.self, Keys.permission)
    participantStatus = try known(Share.AcceptanceStatus.self, Keys.status)
    if let calling = try archive.resolve(fields[Keys.callingParticipant], field: path(Keys.callingParticipant)) {
      callingParticipant = try Share.participant(calling, in: archive, field: path(Keys.callingParticipant))
    }
    ownerIdentity = try Share.identity(fields[Keys.owner], in: archive, field: path(Keys.owner))
    for (index, id) in try archive.collection(fields[Keys.hierarchy], field: path(Keys.hierarchy)).enumerated() {
      if let id = try archive.recordID(id, field: path(Keys.hierarchy) + ".\(index)") {
        sharedItemHierarchyIDs.append(id)
      }
    }
    for key in Self.tokenKeys {
      if let token = try archive.data(fields[key], field: path(key)) { tokens[key] = token }
    }
  }

  /// The archived object, as `NSKeyedArchiver` writes it.
  func archiveObject(into b: inout KeyedArchiveBuilder) throws(RecordValidationError) -> PropertyList {
    var fields: [String: PropertyList] = [
      Keys.share: b.object(className: "CKShare", fields: try share.systemFieldsTop(into: &b, values: true))
    ]
    if containerIdentifier != nil || containerEnvironment != nil {
      var container: [String: PropertyList] = [Keys.containerIdentifier: b.optionalString(containerIdentifier)]
      if let containerEnvironment { container[Keys.environment] = .integer(containerEnvironment) }
      fields[Keys.container] = b.object(className: Keys.containerClass, fields: container)
    }
    if let rootRecordID { fields[Keys.rootRecordID] = Record.archive(rootRecordID, into: &b) }
    if let rootRecordType { fields[Keys.rootRecordType] = b.optionalString(rootRecordType) }
    if let participantRole { fields[Keys.role] = .integer(Int64(participantRole.rawValue)) }
    if let participantPermission { fields[Keys.permission] = .integer(Int64(participantPermission.rawValue)) }
    if let participantStatus { fields[Keys.status] = .integer(Int64(participantStatus.rawValue)) }
    if let callingParticipant { fields[Keys.callingParticipant] = Share.archive(callingParticipant, into: &b) }
    if let ownerIdentity { fields[Keys.owner] = Share.archive(ownerIdentity, into: &b) }
    if !sharedItemHierarchyIDs.isEmpty {
      var ids: [PropertyList] = []
      for id in sharedItemHierarchyIDs { ids.append(Record.archive(id, into: &b)) }
      fields[Keys.hierarchy] = b.object(className: "NSArray", fields: ["NS.objects": .array(ids)])
    }
    for (key, token) in tokens.sorted(by: { $0.key < $1.key }) { fields[key] = b.append(.data(token)) }
    return b.object(className: Self.className, fields: fields)
  }
}
