import Foundation
import Reconcile
import ReconcileSimulator

/// The text `inspect` prints: a table of a record's fields, a share's participants, a token's bytes, and one line per
/// entry of a request or response (records, tombstones, errors with their codes), then tokens, `moreComing` and markers.
enum InspectText {
  static func render(_ contents: InspectCommand.Contents) -> String {
    switch contents {
    case .reconcileArchive(let record), .localRecord(let record): return table(recordRows(record))
    case .keyedArchive(let archive): return archiveText(archive)
    case .webServices(let body): return bodyText(body)
    case .collection(let collection):
      return collection.entries.map { entry in
        switch entry.body {
        case .success(let body): return "\(entry.label) \(body.kind)\n" + bodyText(body)
        case .failure(let error): return "\(entry.label) error: \(error)\n"
        }
      }.joined()
    }
  }

  private static func table(_ rows: [(String, String)]) -> String {
    TextTable.render(rows.map { [$0.0, $0.1] }, header: false)
  }

  private static func archiveText(_ archive: CloudKitArchive) -> String {
    switch archive {
    case .record(let record): return table(recordRows(record))
    case .share(let share): return table(shareRows(share))
    case .serverChangeToken(let token): return table([("token", token.description)])
    case .recordID(let id): return table(idRows(id))
    case .zoneID(let zone): return table([("zoneName", zone.zoneName), ("ownerName", zone.ownerName)])
    case .accountInfo(let info): return table(accountRows(info))
    case .participant(let participant):
      return table([("participantID", participant.participantID ?? "–"), ("participant", participantText(participant))])
    case .shareMetadata(let metadata):
      var rows: [(String, String)] = [
        ("container", metadata.containerIdentifier ?? "–"),
        ("environment", metadata.containerEnvironment.map(String.init) ?? "–"),
        ("rootRecord", metadata.rootRecordID.map { "\(metadata.rootRecordType ?? "?") \($0)" } ?? "–"),
        ("role", metadata.participantRole.map { "\($0)" } ?? "–"),
        ("permission", metadata.participantPermission.map { "\($0)" } ?? "–"),
        ("status", metadata.participantStatus.map { "\($0)" } ?? "–"),
        ("callingParticipant", metadata.callingParticipant.map(participantText) ?? "–"),
        ("owner", metadata.ownerIdentity?.userRecordName ?? "–"),
        (
          "hierarchy",
          metadata.sharedItemHierarchyIDs.isEmpty
            ? "–" : metadata.sharedItemHierarchyIDs.map(\.description).joined(separator: ", ")
        ),
        // Tokens are secrets: their sizes only.
        (
          "tokens",
          metadata.tokens.isEmpty
            ? "–"
            : metadata.tokens.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value.count) bytes)" }.joined(
              separator: ", ")
        ),
      ]
      rows += shareRows(metadata.share).map { ("share " + $0.0, $0.1) }
      return table(rows)
    case .queryCursor(let cursor):
      let zone = cursor.zoneID.map { [("zoneName", $0.zoneName), ("ownerName", $0.ownerName)] } ?? [("zone", "–")]
      return table(zone + [("cursor", "\(cursor.data.count) bytes")])
    case .recordZone(let zone):
      return table([
        ("zoneName", zone.zoneID.zoneName), ("ownerName", zone.zoneID.ownerName),
        ("capabilities", capabilityNames(zone.capabilities)), ("share", zone.share?.description ?? "–"),
      ])
    case .array(let items):
      return items.enumerated().map { "[\($0.offset)] \($0.element.kind)\n" + archiveText($0.element) }.joined()
    }
  }

  /// A zone's capabilities by name, then the raw bits.
  private static func capabilityNames(_ capabilities: ArchivedZone.Capabilities) -> String {
    let names: [(ArchivedZone.Capabilities, String)] = [
      (.fetchChanges, "fetchChanges"), (.atomic, "atomic"), (.sharing, "sharing"),
      (.zoneWideSharing, "zoneWideSharing"),
    ]
    let named = names.filter { capabilities.contains($0.0) }.map(\.1)
    return (named.isEmpty ? "none" : named.joined(separator: ", ")) + " (\(capabilities.rawValue))"
  }

  /// The account's status, then the undocumented fields it holds.
  private static func accountRows(_ info: AccountInfo) -> [(String, String)] {
    var rows = [("accountStatus", "\(info.status) (\(info.status.rawValue))")]
    if let valid = info.hasValidCredentials { rows.append(("hasValidCredentials", "\(valid)")) }
    if let value = info.deviceToDeviceEncryptionAvailability {
      rows.append(("deviceToDeviceEncryptionAvailability", "\(value)"))
    }
    if let value = info.accountPartition { rows.append(("accountPartition", "\(value)")) }
    if let value = info.validationCounter { rows.append(("validationCounter", "\(value)")) }
    return rows
  }

  private static func bodyText(_ body: WebServices.Body) -> String {
    switch body {
    case .record(let record): return table(recordRows(record))
    case .share(let share): return table(shareRows(share))
    case .request(let request): return table(requestRows(request))
    case .response(let response, _): return table(responseRows(response))
    }
  }

  static func recordRows(_ r: Record) -> [(String, String)] {
    var rows = [("recordType", r.recordType)] + idRows(r.recordID)
    let optional: [(String, String?)] = [
      ("recordChangeTag", r.recordChangeTag), ("creationDate", r.creationDate.map(iso)),
      ("modificationDate", r.modificationDate.map(iso)), ("creatorUserRecordName", r.creatorUserRecordName),
      ("lastModifiedUserRecordName", r.lastModifiedUserRecordName), ("modifiedByDevice", r.modifiedByDevice),
      ("parent", r.parent?.description), ("share", r.share?.description),
    ]
    rows += optional.map { ($0.0, $0.1 ?? "–") }
    if r.isDeleted { rows.append(("deleted", "true")) }
    for key in r.values.keys.sorted() { rows.append(("field " + key, r[key]?.description ?? "")) }
    for key in r.encryptedValues.keys { rows.append(("field " + key, "<encrypted>")) }
    return rows
  }

  private static func shareRows(_ share: Share) -> [(String, String)] {
    var rows = recordRows(share.record)
    rows.append(("publicPermission", share.publicPermission.wireName))
    if let url = share.url { rows.append(("url", url)) }
    if let guid = share.shortGUID { rows.append(("shortGUID", guid)) }
    for (index, p) in share.participants.enumerated() { rows.append(("participant \(index)", participantText(p))) }
    return rows
  }

  /// Who a participant is, then their role, permission and acceptance.
  private static func participantText(_ p: Share.Participant) -> String {
    var who = p.userIdentity.userRecordName ?? "–"
    if let email = p.userIdentity.lookupInfo?.emailAddress { who += " <\(email)>" }
    let name = [p.userIdentity.givenName, p.userIdentity.familyName].compactMap { $0 }.joined(separator: " ")
    if !name.isEmpty { who += " (\(name))" }
    return "\(who) \(p.role) \(p.permission) \(p.acceptanceStatus)"
  }

  private static func idRows(_ id: RecordID) -> [(String, String)] {
    [("recordName", id.recordName), ("zoneName", id.zoneID.zoneName), ("ownerName", id.zoneID.ownerName)]
  }

  private static func requestRows(_ request: WebServices.Request) -> [(String, String)] {
    var rows: [(String, String)] = [("endpoint", request.endpoint.rawValue)]
    if let zone = request.contextZone { rows.append(("zone", zone.description)) }
    switch request {
    case .modifyRecords(let body):
      if let atomic = body.atomic { rows.append(("atomic", "\(atomic)")) }
      if let keys = body.desiredKeys { rows.append(("desiredKeys", keys.joined(separator: ", "))) }
      for (index, operation) in body.operations.enumerated() {
        let tag = operation.record?.recordChangeTag.map { " tag \($0)" } ?? ""
        let fields = operation.record.map { " fields \($0.allKeys.joined(separator: ", "))" } ?? ""
        rows.append(
          ("operation \(index)", "\(operation.operationType) \(operation.recordID.recordName)\(tag)\(fields)"))
      }
    case .lookupRecords(let body):
      rows += body.recordIDs.map { ("lookup", $0.description) }
    case .queryRecords(let body):
      rows.append(("recordType", body.query.recordType))
      rows += body.query.filters.map { ("filter", "\($0.fieldName) \($0.comparator) \($0.fieldValue)") }
      rows += body.query.sorts.map { ("sort", "\($0.fieldName) \($0.ascending ? "ascending" : "descending")") }
      if let limit = body.resultsLimit { rows.append(("resultsLimit", "\(limit)")) }
      if let marker = body.continuationMarker { rows.append(("continuationMarker", marker)) }
    case .recordChanges(let body):
      rows.append(("syncToken", body.syncToken ?? "– (from the start)"))
    case .zoneRecordChanges(let body):
      rows += body.zones.map { ("zone", "\($0.zoneID) since \($0.syncToken ?? "the start")") }
    case .databaseChanges(let body), .zoneChanges(let body):
      rows.append(("syncToken", body.syncToken ?? "– (from the start)"))
    case .listZones: break
    case .lookupZones(let body):
      rows += body.zoneIDs.map { ("lookup", $0.description) }
    case .modifyZones(let body):
      for operation in body.operations {
        switch operation {
        case .create(let zone): rows.append(("operation", "create \(zone)"))
        case .delete(let zone): rows.append(("operation", "delete \(zone)"))
        }
      }
    }
    return rows
  }

  private static func responseRows(_ response: WebServices.Response) -> [(String, String)] {
    switch response {
    case .error(let error):
      return [("error", error.description)]
    case .records(let body):
      var rows = body.results.map(resultRow)
      rows += tokens(syncToken: body.syncToken, moreComing: body.moreComing)
      if let marker = body.continuationMarker { rows.append(("continuationMarker", marker)) }
      return rows
    case .zones(let body):
      var rows: [(String, String)] = body.zones.map { entry in
        switch entry {
        case .zone(let info):
          var text = info.zoneID.description
          if let type = info.zoneType { text += " \(type)" }
          if info.deleted == true { text += " deleted" }
          if info.purged == true { text += " purged" }
          if let token = info.syncToken { text += " token \(token)" }
          return ("zone", text)
        case .failed(let error): return ("error", error.description)
        }
      }
      rows += tokens(syncToken: body.syncToken, moreComing: body.moreComing)
      return rows
    case .zoneChanges(let body):
      var rows: [(String, String)] = []
      for entry in body.zones {
        switch entry {
        case .failure(let error): rows.append(("error", error.description))
        case .success(let changes):
          rows.append(("zone", changes.zoneID.description))
          rows += changes.results.map(resultRow)
          rows += tokens(syncToken: changes.syncToken, moreComing: changes.moreComing)
        }
      }
      return rows
    }
  }

  private static func resultRow(_ result: WebServices.RecordResult) -> (String, String) {
    switch result {
    case .record(let r):
      let tag = r.recordChangeTag.map { " tag \($0)" } ?? ""
      return ("record", "\(r.recordType) \(r.recordID.recordName)\(tag), \(r.allKeys.count) fields")
    case .share(let s):
      return ("share", "\(s.recordID.recordName), \(s.participants.count) participants, public \(s.publicPermission)")
    case .deleted(let id, let type):
      return ("deleted", id.recordName + (type.map { " (\($0))" } ?? ""))
    case .failed(let error): return ("error", error.description)
    }
  }

  private static func tokens(syncToken: String?, moreComing: Bool?) -> [(String, String)] {
    var rows: [(String, String)] = []
    if let syncToken { rows.append(("syncToken", syncToken)) }
    if let moreComing { rows.append(("moreComing", "\(moreComing)")) }
    return rows
  }

  private static func iso(_ date: Date) -> String {
    // To the nearest millisecond, counted as an integer: an archive's binary double (597455141.68 held as
    // 597455141.67999…) would otherwise print one millisecond short, since the format truncates the fraction.
    let milliseconds = (date.timeIntervalSinceReferenceDate * 1000).rounded()
    guard milliseconds.isFinite, abs(milliseconds) < 1e15 else {
      return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
    let whole = (milliseconds / 1000).rounded(.down)
    let fraction = Int(milliseconds - whole * 1000)
    let seconds = Date(timeIntervalSinceReferenceDate: whole).formatted(.iso8601)
    return "\(seconds.dropLast()).\(String(fraction + 1000).dropFirst())Z"
  }
}

/// What `inspect --json` prints: the record or body in its canonical Web Services form, or, for archives that are not
/// records, a small object naming what they hold.
enum InspectJSON {
  private struct Token: Encodable {
    let kind = "CKServerChangeToken"
    let base64: String
  }

  private struct Archived<Value: Encodable>: Encodable {
    let kind: String
    let value: Value
  }

  /// A `CKShare.Metadata` as JSON: the container, the root record, the invited user, and the share in its wire form.
  private struct Metadata: Encodable {
    let metadata: ShareMetadata
    init(_ metadata: ShareMetadata) { self.metadata = metadata }

    private struct ShareWire: Encodable {
      let share: Share
      func encode(to encoder: any Encoder) throws { try share.encodeWireFormat(to: encoder) }
    }

    private enum Keys: String, CodingKey {
      case containerIdentifier, containerEnvironment, rootRecordID, rootRecordType, participantRole
      case participantPermission, participantStatus, callingParticipant, owner, share, sharedItemHierarchyIDs
      case tokenBytes
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: Keys.self)
      try c.encodeIfPresent(metadata.containerIdentifier, forKey: .containerIdentifier)
      try c.encodeIfPresent(metadata.containerEnvironment, forKey: .containerEnvironment)
      try c.encodeIfPresent(metadata.rootRecordID, forKey: .rootRecordID)
      try c.encodeIfPresent(metadata.rootRecordType, forKey: .rootRecordType)
      try c.encodeIfPresent(metadata.participantRole.map { "\($0)" }, forKey: .participantRole)
      try c.encodeIfPresent(metadata.participantPermission.map { "\($0)" }, forKey: .participantPermission)
      try c.encodeIfPresent(metadata.participantStatus.map { "\($0)" }, forKey: .participantStatus)
      try c.encodeIfPresent(metadata.callingParticipant?.participantID, forKey: .callingParticipant)
      try c.encodeIfPresent(metadata.ownerIdentity?.userRecordName, forKey: .owner)
      try c.encode(ShareWire(share: metadata.share), forKey: .share)
      if !metadata.sharedItemHierarchyIDs.isEmpty {
        try c.encode(metadata.sharedItemHierarchyIDs, forKey: .sharedItemHierarchyIDs)
      }
      // Tokens are secrets: their sizes only.
      if !metadata.tokens.isEmpty { try c.encode(metadata.tokens.mapValues(\.count), forKey: .tokenBytes) }
    }
  }

  /// A `CKShareParticipant` as JSON: who, and their role, permission and acceptance.
  private struct ParticipantJSON: Encodable {
    let participantID: String?
    let userRecordName: String?
    let role: String
    let permission: String
    let acceptanceStatus: String
  }

  /// A `CKQueryOperation.Cursor` as JSON: its zone and its bytes.
  private struct Cursor: Encodable {
    let zoneID: ZoneID?
    let base64: String
  }

  /// A `CKRecordZone` as JSON: its ID, capability bits and zone-wide share.
  private struct Zone: Encodable {
    let zoneID: ZoneID
    let capabilities: Int64
    let share: String?
  }

  /// A `CKAccountInfo` as JSON: its status by name and number, and the undocumented fields it holds.
  private struct Account: Encodable {
    let accountStatus: String
    let accountStatusValue: Int64
    let hasValidCredentials: Bool?
    let deviceToDeviceEncryptionAvailability: Int64?
    let accountPartition: Int64?
    let validationCounter: Int64?

    init(_ info: AccountInfo) {
      accountStatus = info.status.description
      accountStatusValue = info.status.rawValue
      hasValidCredentials = info.hasValidCredentials
      deviceToDeviceEncryptionAvailability = info.deviceToDeviceEncryptionAvailability
      accountPartition = info.accountPartition
      validationCounter = info.validationCounter
    }
  }

  static func render(_ contents: InspectCommand.Contents) throws -> String {
    switch contents {
    case .reconcileArchive(let record), .localRecord(let record): return try pretty(record.wireJSON())
    case .keyedArchive(let archive): return try JSONText.render(ArchiveJSON(archive))
    case .webServices(.record(let record)): return try pretty(record.wireJSON())
    case .webServices(.share(let share)): return try pretty(share.wireJSON())
    case .webServices(.request(let request)): return try pretty(request.jsonData())
    case .webServices(.response(let response, _)): return try pretty(response.jsonData())
    case .collection(let collection):
      var parts: [String] = []
      for entry in collection.entries {
        parts.append(try render(.webServices(try entry.body.get())).trimmingCharacters(in: .newlines))
      }
      return "[\n" + parts.joined(separator: ",\n") + "\n]\n"
    }
  }

  /// An archive as JSON: records and shares as their wire form, tokens as base64, IDs as Web Services IDs.
  private struct ArchiveJSON: Encodable {
    let archive: CloudKitArchive
    init(_ archive: CloudKitArchive) { self.archive = archive }

    func encode(to encoder: any Encoder) throws {
      switch archive {
      case .record(let record): try record.encodeWireFormat(to: encoder)
      case .share(let share): try share.encodeWireFormat(to: encoder)
      case .serverChangeToken(let token): try Token(base64: token.data.base64EncodedString()).encode(to: encoder)
      case .recordID(let id): try Archived(kind: "CKRecord.ID", value: id).encode(to: encoder)
      case .zoneID(let zone): try Archived(kind: "CKRecordZone.ID", value: zone).encode(to: encoder)
      case .accountInfo(let info): try Archived(kind: archive.kind, value: Account(info)).encode(to: encoder)
      case .shareMetadata(let metadata):
        try Archived(kind: archive.kind, value: Metadata(metadata)).encode(to: encoder)
      case .participant(let participant):
        try Archived(
          kind: archive.kind,
          value: ParticipantJSON(
            participantID: participant.participantID, userRecordName: participant.userIdentity.userRecordName,
            role: "\(participant.role)", permission: "\(participant.permission)",
            acceptanceStatus: "\(participant.acceptanceStatus)")
        ).encode(to: encoder)
      case .queryCursor(let cursor):
        try Archived(
          kind: archive.kind, value: Cursor(zoneID: cursor.zoneID, base64: cursor.data.base64EncodedString())
        )
        .encode(to: encoder)
      case .recordZone(let zone):
        try Archived(
          kind: archive.kind,
          value: Zone(
            zoneID: zone.zoneID, capabilities: zone.capabilities.rawValue, share: zone.share?.recordID.recordName)
        ).encode(to: encoder)
      case .array(let items):
        var c = encoder.unkeyedContainer()
        for item in items { try c.encode(ArchiveJSON(item)) }
      }
    }
  }

  private static func pretty(_ data: Data) throws -> String {
    let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    let text = try JSONSerialization.data(
      withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
    return String(decoding: text, as: UTF8.self) + "\n"
  }
}
