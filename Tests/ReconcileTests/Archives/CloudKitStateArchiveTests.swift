import Foundation
import Reconcile
import Testing

@Suite("Apple's archived tokens, IDs and shares")
struct CloudKitStateArchiveTests {
  @Test(
    "real archived CKServerChangeTokens read as their bytes, whether stored as data or as NSMutableData",
    arguments: [
      ("canopy-server-change-token.bplist", "9 bytes: 01000001861120693e"),
      ("synckit-server-change-token.bplist", "9 bytes: 0100000163dad43502"),
    ])
  func readsChangeTokens(file: String, expected: String) throws {
    let data = try Fixtures.data(file)
    let token = try ServerChangeToken(cloudKitArchive: data)
    #expect(token.description == expected)
    #expect(try CloudKitArchive(data: data) == .serverChangeToken(token))
    #expect(try ServerChangeToken(cloudKitArchive: token.cloudKitArchive()) == token)
  }

  @Test("a real archived CKRecord.ID and an array of CKRecordZone.IDs read, and write back")
  func readsIDs() throws {
    let id = try RecordID(cloudKitArchive: try Fixtures.data("canopy-record-id.bplist"))
    #expect(id == (try RecordID(recordName: "mockRecordName")))
    #expect(try RecordID(cloudKitArchive: id.cloudKitArchive()) == id)
    let zones = try CloudKitArchive(data: try Fixtures.data("canopy-record-zone-id-array.bplist"))
    let expected = try ZoneID(zoneName: "changedZone", ownerName: "owner1")
    #expect(zones == .array([.zoneID(expected)]))
    #expect(try CloudKitArchive(data: zones.archivedData()) == zones)
    #expect(try ZoneID(cloudKitArchive: expected.cloudKitArchive()) == expected)
  }

  @Test("asking for one kind of archive and finding another names both")
  func wrongKindIsNamed() throws {
    let token = try Fixtures.data("canopy-server-change-token.bplist")
    #expect(
      throws: CloudKitArchiveError.unexpectedClass(field: "root", expected: "CKRecordID", found: "CKServerChangeToken")
    ) {
      try RecordID(cloudKitArchive: token)
    }
    let record = try Fixtures.data("synckit-system-fields-QSCompany.bplist")
    #expect(
      throws: CloudKitArchiveError.unexpectedClass(
        field: "RecordType", expected: "cloudkit.share", found: "record system fields")
    ) {
      try Share(cloudKitSystemFieldsArchive: record)
    }
    let error = #expect(throws: CloudKitArchiveError.self) {
      try CloudKitArchive(data: Self.archive(rootClass: "CKSubscription"))
    }
    #expect(error?.description.contains("CKSubscription") == true)
  }

  @Test("Apple Notes' real system fields, with keys directly in $top and scoped zone IDs, read as a record")
  func readsNotesSystemFields() throws {
    guard
      case .record(let record) = try CloudKitArchive(
        data: Fixtures.data("apple-notes-system-fields-AccountData.bplist"))
    else {
      Issue.record("not a record")
      return
    }
    #expect(record.recordType == "AccountData")
    #expect(record.recordID == (try RecordID(recordName: "AccountData", zoneID: ZoneID(zoneName: "Notes"))))
    #expect(record.recordChangeTag == "ey")
    #expect(record.modifiedByDevice == "Tester’s iPhone")
  }

  @Test("a real archived query cursor reads its zone and bytes; whole record zones read their IDs; both write back")
  func readsCursorAndZones() throws {
    let cursorData = try Fixtures.data("canopy-query-cursor.bplist")
    guard case .queryCursor(let cursor) = try CloudKitArchive(data: cursorData) else {
      Issue.record("not a query cursor")
      return
    }
    #expect(cursor.zoneID == (try ZoneID(zoneName: "Chats")))
    #expect(cursor.data.count == 373)
    #expect(try CloudKitArchive(data: CloudKitArchive.queryCursor(cursor).archivedData()) == .queryCursor(cursor))

    let zonesData = try Fixtures.data("canopy-record-zone-array.bplist")
    guard case .array(let items) = try CloudKitArchive(data: zonesData) else {
      Issue.record("not an array")
      return
    }
    let zones = items.compactMap { item -> ArchivedZone? in
      if case .recordZone(let zone) = item { return zone }
      return nil
    }
    #expect(zones.map(\.zoneID.zoneName) == ["someZone1", "someZone2"])
    #expect(zones.allSatisfy { $0.zoneID.ownerName == "someOwner" && $0.capabilities == [] && $0.share == nil })
    let again = try CloudKitArchive(data: CloudKitArchive.array(items).archivedData())
    #expect(again == .array(items))
  }

  @Test("a zone's undocumented keys write back with it, objects too: its change token, dates and key IDs")
  func zoneKeepsObjectValuedKeys() throws {
    let data = try Fixtures.data("synthetic-record-zone-with-token.bplist")
    guard case .recordZone(let zone) = try CloudKitArchive(data: data) else {
      Issue.record("not a zone")
      return
    }
    #expect(zone.zoneID.zoneName == "Notes")
    #expect(zone.capabilities == [.fetchChanges, .atomic, .sharing])
    let written = try CloudKitArchive.recordZone(zone).archivedData()
    #expect(try CloudKitArchive(data: written) == .recordZone(zone))
    // The objects themselves, read back by Foundation from what Reconcile wrote.
    let plist = try PropertyListSerialization.propertyList(from: written, format: nil) as? [String: Any]
    let objects = plist?["$objects"] as? [Any] ?? []
    let datas = objects.compactMap { $0 as? Data }
    #expect(datas.contains(Data([0x01, 0x00, 0x00, 0x01, 0x86, 0x11, 0x20, 0x69, 0xab])), "the change token's bytes")
    #expect(datas.contains(Data([0xc0, 0xff, 0xee, 0x00, 0x01])), "the PCS key ID")
    #expect(datas.contains(Data([0xde, 0xad, 0x00, 0x02])), "the key ID to remove, inside its array")
    let times = objects.compactMap { ($0 as? [String: Any])?["NS.time"] as? Double }
    #expect(times == [787_000_000.5], "the expiration date")
    let classNames = objects.compactMap { ($0 as? [String: Any])?["$classname"] as? String }
    #expect(Set(classNames).isSuperset(of: ["CKServerChangeToken", "NSDate", "NSArray", "CKRecordZone"]))
  }

  @Test("a whole archived record's values read back: strings, numbers, dates, data, references and lists of them")
  func wholeRecordValuesReadBack() throws {
    let notes = try ZoneID(zoneName: "Notes")
    var record = Record(recordType: "Note", recordID: try RecordID(recordName: "note-1", zoneID: notes))
    record["title"] = "Groceries"
    record["count"] = 3
    record["ratio"] = 0.5
    record["due"] = .timestamp(Date(timeIntervalSinceReferenceDate: 787_000_000.5))
    record["blob"] = .bytes(Data([1, 2, 3]))
    record["tags"] = ["home", "weekly"]
    let folder = try RecordID(recordName: "folder-1", zoneID: notes)
    record["folder"] = .reference(Reference(recordID: folder, action: .deleteSelf))
    record["related"] = .list([
      .reference(Reference(recordID: try RecordID(recordName: "note-2", zoneID: notes))),
      .reference(Reference(recordID: try RecordID(recordName: "note-3", zoneID: notes))),
    ])
    guard case .record(let read) = try CloudKitArchive(data: CloudKitArchive.record(record).archivedData()) else {
      Issue.record("not a record")
      return
    }
    for key in record.allKeys { #expect(read[key] == record[key], "\(key)") }
    #expect(read.allKeys == record.allKeys)
  }

  @Test("a whole archived share reads its values; they write back in a whole archive, never in system fields")
  func readsWholeShareValues() throws {
    let data = try Fixtures.data("canopy-ckshare-owned-by-current-user-SANITIZED.bplist")
    guard case .share(let share) = try CloudKitArchive(data: data) else {
      Issue.record("not a share")
      return
    }
    #expect(share.title == "Personed")
    #expect(try CloudKitArchive(data: CloudKitArchive.share(share).archivedData()) == .share(share))
    #expect(try Share(cloudKitSystemFieldsArchive: share.cloudKitSystemFieldsArchive()).title == nil)
  }

  @Test("real archived share metadata reads its container, root record, invited user and share, and writes back")
  func readsShareMetadata() throws {
    let data = try Fixtures.data("canopy-ckshare-metadata-SANITIZED.bplist")
    guard case .shareMetadata(let metadata) = try CloudKitArchive(data: data) else {
      Issue.record("not share metadata")
      return
    }
    #expect(metadata.containerIdentifier == "iCloud.com.justtact.Tact")
    #expect(metadata.rootRecordType == "Chat")
    #expect(metadata.rootRecordID?.recordName == "7960E319-331D-482B-8723-1B2E2FCE5A0C")
    #expect(metadata.participantPermission == .readWrite)
    #expect(metadata.participantStatus == .pending)
    #expect(metadata.callingParticipant?.userIdentity.userRecordName == "_bdf6aa2b52d0ab349a2c10c259846771")
    #expect(metadata.share.participants.count == 2)
    #expect(metadata.share.record.recordID.recordName == "7960E319-331D-482B-8723-1B2E2FCE5A0C-share")
    #expect(metadata.sharedItemHierarchyIDs.map(\.recordName) == ["7960E319-331D-482B-8723-1B2E2FCE5A0C"])
    #expect(metadata.tokens.keys.sorted() == ["EncryptedData", "PrivateToken", "ProtectedFullToken"])
    #expect(metadata.tokens.values.allSatisfy { !$0.isEmpty })
    let again = try CloudKitArchive(data: CloudKitArchive.shareMetadata(metadata).archivedData())
    #expect(again == .shareMetadata(metadata))
  }

  @Test("a real archived lone share participant reads who it is, its role, permission and acceptance, and writes back")
  func readsParticipant() throws {
    let data = try Fixtures.data("canopy-ckshare-participant.bplist")
    guard case .participant(let participant) = try CloudKitArchive(data: data) else {
      Issue.record("not a participant")
      return
    }
    #expect(participant.participantID == "EEB9BFF4-7E48-4F96-851C-8EB700EEE2F5")
    #expect(participant.userIdentity.userRecordName == "_2b7e26881cff67a963691b4d57c73efe")
    #expect(participant.permission == .readOnly)
    #expect(participant.acceptanceStatus == .pending)
    #expect(
      try CloudKitArchive(data: CloudKitArchive.participant(participant).archivedData()) == .participant(participant))
  }

  @Test("a real archived CKAccountInfo reads its status and fields, and writes back to the same values")
  func readsAccountInfo() throws {
    let data = try Fixtures.data("macos-assistantd-ckaccountinfo.bplist")
    let info = try AccountInfo(cloudKitArchive: data)
    #expect(info.status == .available)
    #expect(info.status.description == "available")
    #expect(info.hasValidCredentials == true)
    #expect(info.deviceToDeviceEncryptionAvailability == 3)
    #expect(info.accountPartition == 1)
    #expect(info.validationCounter == 43)
    #expect(try CloudKitArchive(data: data) == .accountInfo(info))
    #expect(try AccountInfo(cloudKitArchive: info.cloudKitArchive()) == info)
    #expect(try CloudKitArchive(data: CloudKitArchive.accountInfo(info).archivedData()) == .accountInfo(info))
    #expect(AccountInfo.Status(rawValue: 9).description == "unknown (9)")
  }

  @Test("an account info without a status, or with a status that is not a number, is refused naming the field")
  func refusesBadAccountInfo() throws {
    func archive(_ fields: [String: Any]) throws -> Data {
      var objects: [Any] = ["$null"]
      var object = fields
      object["$class"] = ["CF$UID": 2]
      objects.append(object)
      objects.append(["$classname": "CKAccountInfo", "$classes": ["CKAccountInfo", "NSObject"]])
      let plist: [String: Any] = [
        "$version": 100_000, "$archiver": "NSKeyedArchiver", "$top": ["root": ["CF$UID": 1]], "$objects": objects,
      ]
      return try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
    }
    #expect(throws: CloudKitArchiveError.missingField("root.AccountStatus")) {
      try AccountInfo(cloudKitArchive: try archive(["HasValidCredentials": true]))
    }
    let notANumber = #expect(throws: CloudKitArchiveError.self) {
      try AccountInfo(cloudKitArchive: try archive(["AccountStatus": "yes"]))
    }
    #expect(notANumber?.description.contains("root.AccountStatus") == true, "\(String(describing: notANumber))")
    #expect(throws: CloudKitArchiveError.self) {
      try AccountInfo(cloudKitArchive: try Fixtures.data("canopy-record-id.bplist"))
    }
  }

  @Test("a share's system fields read with participants, identities, roles, permissions and acceptance")
  func readsShareArchive() throws {
    let share = try Share(cloudKitSystemFieldsArchive: try Fixtures.data("synthetic-share-system-fields.bplist"))
    #expect(share.recordID.recordName == "Share-00000000-0000-4000-8000-00000000abcd")
    #expect(share.recordID.zoneID.zoneName == "Notes")
    #expect(share.record.recordChangeTag == "1av")
    #expect(share.publicPermission == .none)
    #expect(share.url == nil)
    #expect(share.participants.count == 2)
    let owner = try #require(share.owner)
    #expect(owner.userIdentity.userRecordName == "__defaultOwner__")
    #expect(owner.userIdentity.givenName == "Ada")
    #expect(owner.userIdentity.lookupInfo?.emailAddress == "ada@example.invalid")
    #expect(owner.permission == .readWrite)
    #expect(owner.acceptanceStatus == .accepted)
    #expect(owner.isCurrentUser)
    let guest = share.participants[1]
    #expect(guest.role == .privateUser)
    #expect(guest.permission == .readOnly)
    #expect(guest.acceptanceStatus == .pending)
    #expect(guest.userIdentity.userRecordName == "_0123456789abcdef0123456789abcdef")
    #expect(try Share(cloudKitSystemFieldsArchive: share.cloudKitSystemFieldsArchive()) == share)
  }

  @Test("a written share has Apple's share keys, and reads back without its values, as system fields never hold values")
  func foundationReadsWrittenShare() throws {
    var share = Share(recordID: try RecordID(recordName: "s1", zoneID: ZoneID(zoneName: "Trip")), title: "Trip")
    share.publicPermission = .readOnly
    share.participants = [
      .init(
        participantID: "p1", userIdentity: .init(userRecordName: "_ab", givenName: "A"), role: .owner,
        permission: .readWrite, acceptanceStatus: .accepted)
    ]
    let data = try share.cloudKitSystemFieldsArchive()
    let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    let top = try #require(plist?["$top"] as? [String: Any])
    #expect(top["PublicPermission"] as? Int == 2)
    #expect(top["Participants"] != nil)
    let read = try Share(cloudKitSystemFieldsArchive: data)
    #expect(read.participants == share.participants)
    #expect(read.publicPermission == .readOnly)
    #expect(read.recordID == share.recordID)
    #expect(read.title == nil)
  }

  @Test("an archived array that contains itself is an error, not endless recursion")
  func selfContainingArrayIsRefused() throws {
    let data = try Self.archive(rootClass: "NSArray", fields: ["NS.objects": [["CF$UID": 1]]])
    let error = #expect(throws: CloudKitArchiveError.self) { try CloudKitArchive(data: data) }
    #expect(error?.description.contains("nested at most 4 deep") == true)
  }

  @Test("two classes that share a name but not a superclass chain each write back with their own (a fuzz find)")
  func classesSharingANameKeepTheirChains() throws {
    let more: [Any] = [
      ["ZoneName": ["CF$UID": 4], "ownerName": ["CF$UID": 5], "$class": ["CF$UID": 6]], "Notes", "__defaultOwner__",
      ["$classname": "CKRecordZoneID", "$classes": ["CKRecordZoneID", "NSObject"]],
      ["NS.time": 1.5, "$class": ["CF$UID": 8]], ["$classname": "NSArray", "$classes": ["NSDate", "NSObject"]],
      ["NS.objects": [] as [Any], "$class": ["CF$UID": 10]],
      ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
    ]
    let data = try Self.archive(
      rootClass: "CKRecordZone",
      fields: ["ZoneID": ["CF$UID": 3], "ExpirationDate": ["CF$UID": 7], "InvitedKeysToRemove": ["CF$UID": 9]],
      more: more)
    let zone = try CloudKitArchive(data: data)
    #expect(try CloudKitArchive(data: zone.archivedData()) == zone)
  }

  @Test("a zone key holding a bare array or dictionary of references writes back what they refer to, not stale UIDs")
  func bareCollectionsKeepWhatTheyReferTo() throws {
    let more: [Any] = [
      ["ZoneName": ["CF$UID": 4], "ownerName": ["CF$UID": 5], "$class": ["CF$UID": 6]], "Notes", "__defaultOwner__",
      ["$classname": "CKRecordZoneID", "$classes": ["CKRecordZoneID", "NSObject"]],
      [["CF$UID": 8]], "first key",
      ["only": ["CF$UID": 10]], "second key",
    ]
    let data = try Self.archive(
      rootClass: "CKRecordZone",
      fields: ["ZoneID": ["CF$UID": 3], "InvitedKeysToRemove": ["CF$UID": 7], "ZoneishKeyID": ["CF$UID": 9]],
      more: more)
    let zone = try CloudKitArchive(data: data)
    let written = try zone.archivedData()
    #expect(try CloudKitArchive(data: written) == zone)
    let plist = try PropertyListSerialization.propertyList(from: written, format: nil) as? [String: Any]
    let strings = (plist?["$objects"] as? [Any] ?? []).compactMap { $0 as? String }
    #expect(strings.contains("first key") && strings.contains("second key"))
  }

  @Test("a zone key whose object refers to itself is an error naming the key, not endless recursion")
  func selfContainingZoneKeyIsRefused() throws {
    // The zone (UID 1) is its own change token: the chain of references never ends.
    let zoneID: [Any] = [
      ["ZoneName": ["CF$UID": 4], "ownerName": ["CF$UID": 5], "$class": ["CF$UID": 6]], "Notes", "__defaultOwner__",
      ["$classname": "CKRecordZoneID", "$classes": ["CKRecordZoneID", "NSObject"]],
    ]
    let data = try Self.archive(
      rootClass: "CKRecordZone", fields: ["ZoneID": ["CF$UID": 3], "CurrentServerChangeToken": ["CF$UID": 1]],
      more: zoneID)
    let error = #expect(throws: CloudKitArchiveError.self) { try CloudKitArchive(data: data) }
    #expect(error?.description.contains("objects nested at most 16 deep") == true, "\(String(describing: error))")
    #expect(error?.description.contains("CurrentServerChangeToken") == true)
  }

  /// A keyed archive whose root object (UID 1) has `rootClass` and `fields`, written by Foundation.
  /// `more` objects follow, from UID 3 on.
  static func archive(rootClass: String, fields: [String: Any] = [:], more: [Any] = []) throws -> Data {
    var root = fields
    root["$class"] = ["CF$UID": 2]
    let xml = try PropertyListSerialization.data(
      fromPropertyList: [
        "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": ["CF$UID": 1]],
        "$objects": ["$null", root, ["$classname": rootClass, "$classes": [rootClass, "NSObject"]]] + more,
      ], format: .xml, options: 0)
    // Foundation writes UIDs as {CF$UID: n} dictionaries in XML, which is how keyed archives spell them.
    return xml
  }
}
