public import Foundation

/// Keys and classes inside an archived `CKShare`, as Apple Notes' stored shares show them.
enum ShareArchiveKeys {
  static let participantClass = "CKShareParticipant"
  static let identityClass = "CKUserIdentity"
  static let lookupInfoClass = "CKUserIdentityLookupInfo"
  static let nameComponentsClass = "NSPersonNameComponents"
  static let nameComponentsDataClass = "_NSPersonNameComponentsData"
  // CKShareParticipant
  static let participantID = "ParticipantID"
  static let userIdentity = "UserIdentity"
  static let type = "Type"
  static let permission = "Permission"
  static let acceptanceStatus = "AcceptanceStatus"
  static let isCurrentUser = "IsCurrentUser"
  // CKUserIdentity
  static let userRecordID = "UserRecordID"
  static let nameComponents = "NameComponents"
  static let lookupInfo = "LookupInfo"
  static let hasICloudAccount = "HasICloudAccount"
  // CKUserIdentityLookupInfo
  static let emailAddress = "EmailAddress"
  static let phoneNumber = "PhoneNumber"
  static let recordID = "RecordID"
  // NSPersonNameComponents
  static let namePrivate = "NS.nameComponentsPrivate"
  static let givenName = "NS.givenName"
  static let familyName = "NS.familyName"
}

extension Share {
  /// Reads the keyed archive that `CKShare.encodeSystemFields(with:)` writes (as Apple Notes stores its shares): the
  /// record's system fields, the participants with their identities, roles, permissions and acceptance, the public
  /// permission and the URL.
  ///
  /// Apple's many other share keys (protection data, invitation tokens, keys) are ignored.
  /// - Parameter data: The archive's bytes.
  /// - Throws: ``CloudKitArchiveError`` naming what is wrong; an archive of a plain record is
  ///   ``CloudKitArchiveError/unexpectedClass(field:expected:found:)``.
  public init(cloudKitSystemFieldsArchive data: Data) throws(CloudKitArchiveError) {
    self = try CloudKitArchive.read(data, expected: Share.recordType, field: CloudKitArchiveKeys.recordType) {
      if case .share(let share) = $0 { share } else { nil }
    }
  }

  /// Writes the share as `CKShare.encodeSystemFields(with:)` lays it out: the record's system-field keys plus
  /// `Participants`, `PublicPermission` and `URL`.
  /// - Returns: A binary property list.
  /// - Throws: ``RecordValidationError`` if the record's IDs break CloudKit's rules.
  public func cloudKitSystemFieldsArchive() throws(RecordValidationError) -> Data {
    var b = KeyedArchiveBuilder()
    let top = try systemFieldsTop(into: &b)
    return BinaryPropertyListWriter.write(b.archive(top: top))
  }

  init(record: Record, archivedKeys keys: [String: PropertyList], in archive: KeyedArchiveReader)
    throws(CloudKitArchiveError)
  {
    typealias K = CloudKitArchiveKeys
    var participants: [Participant] = []
    for (index, value) in try archive.collection(keys[K.participants], field: K.participants).enumerated() {
      participants.append(try Self.participant(value, in: archive, field: "\(K.participants)[\(index)]"))
    }
    let permission = try Self.enumValue(
      Permission.self, archive.integer(keys[K.publicPermission], field: K.publicPermission), field: K.publicPermission)
    let url = try archive.url(keys[K.url], field: K.url)
    do {
      try self.init(record: record, participants: participants, publicPermission: permission ?? .none, url: url)
    } catch {
      throw .invalidField(K.recordType, error)
    }
  }

  func systemFieldsTop(into b: inout KeyedArchiveBuilder, values: Bool = false) throws(RecordValidationError)
    -> [String: PropertyList]
  {
    typealias K = CloudKitArchiveKeys
    var top = try record.systemFieldsTop(into: &b, values: values)
    var objects: [PropertyList] = []
    for participant in participants { objects.append(Self.archive(participant, into: &b)) }
    top[K.participants] = b.object(className: "NSArray", fields: ["NS.objects": .array(objects)])
    top[K.publicPermission] = .integer(Int64(publicPermission.rawValue))
    top[K.url] = url.map { b.string($0) } ?? KeyedArchiveBuilder.null
    return top
  }

  /// The enum case an archived raw value stands for; `nil` when absent, an error naming the field when unknown.
  static func enumValue<E: RawRepresentable<Int>>(_ type: E.Type, _ raw: Int64?, field: String)
    throws(CloudKitArchiveError) -> E?
  {
    guard let raw else { return nil }
    guard let value = Int(exactly: raw).flatMap(E.init(rawValue:)) else {
      throw .wrongType(field: field, expected: "a known \(E.self) value", found: "integer \(raw)")
    }
    return value
  }

  /// Reads an archived `CKShareParticipant`.
  static func participant(_ value: PropertyList, in archive: KeyedArchiveReader, field: String)
    throws(CloudKitArchiveError) -> Participant
  {
    typealias S = ShareArchiveKeys
    guard let dict = try archive.object(value, field: field, expectedClass: S.participantClass) else {
      throw .missingField(field)
    }
    func sub(_ key: String) -> String { field + "." + key }
    let identity = try Self.identity(dict[S.userIdentity], in: archive, field: sub(S.userIdentity))
    return Participant(
      participantID: try archive.string(dict[S.participantID], field: sub(S.participantID)),
      userIdentity: identity ?? UserIdentity(),
      role: try enumValue(Role.self, archive.integer(dict[S.type], field: sub(S.type)), field: sub(S.type)) ?? .unknown,
      permission: try enumValue(
        Permission.self, archive.integer(dict[S.permission], field: sub(S.permission)), field: sub(S.permission))
        ?? .unknown,
      acceptanceStatus: try enumValue(
        AcceptanceStatus.self, archive.integer(dict[S.acceptanceStatus], field: sub(S.acceptanceStatus)),
        field: sub(S.acceptanceStatus)) ?? .unknown,
      isCurrentUser: try archive.bool(dict[S.isCurrentUser], field: sub(S.isCurrentUser)) ?? false)
  }

  /// Reads an archived `CKUserIdentity`; `nil` when absent.
  static func identity(_ value: PropertyList?, in archive: KeyedArchiveReader, field: String)
    throws(CloudKitArchiveError) -> UserIdentity?
  {
    typealias S = ShareArchiveKeys
    guard let dict = try archive.object(value, field: field, expectedClass: S.identityClass) else { return nil }
    func sub(_ key: String) -> String { field + "." + key }
    var identity = UserIdentity()
    identity.userRecordName = try archive.recordIDParts(dict[S.userRecordID], field: sub(S.userRecordID))?.name
    identity.hasICloudAccount = try archive.bool(dict[S.hasICloudAccount], field: sub(S.hasICloudAccount))
    if let names = try archive.object(
      dict[S.nameComponents], field: sub(S.nameComponents), expectedClass: S.nameComponentsClass),
      let data = try archive.object(
        names[S.namePrivate], field: sub(S.namePrivate), expectedClass: S.nameComponentsDataClass)
    {
      identity.givenName = try archive.string(data[S.givenName], field: sub(S.givenName))
      identity.familyName = try archive.string(data[S.familyName], field: sub(S.familyName))
    }
    if let info = try archive.object(dict[S.lookupInfo], field: sub(S.lookupInfo), expectedClass: S.lookupInfoClass) {
      identity.lookupInfo = LookupInfo(
        emailAddress: try archive.string(info[S.emailAddress], field: sub(S.emailAddress)),
        phoneNumber: try archive.string(info[S.phoneNumber], field: sub(S.phoneNumber)),
        userRecordName: try archive.recordIDParts(info[S.recordID], field: sub(S.recordID))?.name)
    }
    return identity
  }

  /// The archived `CKShareParticipant`, as `NSKeyedArchiver` writes it.
  static func archive(_ participant: Participant, into b: inout KeyedArchiveBuilder) -> PropertyList {
    typealias S = ShareArchiveKeys
    let identityObject = archive(participant.userIdentity, into: &b)
    return b.object(
      className: S.participantClass,
      fields: [
        S.participantID: b.optionalString(participant.participantID), S.userIdentity: identityObject,
        S.type: .integer(Int64(participant.role.rawValue)),
        S.permission: .integer(Int64(participant.permission.rawValue)),
        S.acceptanceStatus: .integer(Int64(participant.acceptanceStatus.rawValue)),
        S.isCurrentUser: .bool(participant.isCurrentUser),
      ])
  }

  /// The archived `CKUserIdentity`, as `NSKeyedArchiver` writes it.
  static func archive(_ identity: UserIdentity, into b: inout KeyedArchiveBuilder) -> PropertyList {
    typealias S = ShareArchiveKeys
    var identityFields: [String: PropertyList] = [:]
    identityFields[S.userRecordID] =
      identity.userRecordName.map { Record.archiveUser($0, into: &b) } ?? KeyedArchiveBuilder.null
    if let has = identity.hasICloudAccount { identityFields[S.hasICloudAccount] = .bool(has) }
    if identity.givenName != nil || identity.familyName != nil {
      let data = b.object(
        className: S.nameComponentsDataClass,
        fields: [
          S.givenName: b.optionalString(identity.givenName), S.familyName: b.optionalString(identity.familyName),
        ])
      identityFields[S.nameComponents] = b.object(className: S.nameComponentsClass, fields: [S.namePrivate: data])
    } else {
      identityFields[S.nameComponents] = KeyedArchiveBuilder.null
    }
    if let info = identity.lookupInfo {
      identityFields[S.lookupInfo] = b.object(
        className: S.lookupInfoClass,
        fields: [
          S.emailAddress: b.optionalString(info.emailAddress), S.phoneNumber: b.optionalString(info.phoneNumber),
          S.recordID: info.userRecordName.map { Record.archiveUser($0, into: &b) } ?? KeyedArchiveBuilder.null,
        ])
    } else {
      identityFields[S.lookupInfo] = KeyedArchiveBuilder.null
    }
    return b.object(className: S.identityClass, fields: identityFields)
  }
}
