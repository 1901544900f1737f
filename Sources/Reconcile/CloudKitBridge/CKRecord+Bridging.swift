// The thin layer over CloudKit: conformances that only forward to CloudKit's API and convert values, so the logic in
// CloudKitValue.swift, CloudKitRecordBridging.swift and CloudKitError.swift does the work on every platform. Compiled
// wherever CloudKit exists; on Linux, Scripts/check-cloudkit-bridge.sh compiles it against a stand-in with Apple's
// signatures.
#if canImport(CloudKit)
  public import CloudKit
  import CoreLocation
  import Foundation

  extension CKRecord: CloudKitRecordBridging {
    /// The record type.
    package var bridgedRecordType: String { recordType }

    /// The record's name, zone and owner.
    package var bridgedRecordID: (recordName: String, zoneName: String, ownerName: String) { recordID.bridged }

    /// The change tag, dates, creator and last modifier, and the share's record name.
    package var bridgedSystemFields: CloudKitSystemFields {
      CloudKitSystemFields(
        recordChangeTag: recordChangeTag, creationDate: creationDate, modificationDate: modificationDate,
        creatorUserRecordName: creatorUserRecordID?.recordName,
        lastModifiedUserRecordName: lastModifiedUserRecordID?.recordName, shareRecordName: share?.recordID.recordName)
    }

    /// Every key, plain and encrypted.
    package var bridgedKeys: [String] { Array(Set(allKeys()).union(encryptedValues.allKeys())) }

    /// `changedKeys()`, plain and encrypted.
    package var bridgedChangedKeys: [String] { Array(Set(changedKeys()).union(encryptedValues.changedKeys())) }

    /// The value under `key`, from `encryptedValues` first.
    /// - Parameter key: The key.
    /// - Returns: The value and whether it is encrypted; `nil` when absent or of a kind records cannot hold.
    package func bridgedValue(forKey key: String) -> (value: CloudKitValue, encrypted: Bool)? {
      let encryptedValue: (any CKRecordValueProtocol)? = encryptedValues[key]
      if let encryptedValue, let value = CloudKitValue(cloudKit: encryptedValue) { return (value, true) }
      let plainValue: (any CKRecordValueProtocol)? = self[key]
      if let plainValue, let value = CloudKitValue(cloudKit: plainValue) { return (value, false) }
      return nil
    }

    /// Sets or removes the value under `key`, in `encryptedValues` when `encrypted`.
    /// - Parameters:
    ///   - value: The value, or `nil` to remove it.
    ///   - key: The key.
    ///   - encrypted: Whether the value is encrypted.
    package func setBridgedValue(_ value: CloudKitValue?, forKey key: String, encrypted: Bool) {
      let converted = value.flatMap(\.cloudKitObject)
      if encrypted {
        let values = encryptedValues
        values[key] = converted
      } else {
        self[key] = converted
      }
    }

    /// The parent reference's target.
    package var bridgedParent: (recordName: String, zoneName: String, ownerName: String)? {
      get {
        parent?.recordID.bridged
      }
      set {
        setParent(
          newValue.map {
            CKRecord.ID(bridged: $0)
          })
      }
    }
  }

  extension CloudKitValue {
    /// Reads a value `CKRecord` returned; `nil` for a kind records cannot hold.
    /// - Parameter value: The value.
    package init?(cloudKit value: Any) {
      switch value {
      case let number as NSNumber: self = .number(CloudKitNumber(number))
      case let string as String: self = .string(string)
      case let date as Date: self = .date(date)
      case let data as Data: self = .data(data)
      case let reference as CKRecord.Reference:
        self = .reference(
          recordName: reference.recordID.recordName, zoneName: reference.recordID.zoneID.zoneName,
          ownerName: reference.recordID.zoneID.ownerName, deleteSelf: reference.action == .deleteSelf)
      case let asset as CKAsset: self = .asset(fileURL: asset.fileURL)
      case let location as CLLocation:
        func known(_ v: Double) -> Double? { v < 0 ? nil : v }
        self = .location(
          Location(
            latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
            horizontalAccuracy: known(location.horizontalAccuracy), verticalAccuracy: known(location.verticalAccuracy),
            altitude: location.altitude, speed: known(location.speed), course: known(location.course),
            timestamp: location.timestamp))
      case let array as NSArray:
        var items: [CloudKitValue] = []
        for element in array {
          guard let item = CloudKitValue(cloudKit: element) else { return nil }
          items.append(item)
        }
        self = .list(items)
      default: return nil
      }
    }

    /// The value as CloudKit stores it: `String`, `Int64`, `Double`, `Date`, `Data`, `CKRecord.Reference`, `CKAsset`
    /// (`nil` without a file URL), `CLLocation`, or an array of one of those.
    package var cloudKitObject: (any CKRecordValueProtocol)? {
      switch self {
      case .string(let s): return s
      case .number(.integer(let v)): return v
      case .number(.floatingPoint(let v)): return v
      case .date(let d): return d
      case .data(let d): return d
      case .reference(let name, let zone, let owner, let deleteSelf):
        return CKRecord.Reference(
          recordID: CKRecord.ID(bridged: (name, zone, owner)),
          action: deleteSelf ? .deleteSelf : .none)
      case .asset(let url): return url.map { CKAsset(fileURL: $0) }
      case .location(let l):
        return CLLocation(
          coordinate: CLLocationCoordinate2D(latitude: l.latitude, longitude: l.longitude), altitude: l.altitude ?? 0,
          horizontalAccuracy: l.horizontalAccuracy ?? -1, verticalAccuracy: l.verticalAccuracy ?? -1,
          course: l.course ?? -1, speed: l.speed ?? -1, timestamp: l.timestamp ?? Date())
      case .list(let items):
        switch items.first {
        case .string?: return items.compactMap { if case .string(let v) = $0 { v } else { nil } }
        case .number(.integer)?: return items.compactMap { if case .number(.integer(let v)) = $0 { v } else { nil } }
        case .number(.floatingPoint)?:
          return items.compactMap { if case .number(.floatingPoint(let v)) = $0 { v } else { nil } }
        case .date?: return items.compactMap { if case .date(let v) = $0 { v } else { nil } }
        case .data?: return items.compactMap { if case .data(let v) = $0 { v } else { nil } }
        case nil: return [String]()
        default: return items.compactMap { $0.cloudKitObject as? NSObject } as NSArray
        }
      }
    }
  }

  extension CloudKitError {
    /// Reads a `CKError`: its code and delay, the three records of a `serverRecordChanged` as a ``Conflict``, and each
    /// failed item of a `partialFailure`.
    /// - Parameter ckError: The CloudKit error.
    /// - Throws: ``CloudKitBridgeError`` when a record in the error cannot be read.
    public init(_ ckError: CKError) throws(CloudKitBridgeError) { try self.init(bridging: ckError) }
  }

  extension CKError: CloudKitErrorBridging {
    /// `code.rawValue`.
    package var bridgedCode: Int { errorCode }
    /// `retryAfterSeconds`.
    package var bridgedRetryAfter: Double? { retryAfterSeconds }
    /// `localizedDescription`.
    package var bridgedMessage: String? { localizedDescription }
    /// `clientRecord`, `ancestorRecord`, `serverRecord`.
    package var bridgedConflictRecords: (client: CKRecord?, ancestor: CKRecord?, server: CKRecord?) {
      (clientRecord, ancestorRecord, serverRecord)
    }
    /// The per-record errors of a partial failure, by record ID.
    package var bridgedPartialErrors: [(id: (recordName: String, zoneName: String, ownerName: String), error: CKError)]
    {
      (partialErrorsByItemID ?? [:]).compactMap { id, error in
        guard let id = id.base as? CKRecord.ID, let error = error as? CKError else { return nil }
        return ((id.recordName, id.zoneID.zoneName, id.zoneID.ownerName), error)
      }
    }
  }

  extension Share {
    /// The share a `CKShare` holds: its record (see `Record.init(_:)`), participants with their identities,
    /// roles, permissions and acceptance, the public permission and the URL.
    /// - Parameter ckShare: The CloudKit share.
    /// - Throws: ``CloudKitBridgeError``.
    public init(_ ckShare: CKShare) throws(CloudKitBridgeError) {
      let record = try Record(bridging: ckShare)
      let participants = ckShare.participants.map { p in
        Participant(
          participantID: p.participantID,
          userIdentity: UserIdentity(
            userRecordName: p.userIdentity.userRecordID?.recordName,
            givenName: p.userIdentity.nameComponents?.givenName,
            familyName: p.userIdentity.nameComponents?.familyName,
            lookupInfo: p.userIdentity.lookupInfo.map {
              LookupInfo(
                emailAddress: $0.emailAddress, phoneNumber: $0.phoneNumber, userRecordName: $0.userRecordID?.recordName)
            }, hasICloudAccount: p.userIdentity.hasiCloudAccount),
          role: Role(rawValue: p.role.rawValue) ?? .unknown,
          permission: Permission(rawValue: p.permission.rawValue) ?? .unknown,
          acceptanceStatus: AcceptanceStatus(rawValue: p.acceptanceStatus.rawValue) ?? .unknown)
      }
      do {
        try self.init(
          record: record, participants: participants,
          publicPermission: Permission(rawValue: ckShare.publicPermission.rawValue) ?? .unknown,
          url: ckShare.url?.absoluteString)
      } catch {
        throw .invalidName(error)
      }
    }

    /// Writes the share's changed keys (title, thumbnail…) and public permission onto a `CKShare`. Participants are
    /// CloudKit's to add, through its sharing flow; their permissions are written for those the share already lists.
    /// - Parameter ckShare: The CloudKit share, usually the server's version.
    public func apply(to ckShare: CKShare) {
      record.apply(to: ckShare)
      if let permission = CKShare.ParticipantPermission(rawValue: publicPermission.rawValue),
        permission != ckShare.publicPermission
      {
        ckShare.publicPermission = permission
      }
      for participant in ckShare.participants {
        guard
          let mine = participants.first(where: { $0.participantID == participant.participantID }),
          let permission = CKShare.ParticipantPermission(rawValue: mine.permission.rawValue),
          permission != participant.permission
        else { continue }
        participant.permission = permission
      }
    }
  }

  extension Record {
    /// The record a `CKRecord` holds: its ID, type, values (plain and encrypted), changed keys, parent and system fields.
    /// - Parameter ckRecord: The CloudKit record.
    /// - Throws: ``CloudKitBridgeError``.
    public init(_ ckRecord: CKRecord) throws(CloudKitBridgeError) { try self.init(bridging: ckRecord) }

    /// Writes this record's ``changedKeys`` — each key's value, plain or encrypted, or its removal — and its parent
    /// onto a `CKRecord`, and nothing else.
    ///
    /// Apply a resolved record onto the server's `CKRecord` (from `serverRecordChanged`) and save that: the save
    /// carries the server's change tag, and only what the merge changed is marked changed. Rebuilding a `CKRecord`
    /// from scratch instead marks every key changed, which turns the next three-way merge into a conflict on every key.
    /// - Parameter ckRecord: The CloudKit record to write onto, usually the server's version.
    public func apply(to ckRecord: CKRecord) { apply(bridgingTo: ckRecord) }

    /// A `CKRecord` with this record's ID, type, every value and parent — and, for a record the server knows, its
    /// system fields (change tag included), restored through Apple's system-fields archive as `CKRecord(coder:)` reads
    /// it, so saving it compares against that tag. Every key is marked changed in it; to save a merge result,
    /// ``apply(to:)`` it onto the server's record instead.
    public var ckRecord: CKRecord {
      var record: CKRecord?
      if isKnownToServer, let archive = try? systemFieldsOnly.cloudKitSystemFieldsArchive(),
        let coder = try? NSKeyedUnarchiver(forReadingFrom: archive)
      {
        record = CKRecord(coder: coder)
        coder.finishDecoding()
      }
      let target = record ?? CKRecord(recordType: recordType, recordID: recordID.ckRecordID)
      var all = self
      for key in allKeys { all.markChanged(key) }
      all.apply(bridgingTo: target)
      return target
    }
  }
#endif
