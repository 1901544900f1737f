import Foundation
import Reconcile

extension SimulatedServer {
  /// What the server will do with one item, decided before anything is applied so an atomic zone can reject its
  /// whole batch.
  private enum Plan {
    /// `registers`: whether the save may bring field types the server has not registered yet.
    case save(Record, ZoneAccess, isNew: Bool, registers: Bool)
    case delete(RecordID, ZoneAccess)
    case failed(CloudKitError, ZoneAccess?)

    var access: ZoneAccess? {
      switch self {
      case .save(_, let access, _, _), .delete(_, let access): access
      case .failed(_, let access): access
      }
    }

    var isFailure: Bool {
      if case .failed = self { return true }
      return false
    }
  }

  private struct ZoneKey: Equatable {
    var database: DatabaseKey
    var zone: ZoneID
  }

  mutating func performModifyRecords(_ request: ModifyRecordsRequest, as client: ClientIdentity) throws(CloudKitError)
    -> ModifyRecordsReply
  {
    if client.userRecordName == nil, request.itemCount > 0 { throw .notAuthenticated }
    let limits = configuration.limits
    guard request.itemCount <= limits.maximumBatchItems else {
      throw .limitExceeded(
        reason: "the request has \(request.itemCount) items; the limit is \(limits.maximumBatchItems)")
    }
    let bytes = request.saving.reduce(0) { $0 + $1.dataSize }
    // A record alone always fits: CloudKit's limit on one record (1 MB) is below the one on a request, and runs shrink
    // the request limit to make clients split batches, not to make a record unsendable.
    guard bytes <= limits.maximumBatchBytes || request.itemCount <= 1 else {
      throw .limitExceeded(
        reason: "the request has \(bytes) bytes of record data; the limit is \(limits.maximumBatchBytes)")
    }
    try checkDistinctItems(request)
    // Saves count against the storage of the database's owner: the client's own in its private database, the zone
    // owner's in the shared database (the public database counts against the app's container).
    if !quotaExceededUsers.isEmpty, !request.saving.isEmpty {
      let charged: Set<String> =
        switch request.scope {
        case .private: Set([client.userRecordName].compactMap { $0 })
        case .shared: Set(request.saving.map(\.recordID.zoneID.ownerName))
        case .public: []
        }
      if !charged.isDisjoint(with: quotaExceededUsers) { throw .quotaExceeded }
    }

    var plans: [(id: RecordID, plan: Plan)] = []
    plans.reserveCapacity(request.itemCount)
    for record in request.saving {
      plans.append((record.recordID, planSave(record, request: request, client: client)))
    }
    for id in request.deleting {
      plans.append((id, planDelete(id, scope: request.scope, client: client)))
    }
    // A `networkFailure` for one item is its answer lost: the item is saved, and reported failed.
    var answerLost: (id: RecordID, error: CloudKitError)?
    if !injectedItemFailures.isEmpty, var queued = injectedItemFailures[client.deviceName],
      !queued.isEmpty, let first = plans.firstIndex(where: { if case .save = $0.plan { true } else { false } }),
      case .save(_, let access, _, _) = plans[first].plan
    {
      let error = queued.removeFirst()
      if error.code == .networkFailure {
        answerLost = (plans[first].id, error)
      } else {
        plans[first].plan = .failed(error, access)
      }
      injectedItemFailures[client.deviceName] = queued.isEmpty ? nil : queued
    }
    if request.isAtomic { rejectAtomicSiblings(&plans) }

    var reply = ModifyRecordsReply()
    for (id, plan) in plans {
      switch plan {
      case .failed(let error, _):
        reply.failures[id] = attachingConflictRecord(error)
      case .save(let record, let access, let isNew, let registers):
        reply.saved.append(
          applySave(
            record, access: access, isNew: isNew, registers: registers, client: client,
            token: request.clientChangeToken))
      case .delete(let stored, let access):
        reply.deleted += applyDelete(stored, access: access, client: client)
      }
    }
    if let answerLost, let index = reply.saved.firstIndex(where: { $0.recordID == answerLost.id }) {
      reply.saved.remove(at: index)
      reply.failures[answerLost.id] = answerLost.error
    }
    return reply
  }

  private func checkDistinctItems(_ request: ModifyRecordsRequest) throws(CloudKitError) {
    // Most requests carry one item: nothing to compare, and no set to build.
    guard request.itemCount > 1 else { return }
    var seen = Set<RecordID>(minimumCapacity: request.itemCount)
    for id in request.saving.lazy.map(\.recordID) + request.deleting {
      guard seen.insert(id).inserted else {
        throw .invalidArguments(
          reason: "record \(id) appears more than once in one request (saved twice, or saved and deleted)")
      }
    }
  }

  /// In an atomic request, one failure in a zone with the ``ZoneCapabilities/atomic`` capability fails every other item of
  /// that zone with ``CloudKitError/batchRequestFailed``.
  private func rejectAtomicSiblings(_ plans: inout [(id: RecordID, plan: Plan)]) {
    guard plans.contains(where: { $0.plan.isFailure }) else { return }
    // A request spans a zone or two: a list, searched in place, beats hashing an owner's name and a zone ID per item.
    var failedZones: [ZoneKey] = []
    for index in plans.indices where plans[index].plan.isFailure {
      guard let access = plans[index].plan.access, isAtomic(access) else { continue }
      let zone = ZoneKey(database: access.database, zone: access.storedZone)
      if !failedZones.contains(zone) { failedZones.append(zone) }
    }
    guard !failedZones.isEmpty else { return }
    for index in plans.indices where !plans[index].plan.isFailure {
      guard let access = plans[index].plan.access,
        failedZones.contains(ZoneKey(database: access.database, zone: access.storedZone))
      else { continue }
      plans[index].plan = .failed(.batchRequestFailed, access)
    }
  }

  private func isAtomic(_ access: ZoneAccess) -> Bool {
    database(access.database)?.zones[access.storedZone]?.zone.capabilities.contains(.atomic) == true
  }

  // MARK: Saves

  private func planSave(_ sent: Record, request: ModifyRecordsRequest, client: ClientIdentity) -> Plan {
    let access: ZoneAccess
    do {
      access = try self.access(request.scope, zone: sent.recordID.zoneID, for: client, writing: true)
    } catch {
      return .failed(error, nil)
    }
    do {
      // Per-record policies come only from Web Services requests; the common request skips the lookups.
      let policy =
        request.savePolicies.isEmpty ? request.savePolicy : request.savePolicies[sent.recordID] ?? request.savePolicy
      let replacing = !request.replacing.isEmpty && request.replacing.contains(sent.recordID)
      return try decideSave(
        sent, access: access, policy: policy, replacing: replacing, client: client, batch: request.saving)
    } catch {
      return .failed(error, access)
    }
  }

  private func decideSave(
    _ sent: Record,
    access: ZoneAccess,
    policy: SavePolicy,
    replacing: Bool,
    client: ClientIdentity,
    batch: [Record]
  ) throws(CloudKitError) -> Plan {
    guard let zone = database(access.database)?.zones[access.storedZone] else { throw missingZoneError(access) }
    let record = access.renames ? sent.movingZone(from: access.visibleZone, to: access.storedZone) : sent
    try checkValid(record, scope: access.scope)
    let existing = zone.records[record.recordID]
    if existing == nil {
      do {
        try sent.recordID.checkNameForNewRecord()
      } catch {
        throw .invalidArguments(reason: "cannot create record \(sent.recordID): \(error)")
      }
    }
    if let parent = record.parent, let named = sent.parent, zone.records[parent.recordID] == nil,
      !batch.contains(where: { $0.recordID == named.recordID })
    {
      throw .referenceViolation(named.recordID)
    }
    if access.scope == .public, let existing, existing.creatorUserRecordName != client.userRecordName {
      throw .permissionFailure(reason: "only the creator of public record \(sent.recordID) may modify it")
    }
    if let existing, existing.recordType != record.recordType {
      throw .invalidArguments(
        reason:
          "record \(sent.recordID) is a \(existing.recordType) on the server; it cannot be saved as a \(record.recordType)"
      )
    }
    if policy == .ifServerRecordUnchanged {
      switch (record.recordChangeTag, existing) {
      case (nil, nil): break
      case (nil, let existing?):
        throw .serverRecordChanged(client: sent, ancestor: nil, server: visible(existing, access))
      case (_?, nil):
        throw .unknownItem(sent.recordID)
      case (let tag?, let existing?) where tag != existing.recordChangeTag:
        let ancestor = zone.version(of: record.recordID, tag: tag).map { visible($0, access) }
        throw .serverRecordChanged(client: sent, ancestor: ancestor, server: visible(existing, access))
      default: break
      }
    }
    let registers = try checkFieldTypes(record)
    var merged = existing ?? Record(recordType: record.recordType, recordID: record.recordID)
    var sentKeys: Set<String> =
      existing == nil || policy == .allKeys ? record.changedKeys.union(record.allKeys) : record.changedKeys
    if replacing { sentKeys.formUnion(record.allKeys + (existing?.allKeys ?? [])) }
    for key in sentKeys { merged.takeSentValue(forKey: key, from: record) }
    merged.parent = record.parent
    return .save(merged, access, isNew: existing == nil, registers: registers)
  }

  private func checkValid(_ record: Record, scope: DatabaseScope) throws(CloudKitError) {
    do {
      try record.validate()
    } catch {
      if case .recordTooLarge(let size, let limit) = error {
        throw .limitExceeded(reason: "record \(record.recordID) is too large: \(size) bytes, the limit is \(limit)")
      }
      throw .invalidArguments(reason: "record \(record.recordID): \(error)")
    }
    if scope == .public, let key = record.encryptedValueTable.keys.first {
      throw .invalidArguments(
        reason: "field '\(key)' of record \(record.recordID) is encrypted; the public database has no encrypted fields")
    }
  }

  /// The first save of a key fixes its type for the record type (development); production accepts only declared keys.
  /// - Returns: Whether the record has a key whose type is not registered yet (development only), so saving it may
  ///   register types. When it has none, saving it registers nothing: every other key of the version saved comes from
  ///   the stored version, whose keys were registered when it was saved.
  private func checkFieldTypes(_ record: Record) throws(CloudKitError) -> Bool {
    // Most saves fit: look without building and sorting the merged fields, and do that only to name the first misfit.
    if case .development = configuration.schemaMode {
      guard let known = fieldTypes[record.recordType] else { return true }
      var registers = false
      // Read in place: the keys and values are never copied out of the table.
      func fit(_ table: FieldTable) -> Bool {
        table.keys.withUnsafeBufferPointer { keys in
          table.values.withUnsafeBufferPointer { values in
            for index in keys.indices {
              guard let expected = known.type(of: keys[index], guess: index) else {
                if !values[index].isEmptyList { registers = true }
                continue
              }
              if !Self.fits(values[index].type, expected) { return false }
            }
            return true
          }
        }
      }
      if fit(record.valueTable), fit(record.encryptedValueTable) { return registers }
    }
    let all = record.values.merging(record.encryptedValuesByKey) { plain, _ in plain }
    switch configuration.schemaMode {
    case .development:
      let known = fieldTypes[record.recordType] ?? FieldTypeTable()
      for key in all.keys.sorted() {
        guard let value = all[key], let expected = known.type(of: key) else { continue }
        guard Self.fits(value.type, expected) else {
          throw .invalidArguments(
            reason:
              "type mismatch for field '\(key)' of record type '\(record.recordType)': the schema says \(expected), the record has \(value.type)"
          )
        }
      }
    case .production(let declared):
      guard let known = declared[record.recordType] else {
        throw .invalidArguments(reason: "Cannot create new type \(record.recordType) in production schema")
      }
      for key in all.keys.sorted() {
        guard let value = all[key], let expected = known[key], Self.fits(value.type, expected) else {
          throw .invalidArguments(
            reason: "Cannot create or modify field '\(key)' in record '\(record.recordType)' in production schema")
        }
      }
    }
    return true
  }

  /// Whether a value of type `found` may be stored in a field of type `expected`; an empty list fits any list.
  static func fits(_ found: FieldType, _ expected: FieldType) -> Bool {
    if found == expected { return true }
    if case .list(nil) = found, case .list = expected { return true }
    if case .list(nil) = expected, case .list = found { return true }
    return false
  }

  private mutating func applySave(
    _ record: Record,
    access: ZoneAccess,
    isNew: Bool,
    registers: Bool,
    client: ClientIdentity,
    token: Data?
  ) -> Record {
    var saved = record
    stampSaved(&saved, isNew: isNew, user: client.userRecordName, device: client.deviceName)
    if registers { registerFieldTypes(of: saved) }
    let depth = configuration.ancestorDepth
    withDatabase(access.database) { database in
      database.zones[access.storedZone]?.store(saved, ancestorDepth: depth)
      if let token { database.zones[access.storedZone]?.clientChangeToken = token }
      database.zoneLog.append(access.storedZone)
    }
    logEvent(.saved(saved), by: client, in: access.database)
    return visible(saved, access)
  }

  /// The fields the server sets on every save: a new tag, the dates, the users and the device; no changed keys.
  mutating func stampSaved(_ record: inout Record, isNew: Bool, user: String?, device: String?) {
    record.recordChangeTag = makeTag()
    if isNew {
      record.creationDate = now
      record.creatorUserRecordName = user
    }
    record.modificationDate = now
    record.lastModifiedUserRecordName = user
    record.modifiedByDevice = device
    record.clearChangedKeys()
  }

  private mutating func registerFieldTypes(of record: Record) {
    guard case .development = configuration.schemaMode else { return }
    fieldTypes[record.recordType, default: FieldTypeTable()].registerTypes(of: record)
  }

  // MARK: Deletes

  private func planDelete(_ id: RecordID, scope: DatabaseScope, client: ClientIdentity) -> Plan {
    let access: ZoneAccess
    do {
      access = try self.access(scope, zone: id.zoneID, for: client, writing: true)
    } catch {
      return .failed(error, nil)
    }
    guard let zone = database(access.database)?.zones[access.storedZone] else {
      return .failed(missingZoneError(access), access)
    }
    let stored = access.renames ? id.movingZone(to: access.storedZone) : id
    if access.scope == .public, let existing = zone.records[stored],
      existing.creatorUserRecordName != client.userRecordName
    {
      return .failed(.permissionFailure(reason: "only the creator of public record \(id) may delete it"), access)
    }
    return .delete(stored, access)
  }

  /// Deletes `id` and, transitively, every record of its zone pointing to it with a `deleteSelf` reference.
  /// - Returns: The IDs deleted, as the client names them; the requested ID even when it was already gone.
  /// - Complexity: O(*n*) in the zone's records per deleted record with referrers.
  private mutating func applyDelete(_ id: RecordID, access: ZoneAccess, client: ClientIdentity) -> [RecordID] {
    var deleted: [RecordID] = []
    var queue = [id]
    while let next = queue.popLast() {
      let removed = withDatabase(access.database) { database -> Record? in
        guard let old = database.zones[access.storedZone]?.remove(next) else { return nil }
        // Deleting a share record ends the share: its participants lose the zone, and their feeds say so.
        if old.recordType == Share.recordType { database.setShareMembers(nil, of: next, in: access.storedZone) }
        database.zoneLog.append(access.storedZone)
        return old
      }
      if let removed {
        logEvent(.deleted(next, recordType: removed.recordType), by: client, in: access.database)
        queue += referrers(of: next, access: access)
      }
      if removed != nil || next == id {
        deleted.append(access.renames ? next.movingZone(to: access.visibleZone) : next)
      }
    }
    return deleted
  }

  private func referrers(of target: RecordID, access: ZoneAccess) -> [RecordID] {
    guard let referrers = database(access.database)?.zones[access.storedZone]?.deletingReferrers[target] else {
      return []
    }
    return referrers.sorted()
  }

  func visible(_ record: Record, _ access: ZoneAccess) -> Record {
    access.renames ? record.movingZone(from: access.storedZone, to: access.visibleZone) : record
  }
  /// A conflict's answer, with the server's record unless this is one of the answers that leave it out
  /// (``Limits/conflictWithoutRecordEvery``).
  private mutating func attachingConflictRecord(_ error: CloudKitError) -> CloudKitError {
    let every = configuration.limits.conflictWithoutRecordEvery
    guard every > 0, error.code == .serverRecordChanged else { return error }
    conflictsAnswered += 1
    guard conflictsAnswered % every == 0 else { return error }
    var withoutRecord = error
    withoutRecord.serverRecord = nil
    return withoutRecord
  }
}

extension RecordID {
  /// This ID with the same name in `zone`.
  func movingZone(to zone: ZoneID) -> RecordID { (try? RecordID(recordName: recordName, zoneID: zone)) ?? self }

}
