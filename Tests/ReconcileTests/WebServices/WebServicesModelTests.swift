import Foundation
import Reconcile
import Testing

@Suite("Web Services: requests, responses, errors and conflicts")
struct WebServicesModelTests {
  static let notes = try! ZoneID(zoneName: "Notes")

  @Test("every documented error code maps to its HTTP status and back from its wire name")
  func errorCodes() {
    let table: [(String, Int, Bool)] = [
      ("ACCESS_DENIED", 403, false), ("ATOMIC_ERROR", 400, false), ("AUTHENTICATION_FAILED", 401, false),
      ("AUTHENTICATION_REQUIRED", 421, false), ("BAD_REQUEST", 400, false), ("CONFLICT", 409, false),
      ("EXISTS", 409, false), ("INTERNAL_ERROR", 500, false), ("NOT_FOUND", 404, false), ("QUOTA_EXCEEDED", 413, false),
      ("THROTTLED", 429, true), ("TRY_AGAIN_LATER", 503, true), ("VALIDATING_REFERENCE_ERROR", 412, false),
      ("ZONE_NOT_FOUND", 404, false), ("UNIQUE_FIELD_ERROR", 409, false),
    ]
    for (name, status, transient) in table {
      let code = WebServices.ErrorCode(wireName: name)
      #expect(code.wireName == name)
      #expect(code != .other(name), "\(name) is a known code")
      #expect(code.httpStatus == status, "\(name)")
      #expect(code.isTransient == transient, "\(name)")
    }
    #expect(WebServices.ErrorCode(wireName: "SOMETHING_NEW") == .other("SOMETHING_NEW"))
  }

  @Test("a throttle error carries its retry-after and is transient")
  func throttle() throws {
    let body = #"{"reason":"Database throttled, retry later","retryAfter":110207,"serverErrorCode":"THROTTLED"}"#
    let response = try WebServices.Response(json: Data(body.utf8), endpoint: .recordsModify, httpStatus: 429)
    guard case .error(let error) = response else {
      Issue.record("not an error")
      return
    }
    #expect(error.retryAfter == 110_207)
    #expect(error.isTransient)
    #expect(error.httpStatus == 429)
    #expect(response.httpStatus == 429)
    #expect(error.description == "THROTTLED (HTTP 429): Database throttled, retry later; retry after 110207.0 s")
  }

  @Test("a CONFLICT plus a lookup of the record becomes a Conflict a resolver merges, saved against the server's tag")
  func conflictFromLookup() throws {
    let id = try RecordID(recordName: "note-42", zoneID: Self.notes)
    var ancestor = Record(recordType: "Note", recordID: id)
    ancestor["title"] = "Hi"
    ancestor["body"] = "one"
    ancestor.recordChangeTag = "k3"
    ancestor.clearChangedKeys()
    var mine = ancestor
    mine["title"] = "Hello"
    let modify = #"""
      {"records":[{"recordName":"note-42","reason":"record to update has been modified","serverErrorCode":"CONFLICT","uuid":"0f1e"}]}
      """#
    let response = try WebServices.Response(json: Data(modify.utf8), endpoint: .recordsModify, zone: Self.notes)
    let error = try #require(response.records?.errors.first)
    #expect(error.code == .conflict)
    #expect(error.uuid == "0f1e")
    let lookupRequest = error.lookupRequest(for: mine)
    #expect(lookupRequest.recordIDs == [id])
    let lookup = #"""
      {"records":[{"recordName":"note-42","recordType":"Note","recordChangeTag":"k4",
        "fields":{"title":{"value":"Hi","type":"STRING"},"body":{"value":"two","type":"STRING"}},
        "zoneID":{"zoneName":"Notes","ownerRecordName":"_9a06"}}]}
      """#
    let found = try WebServices.Response(json: Data(lookup.utf8), endpoint: .recordsLookup, zone: Self.notes)
    // The lookup names the owner; the conflict matches the record by name and zone name.
    let conflict = try error.conflict(client: mine, ancestor: ancestor, lookup: try #require(found.records))
    let merged = try FieldMerge().resolve(conflict)
    #expect(merged["title"] == "Hello")
    #expect(merged["body"] == "two")
    #expect(merged.recordChangeTag == "k4")
  }

  @Test("the conflict step refuses what is not a conflict, and a record the server deleted")
  func conflictStepErrors() throws {
    let id = try RecordID(recordName: "n", zoneID: Self.notes)
    let mine = Record(recordType: "Note", recordID: id)
    let exists = WebServices.ServerError(code: .exists, recordName: "n")
    #expect(throws: WebServices.ConflictLookupError.notAConflict(.exists)) {
      try exists.conflict(client: mine, ancestor: nil, lookup: .init(results: []))
    }
    let conflict = WebServices.ServerError(code: .conflict, recordName: "n")
    #expect(throws: WebServices.ConflictLookupError.recordNotInLookup(id)) {
      try conflict.conflict(client: mine, ancestor: nil, lookup: .init(results: []))
    }
    #expect(throws: WebServices.ConflictLookupError.serverRecordDeleted(id)) {
      try conflict.conflict(client: mine, ancestor: nil, lookup: .init(results: [.deleted(id, recordType: nil)]))
    }
    let notFound = WebServices.ServerError(code: .notFound, recordName: "n", zoneID: Self.notes)
    #expect(throws: WebServices.ConflictLookupError.serverRecordDeleted(id)) {
      try conflict.conflict(client: mine, ancestor: nil, lookup: .init(results: [.failed(notFound)]))
    }
  }

  @Test("bodies are read only by the strict reader and written only by the validating writer: none is Codable")
  func bodiesAreNotCodable() {
    let bodies: [Any.Type] = [
      WebServices.ModifyRecordsRequest.self, WebServices.LookupRecordsRequest.self,
      WebServices.QueryRecordsRequest.self,
      WebServices.RecordChangesRequest.self, WebServices.ZoneRecordChangesRequest.self, WebServices.ChangesRequest.self,
      WebServices.LookupZonesRequest.self, WebServices.ModifyZonesRequest.self, WebServices.RecordsResponse.self,
      WebServices.RecordResult.self, WebServices.ZonesResponse.self, WebServices.ZoneResult.self,
      WebServices.ZoneInfo.self, WebServices.ZoneChangesResponse.self, WebServices.ServerError.self,
    ]
    for body in bodies {
      #expect(!(body is any Decodable.Type), "\(body) is Decodable: JSONDecoder would skip the strict checks")
      #expect(!(body is any Encodable.Type), "\(body) is Encodable: JSONEncoder would skip the record rules")
    }
  }

  @Test("every request kind round-trips through its endpoint")
  func requestsRoundTrip() throws {
    var note = Record(recordType: "Note", recordID: try RecordID(recordName: "n1", zoneID: Self.notes))
    note["title"] = "Hi"
    note["due"] = .timestamp(Date(timeIntervalSince1970: 1_700_000_000))
    let requests: [WebServices.Request] = [
      .modifyRecords(
        .init(
          zoneID: Self.notes,
          operations: [
            .create(note), .update(note), .forceUpdate(note), .replace(note), .forceReplace(note),
            .delete(note.recordID, recordChangeTag: "k3"), .forceDelete(note.recordID),
          ], atomic: true, desiredKeys: ["title"])),
      .lookupRecords(.init(zoneID: Self.notes, recordIDs: [note.recordID, try RecordID(recordName: "_u")])),
      .queryRecords(
        .init(
          zoneID: Self.notes,
          query: .init(
            recordType: "Note",
            filters: [
              .init(fieldName: "title", comparator: .beginsWith, fieldValue: "H"),
              .init(fieldName: "due", comparator: .lessThan, fieldValue: .timestamp(Date(timeIntervalSince1970: 2e9))),
            ], sorts: [.init(fieldName: "due", ascending: false)]), resultsLimit: 50, continuationMarker: "m")),
      .recordChanges(.init(zoneID: Self.notes, syncToken: "t", resultsLimit: 10, desiredKeys: ["title"])),
      .zoneRecordChanges(.init(zones: [.init(zoneID: Self.notes, syncToken: "t")])),
      .databaseChanges(.init(syncToken: "d", resultsLimit: 5)),
      .lookupZones(.init(zoneIDs: [Self.notes])),
      .modifyZones(.init(operations: [.create(Self.notes), .delete(try ZoneID(zoneName: "Old"))])),
      .zoneChanges(.init(syncToken: "z")),
      .listZones,
    ]
    for request in requests {
      let data = try request.jsonData()
      #expect(try WebServices.Request(json: data, endpoint: request.endpoint) == request, "\(request.endpoint)")
    }
  }

  @Test("a share saved in a modify request keeps its participants through decode and encode")
  func shareInModifyRequest() throws {
    var share = Share(recordID: try RecordID(recordName: "cloudkit.zoneshare", zoneID: Self.notes), title: "Notes")
    share.publicPermission = .readOnly
    share.participants = [
      .init(
        userIdentity: .init(userRecordName: "_bob"), role: .privateUser, permission: .readWrite,
        acceptanceStatus: .accepted)
    ]
    let request = WebServices.ModifyRecordsRequest(
      zoneID: Self.notes, operations: [.create(share.record)], shares: [share])
    let body = try WebServices.Request.modifyRecords(request).jsonData()
    #expect(String(decoding: body, as: UTF8.self).contains(#""participants""#))
    guard case .modifyRecords(let decoded) = try WebServices.Request(json: body, endpoint: .recordsModify) else {
      Issue.record("not a modify request")
      return
    }
    #expect(decoded.shares[share.recordID]?.participants == share.participants)
    #expect(decoded.shares[share.recordID]?.publicPermission == .readOnly)
    #expect(decoded == request)
  }

  @Test("a body of the wrong shape names the endpoint and the path; strict checks hold for whole bodies")
  func badBodies() {
    let unknownOperation = #"{"operations":[{"operationType":"explode","record":{"recordName":"n"}}]}"#
    let error = #expect(throws: WireJSONError.self) {
      try WebServices.Request(json: Data(unknownOperation.utf8), endpoint: .recordsModify)
    }
    #expect(error?.description.contains("records/modify request is invalid at operations.0.operationType") == true)
    #expect(error?.description.contains("explode") == true)
    let duplicate = #"{"records":[],"records":[]}"#
    #expect(throws: WireJSONError.duplicateKey("records", offset: 14)) {
      try WebServices.Response(json: Data(duplicate.utf8), endpoint: .recordsLookup)
    }
    let foreign = #"{"hello":"world"}"#
    let unknown = #expect(throws: WireJSONError.self) { try WebServices.Body(json: Data(foreign.utf8)) }
    #expect(unknown?.description.contains("top-level keys hello") == true)
    let badRecord = #"{"records":[{"recordName":"n","recordType":"T","fields":{"x":{"value":"a","type":"INT64"}}}]}"#
    let recordError = #expect(throws: WireJSONError.self) {
      try WebServices.Response(json: Data(badRecord.utf8), endpoint: .recordsQuery)
    }
    #expect(recordError?.description.contains("records/query response is invalid at records.0.fields.x.value") == true)
  }
}
