// A stand-in for CloudKit, compiled only by Scripts/check-cloudkit-bridge.sh so the bridge's thin layer type-checks on
// Linux: a renamed or mistyped call fails here. Each declaration copies the Swift signature on the Apple reference page
// named beside it (developer.apple.com/documentation/cloudkit/…); bodies are placeholders, never run. Only what the
// bridge uses is declared.
public import CoreLocation
public import Foundation

/// …/ckrecordvalueprotocol: `protocol CKRecordValueProtocol`. Conformers used by the bridge follow.
public protocol CKRecordValueProtocol {}
extension String: CKRecordValueProtocol {}
extension Int64: CKRecordValueProtocol {}
extension Double: CKRecordValueProtocol {}
extension Date: CKRecordValueProtocol {}
extension Data: CKRecordValueProtocol {}
extension NSNumber: CKRecordValueProtocol {}
extension NSString: CKRecordValueProtocol {}
extension NSArray: CKRecordValueProtocol {}
extension CLLocation: CKRecordValueProtocol {}
extension Array: CKRecordValueProtocol where Element: CKRecordValueProtocol {}

/// …/ckrecordkeyvaluesetting: `protocol CKRecordKeyValueSetting : NSObjectProtocol`, with
/// `subscript(key: CKRecord.FieldKey) -> (any CKRecordValueProtocol)? { get set }`, `func allKeys() -> [CKRecord.FieldKey]`,
/// `func changedKeys() -> [CKRecord.FieldKey]`.
public protocol CKRecordKeyValueSetting: NSObjectProtocol {
  subscript(key: CKRecord.FieldKey) -> (any CKRecordValueProtocol)? { get set }
  func allKeys() -> [CKRecord.FieldKey]
  func changedKeys() -> [CKRecord.FieldKey]
}

/// …/ckrecordzone: `class CKRecordZone`.
open class CKRecordZone: NSObject, @unchecked Sendable {
  /// …/ckrecordzone/init(zoneid:): `init(zoneID: CKRecordZone.ID)`
  public init(zoneID: CKRecordZone.ID) {}
  /// …/ckrecordzone/zoneid: `var zoneID: CKRecordZone.ID { get }`
  open private(set) var zoneID = CKRecordZone.ID()
  /// …/ckrecordzone/id: `class ID`.
  open class ID: NSObject, @unchecked Sendable {
    /// …/ckrecordzone/id/zonename: `var zoneName: String { get }`
    open private(set) var zoneName = ""
    /// …/ckrecordzone/id/ownername: `var ownerName: String { get }`
    open private(set) var ownerName = ""
    /// …/ckrecordzone/id/init(zonename:ownername:): `convenience init(zoneName: String = CKRecordZone.ID.defaultZoneName, ownerName: String = CKCurrentUserDefaultName)`
    public init(zoneName: String = "_defaultZone", ownerName: String = "__defaultOwner__") {}
  }
}

/// …/ckrecord: `class CKRecord`.
open class CKRecord: NSObject, CKRecordKeyValueSetting, @unchecked Sendable {
  /// …/ckrecord/recordtype-swift.typealias: `typealias RecordType = String`
  public typealias RecordType = String
  /// …/ckrecord/fieldkey: `typealias FieldKey = String`
  public typealias FieldKey = String

  /// …/ckrecord/id: `class ID`.
  open class ID: NSObject, @unchecked Sendable {
    /// …/ckrecord/id/recordname: `var recordName: String { get }`
    open private(set) var recordName = ""
    /// …/ckrecord/id/zoneid: `var zoneID: CKRecordZone.ID { get }`
    open private(set) var zoneID = CKRecordZone.ID()
    /// …/ckrecord/id/init(recordname:zoneid:): `convenience init(recordName: String, zoneID: CKRecordZone.ID = CKRecordZone.ID.default)`
    public init(recordName: String, zoneID: CKRecordZone.ID = CKRecordZone.ID()) {}
  }

  /// …/ckrecord/referenceaction: `enum ReferenceAction` (`none`, `deleteSelf`).
  public enum ReferenceAction: UInt, Sendable {
    case none = 0
    case deleteSelf = 1
  }

  /// …/ckrecord/reference: `class Reference`.
  open class Reference: NSObject, CKRecordValueProtocol, @unchecked Sendable {
    /// …/ckrecord/reference/recordid: `@NSCopying var recordID: CKRecord.ID { get }`
    open private(set) var recordID = CKRecord.ID(recordName: "")
    /// …/ckrecord/reference/action: `var action: CKRecord.ReferenceAction { get }`
    open private(set) var action = CKRecord.ReferenceAction.none
    /// …/ckrecord/reference/init(recordid:action:): `init(recordID: CKRecord.ID, action: CKRecord.ReferenceAction)`
    public init(recordID: CKRecord.ID, action: CKRecord.ReferenceAction) {}
  }

  /// …/ckrecord/init(recordtype:recordid:): `init(recordType: CKRecord.RecordType, recordID: CKRecord.ID)`
  public init(recordType: CKRecord.RecordType, recordID: CKRecord.ID) {}
  /// …/ckrecord/init(coder:): `init?(coder: NSCoder)` (NSCoding; reads what `encodeSystemFields(with:)` wrote)
  public required init?(coder: NSCoder) {}

  /// …/ckrecord/recordtype: `var recordType: CKRecord.RecordType { get }`
  open private(set) var recordType: CKRecord.RecordType = ""
  /// …/ckrecord/recordid: `@NSCopying var recordID: CKRecord.ID { get }`
  open private(set) var recordID = CKRecord.ID(recordName: "")
  /// …/ckrecord/recordchangetag: `var recordChangeTag: String? { get }`
  open private(set) var recordChangeTag: String?
  /// …/ckrecord/creationdate: `var creationDate: Date? { get }`
  open private(set) var creationDate: Date?
  /// …/ckrecord/modificationdate: `var modificationDate: Date? { get }`
  open private(set) var modificationDate: Date?
  /// …/ckrecord/creatoruserrecordid: `@NSCopying var creatorUserRecordID: CKRecord.ID? { get }`
  open private(set) var creatorUserRecordID: CKRecord.ID?
  /// …/ckrecord/lastmodifieduserrecordid: `@NSCopying var lastModifiedUserRecordID: CKRecord.ID? { get }`
  open private(set) var lastModifiedUserRecordID: CKRecord.ID?
  /// …/ckrecord/parent: `@NSCopying var parent: CKRecord.Reference? { get set }`
  open var parent: CKRecord.Reference?
  /// …/ckrecord/share: `@NSCopying var share: CKRecord.Reference? { get }`
  open private(set) var share: CKRecord.Reference?
  /// …/ckrecord/encryptedvalues: `@NSCopying var encryptedValues: any CKRecordKeyValueSetting & Sendable { get }`
  open var encryptedValues: any CKRecordKeyValueSetting & Sendable { self }

  /// …/ckrecord/setparent(_:)-…: `func setParent(_ parentRecordID: CKRecord.ID?)`
  open func setParent(_ parentRecordID: CKRecord.ID?) {}

  /// …/ckrecordkeyvaluesetting/subscript(_:): `subscript(key: CKRecord.FieldKey) -> (any CKRecordValueProtocol)? { get set }`
  public subscript(key: CKRecord.FieldKey) -> (any CKRecordValueProtocol)? {
    get { nil }
    set {}
  }
  /// …/ckrecord/allkeys(): `func allKeys() -> [CKRecord.FieldKey]`
  open func allKeys() -> [CKRecord.FieldKey] { [] }
  /// …/ckrecord/changedkeys(): `func changedKeys() -> [CKRecord.FieldKey]`
  open func changedKeys() -> [CKRecord.FieldKey] { [] }
}

/// …/ckasset: `class CKAsset`.
open class CKAsset: NSObject, CKRecordValueProtocol, @unchecked Sendable {
  /// …/ckasset/fileurl: `var fileURL: URL? { get }`
  open private(set) var fileURL: URL?
  /// …/ckasset/init(fileurl:): `init(fileURL: URL)`
  public init(fileURL: URL) {}
}

/// …/ckerror: `struct CKError`.
public struct CKError: Error, @unchecked Sendable {
  /// …/ckerror/code: `enum Code` (raw values as in CKErrorCode).
  public enum Code: Int, Sendable {
    case internalError = 1
    case partialFailure = 2
    case serverRecordChanged = 14
  }
  /// …/ckerror/code-swift.property: `var code: CKError.Code { get }`
  public var code: CKError.Code { .internalError }
  /// `var errorCode: Int { get }` (from `_BridgedStoredNSError`)
  public var errorCode: Int { code.rawValue }
  /// …/ckerror/retryafterseconds: `var retryAfterSeconds: Double? { get }`
  public var retryAfterSeconds: Double? { nil }
  /// …/ckerror/partialerrorsbyitemid: `var partialErrorsByItemID: [AnyHashable : any Error]? { get }`
  public var partialErrorsByItemID: [AnyHashable: any Error]? { nil }
  /// …/ckerror/clientrecord: `var clientRecord: CKRecord? { get }`
  public var clientRecord: CKRecord? { nil }
  /// …/ckerror/ancestorrecord: `var ancestorRecord: CKRecord? { get }`
  public var ancestorRecord: CKRecord? { nil }
  /// …/ckerror/serverrecord: `var serverRecord: CKRecord? { get }`
  public var serverRecord: CKRecord? { nil }
}

/// …/ckshare: `class CKShare : CKRecord`.
open class CKShare: CKRecord, @unchecked Sendable {
  /// …/ckshare/participantpermission: `enum ParticipantPermission` (raw values of CKShareParticipantPermission).
  public enum ParticipantPermission: Int, Sendable {
    case unknown = 0
    case none = 1
    case readOnly = 2
    case readWrite = 3
  }
  /// …/ckshare/participantrole: `enum ParticipantRole` (raw values of CKShareParticipantRole).
  public enum ParticipantRole: Int, Sendable {
    case unknown = 0
    case owner = 1
    case administrator = 2
    case privateUser = 3
    case publicUser = 4
  }
  /// …/ckshare/participantacceptancestatus: `enum ParticipantAcceptanceStatus`.
  public enum ParticipantAcceptanceStatus: Int, Sendable {
    case unknown = 0
    case pending = 1
    case accepted = 2
    case removed = 3
  }

  /// …/ckshare/participant: `class Participant`.
  open class Participant: NSObject, @unchecked Sendable {
    /// …/ckshare/participant/useridentity: `var userIdentity: CKUserIdentity { get }`
    open private(set) var userIdentity = CKUserIdentity()
    /// …/ckshare/participant/role: `var role: CKShare.ParticipantRole { get set }`
    open var role = CKShare.ParticipantRole.unknown
    /// …/ckshare/participant/permission: `var permission: CKShare.ParticipantPermission { get set }`
    open var permission = CKShare.ParticipantPermission.unknown
    /// …/ckshare/participant/acceptancestatus-swift.property: `var acceptanceStatus: CKShare.ParticipantAcceptanceStatus { get }`
    open private(set) var acceptanceStatus = CKShare.ParticipantAcceptanceStatus.unknown
    /// …/ckshare/participant/participantid: `var participantID: String { get }`
    open private(set) var participantID = ""
  }

  /// …/ckshare/participants: `var participants: [CKShare.Participant] { get }`
  open private(set) var participants: [CKShare.Participant] = []
  /// …/ckshare/publicpermission: `var publicPermission: CKShare.ParticipantPermission { get set }`
  open var publicPermission = CKShare.ParticipantPermission.none
  /// …/ckshare/url: `var url: URL? { get }`
  open private(set) var url: URL?
}

/// …/ckuseridentity: `class CKUserIdentity`.
open class CKUserIdentity: NSObject, @unchecked Sendable {
  /// …/ckuseridentity/lookupinfo-swift.class: `class LookupInfo`.
  open class LookupInfo: NSObject, @unchecked Sendable {
    /// …/ckuseridentity/lookupinfo-swift.class/emailaddress: `var emailAddress: String? { get }`
    open private(set) var emailAddress: String?
    /// …/ckuseridentity/lookupinfo-swift.class/phonenumber: `var phoneNumber: String? { get }`
    open private(set) var phoneNumber: String?
    /// …/ckuseridentity/lookupinfo-swift.class/userrecordid: `@NSCopying var userRecordID: CKRecord.ID? { get }`
    open private(set) var userRecordID: CKRecord.ID?
  }

  /// …/ckuseridentity/userrecordid: `@NSCopying var userRecordID: CKRecord.ID? { get }`
  open private(set) var userRecordID: CKRecord.ID?
  /// …/ckuseridentity/namecomponents: `var nameComponents: PersonNameComponents? { get }`
  open private(set) var nameComponents: PersonNameComponents?
  /// …/ckuseridentity/lookupinfo-swift.property: `@NSCopying var lookupInfo: CKUserIdentity.LookupInfo? { get }`
  open private(set) var lookupInfo: CKUserIdentity.LookupInfo?
  /// …/ckuseridentity/hasicloudaccount: `var hasiCloudAccount: Bool { get }`
  open private(set) var hasiCloudAccount = false
}
