import Foundation
import Reconcile
import Testing

@Suite("Web Services: every real body in the fixtures")
struct WebServicesFixtureTests {
  /// Every single-body fixture, with what it must be recognised as.
  static let bodies: [(file: String, kind: String)] = [
    ("icloudpd-records-modify-update-request.json", "records/modify request"),
    ("icloudpd-records-modify-update-response.json", "records response"),
    ("icloudpd-records-query-continuationMarker-TRIMMED-response.json", "records/query response"),
    ("icloudpd-zones-list-private-response.json", "zones response"),
    ("pyicloud-invites-records-lookup-zoneshare-response.json", "records response"),
    ("pyicloud-photos-changes-database-response.json", "zones response"),
    ("pyicloud-photos-records-changes-zone-tombstone-response.json", "changes/zone response"),
    ("pyicloud-photos-records-modify-delete-request.json", "records/modify request"),
    ("pyicloud-photos-records-modify-delete-response.json", "records response"),
    ("pyicloud-photos-zones-list-response.json", "zones response"),
    ("shortcuts-icloud-api-SharedShortcut-record.json", "record"),
    ("talktocloud-public-record-Mapping.json", "record"),
  ]

  static func body(_ file: String) throws -> Data { try Fixtures.data("web-services/" + file) }

  @Test("each body is recognised, decodes, and re-encodes to a body that decodes the same", arguments: bodies)
  func roundTrips(file: String, kind: String) throws {
    let body = try WebServices.Body(json: Self.body(file))
    #expect(body.kind == kind)
    let again = try WebServices.Body(json: Self.encoded(body))
    #expect(again == body, "\(file) changed in a round trip")
  }

  static func encoded(_ body: WebServices.Body) throws -> Data {
    switch body {
    case .record(let record): return try record.wireJSON()
    case .share(let share): return try share.wireJSON()
    case .request(let request): return try request.jsonData()
    case .response(let response, _): return try response.jsonData()
    }
  }

  @Test("an update request: zone, atomic, desiredKeys, and a field without a type read as INT64")
  func updateRequest() throws {
    let request = try WebServices.Request(
      json: Self.body("icloudpd-records-modify-update-request.json"), endpoint: .recordsModify)
    guard case .modifyRecords(let modify) = request, case .update(let record)? = modify.operations.first else {
      Issue.record("not an update: \(request)")
      return
    }
    let zone = try ZoneID(zoneName: "PrimarySync")
    #expect(modify.zoneID == zone)
    #expect(modify.atomic == true)
    #expect(modify.desiredKeys == ["isDeleted"])
    #expect(record.recordID.zoneID == zone, "a record without zoneID takes the request's")
    #expect(record.recordChangeTag == "1s2g")
    #expect(record["isDeleted"] == .int64(1))
  }

  @Test("a modify response: new tag, device IDs of every form, user names starting with '_', top-level syncToken")
  func updateResponse() throws {
    let zone = try ZoneID(zoneName: "PrimarySync")
    let response = try WebServices.Response(
      json: Self.body("icloudpd-records-modify-update-response.json"), endpoint: .recordsModify, zone: zone)
    let records = try #require(response.records)
    #expect(records.syncToken == "AQAAAAAAAURhf/////////+LxHA1AvhAx66JMCtmgB8J")
    let record = try #require(records.records.first)
    #expect(record.recordID.zoneID == zone)
    #expect(record.recordChangeTag == "1s2k")
    #expect(record.modifiedByDevice == "2")
    #expect(record.creatorUserRecordName == "_cfcd54372a11173505ad48f023ba188d")
  }

  @Test("a query page: continuation marker, sync token, assets with wrapping keys, encrypted bytes")
  func queryPage() throws {
    let response = try WebServices.Response(
      json: Self.body("icloudpd-records-query-continuationMarker-TRIMMED-response.json"), endpoint: .recordsQuery)
    let records = try #require(response.records)
    #expect(records.results.count == 2)
    #expect(records.continuationMarker?.hasPrefix("EgYZYs4r") == true)
    #expect(records.syncToken != nil)
    let master = records.records[0]
    guard case .asset(let asset)? = master["resOriginalRes"] else {
      Issue.record("no asset")
      return
    }
    #expect(asset.wrappingKey == "Aj375aJi6sEmqgJPj64+7Q==")
    #expect(master.encryptedValues["filenameEnc"] == .bytes(Data(base64Encoded: "SU1HXzc0MDkuSlBH")!))
  }

  @Test("a zone's change page: the tombstone has no type and takes its zone")
  func zoneChangesWithTombstone() throws {
    let response = try WebServices.Response(
      json: Self.body("pyicloud-photos-records-changes-zone-tombstone-response.json"), endpoint: .changesZone)
    guard case .zoneChanges(let changes) = response, case .success(let zone)? = changes.zones.first else {
      Issue.record("not zone changes: \(response)")
      return
    }
    let primary = try ZoneID(zoneName: "PrimarySync", ownerName: "OWNER_RECORD_NAME_001")
    #expect(zone.zoneID == primary)
    #expect(zone.syncToken == "SYNC_TOKEN_103")
    #expect(zone.moreComing == false)
    #expect(zone.results.count == 2)
    #expect(
      zone.results[1] == .deleted(try RecordID(recordName: "ALBUM_RECORD_ID_999", zoneID: primary), recordType: nil))
  }

  @Test("a delete request and its result, and the database's changed zones")
  func deletesAndZones() throws {
    let request = try WebServices.Request(
      json: Self.body("pyicloud-photos-records-modify-delete-request.json"), endpoint: .recordsModify)
    guard case .modifyRecords(let modify) = request, case .forceDelete(let id)? = modify.operations.first else {
      Issue.record("not a forceDelete: \(request)")
      return
    }
    #expect(id.recordName == "ASSET_RECORD_ID_031-IN-ALBUM_RECORD_ID_001")
    let result = try WebServices.Response(
      json: Self.body("pyicloud-photos-records-modify-delete-response.json"), endpoint: .recordsModify,
      zone: modify.zoneID)
    #expect(result.records?.deletedIDs == [id])
    let database = try WebServices.Response(
      json: Self.body("pyicloud-photos-changes-database-response.json"), endpoint: .changesDatabase)
    #expect(database.zones?.zones.map(\.zoneID?.zoneName) == ["PrimarySync", "CustomZone"])
    #expect(database.zones?.syncToken == "SYNC_TOKEN_102")
    let listed = try WebServices.Response(
      json: Self.body("icloudpd-zones-list-private-response.json"), endpoint: .zonesList)
    guard case .zone(let info)? = listed.zones?.zones.first else {
      Issue.record("no zone")
      return
    }
    #expect(info.zoneType == "REGULAR_CUSTOM_ZONE")
    #expect(info.zoneID.ownerName == "_bfc6dbbcc77b03e6cebefd28a28f7e2f")
  }

  @Test("a zone-wide share in a lookup: participants, public permission, title, and fields marked isEncrypted")
  func shareLookup() throws {
    let response = try WebServices.Response(
      json: Self.body("pyicloud-invites-records-lookup-zoneshare-response.json"), endpoint: .recordsLookup)
    let results = try #require(response.records?.results)
    guard case .record(let event) = results[0], case .share(let share) = results[1] else {
      Issue.record("expected a record and a share: \(results)")
      return
    }
    #expect(event.encryptedValues["title"] == "Event Fixture A")
    #expect(event["isCancelled"] == .int64(0))
    #expect(share.isZoneWide)
    #expect(share.title == "Event Fixture A")
    #expect(share.publicPermission == .readWrite)
    #expect(share.shortGUID == "008TESTFIXTUREAAAA")
    #expect(share.participants.map(\.role) == [.owner, .publicUser])
    #expect(share.owner?.userIdentity.lookupInfo?.emailAddress == "owner@example.com")
    #expect(share.participants[1].userIdentity.userRecordName == "++FAKEGUESTRECORDNAME=")
  }

  @Test("NUMBER_INT64 reads as INT64, and writes as INT64")
  func numberInt64() throws {
    let body = try WebServices.Body(json: Self.body("shortcuts-icloud-api-SharedShortcut-record.json"))
    guard case .record(let record) = body else {
      Issue.record("not a record")
      return
    }
    #expect(record["icon_color"] == .int64(4_274_264_319))
    let written = String(decoding: try record.wireJSON(), as: UTF8.self)
    #expect(!written.contains("NUMBER_INT64"))
  }

  @Test("every body of the detectify collection decodes: per-record and per-zone errors, force deletes, zones")
  func detectifyCollection() throws {
    let collection = try Self.collection("detectify-real-ckws-error-and-zone-responses.json", list: "responses")
    var codes: [String] = []
    for (body, _) in collection {
      let decoded = try WebServices.Body(json: body)
      guard case .response(let response, _) = decoded else {
        Issue.record("not a response: \(decoded.kind)")
        continue
      }
      codes += response.records?.errors.map(\.code.wireName) ?? []
      for zone in response.zones?.zones ?? [] {
        if case .failed(let error) = zone { codes.append(error.code.wireName) }
      }
      #expect(try WebServices.Body(json: Self.encoded(decoded)) == decoded)
    }
    #expect(codes == ["ACCESS_DENIED", "ACCESS_DENIED", "BAD_REQUEST", "NOT_SUPPORTED_BY_ZONE"])
  }

  @Test("request-level error bodies decode with their HTTP status, code and reason")
  func requestLevelErrors() throws {
    let collection = try Self.collection("observed-ckws-error-bodies.json", list: "bodies")
    var seen: [String] = []
    for (body, status) in collection {
      let response = try WebServices.Response(json: body, endpoint: .recordsQuery, httpStatus: status ?? 200)
      guard case .error(let error) = response else {
        Issue.record("not an error")
        continue
      }
      #expect(error.httpStatus == status)
      #expect(error.code.httpStatus == status)
      #expect(!error.isTransient)
      seen.append(error.code.wireName)
    }
    #expect(seen == ["AUTHENTICATION_FAILED", "BAD_REQUEST", "ZONE_NOT_FOUND"])
  }

  /// The bodies (and HTTP statuses) listed under `list` in a collection fixture.
  static func collection(_ file: String, list: String) throws -> [(Data, Int?)] {
    let object = try JSONSerialization.jsonObject(with: body(file)) as? [String: Any]
    let entries = try #require(object?[list] as? [[String: Any]])
    return try entries.map { entry in
      (try JSONSerialization.data(withJSONObject: try #require(entry["body"])), entry["http"] as? Int)
    }
  }
}
