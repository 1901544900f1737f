import Foundation

extension ZoneReplica {
  /// Merges a server version with the local copy by the rules.
  ///
  /// Apple's sample: last writer wins, whole record, by the device-written date — the server's record when its date
  /// is at least the local one, else the local values on the server's system fields.
  ///
  /// Reconcile's: a copy with no unsent change takes the server's version; the version the unsent edits were made on
  /// changes nothing; a replacement overwrites what it replaces; otherwise the resolver merges (client: the local copy,
  /// ancestor: the last server version known, server: this one) and the result stays pending when it differs from the
  /// server's. A conflict with a newer app's record (the schema's check halts), or one the resolver refuses, halts the
  /// delegate with the local copy and its pending change kept.
  mutating func merge(server: Record, local: Record?, _ syncEngine: inout SyncEngine.State) -> Record {
    switch configuration.rule {
    case .lastModifiedWins(let key):
      metadata[server.recordID].heldBack = nil
      guard let local, Self.date(key, of: local) > Self.date(key, of: server) else { return server }
      return Self.values(of: local, on: server)
    case .resolver:
      let id = server.recordID
      if var clock = metadata.clock {
        try? configuration.bookkeeping.observeStamps(
          of: server, clock: &clock, at: server.modificationDate ?? .distantPast)
        metadata.clock = clock
      }
      let (record, fate) = mergeByResolver(server: server, local: local, &syncEngine)
      // The version merged becomes the ancestor of the next merge; one the delegate halted on was not merged, so the
      // user's change still stands on the version before it.
      switch fate {
      case .merged:
        metadata[id].merged(server)
      case .halted:
        metadata[id].heldBack = .init(version: server, byHalt: true)
      case .undecided:
        break
      }
      return record
    }
  }

  /// What became of a server version a merge met.
  enum MergeFate {
    /// Merged (or taken): it is the server version known.
    case merged
    /// A halt kept it from merging: held back, the user's change still standing on the version before it.
    case halted
    /// Created anew elsewhere, the decision waiting for the database feed: not merged yet.
    case undecided
  }

  /// The resolver's rules: a copy with no unsent change takes the server's version; the version the unsent edits were
  /// made on changes nothing; a replacement overwrites what it replaces; a record created anew waits for the feed;
  /// otherwise the resolver merges.
  private mutating func mergeByResolver(server: Record, local: Record?, _ syncEngine: inout SyncEngine.State)
    -> (Record, MergeFate)
  {
    let id = server.recordID
    // A copy from a zone since deleted, not yet uploaded again, is the user's data still: it merges with the new
    // zone's version even with no edit unsent.
    let pending = syncEngine.pendingRecords.contains(.saveRecord(id))
    guard let local, pending || flagsLookedFor(of: id).contains(.reuploaded) else {
      // The server's version is the copy now: nothing about an older one waits to be decided.
      if isWaiting(id) { metadata[id].recreation = nil }
      return (server, .merged)
    }
    if !rules.mergesUnsentEdits {
      syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
      return (server, .merged)
    }
    // The very version the unsent edits were made on: nothing new to merge.
    if let tag = local.recordChangeTag, tag == server.recordChangeTag {
      if flagsLookedFor(of: id).contains(.reuploaded) { metadata[id].flags.remove(.reuploaded) }
      return (local, .merged)
    }
    // Set when an edit the replaced deletion did not see cancels it: the version the user deleted, from which the
    // record created again is an edit.
    var deletedVersion: Record?? = nil
    switch replacementMeets(server) {
    case .replaces: return (replacement(local, over: server, &syncEngine), .merged)
    case .editOfDeleted(let version): deletedVersion = .some(version)
    case .noReplacement: break
    }
    let reuploaded = flagsLookedFor(of: id).contains(.reuploaded) && metadata[id].flags.remove(.reuploaded) != nil
    var (client, ancestor) = mergeSides(local: local, server: server, reuploaded: reuploaded, deleted: deletedVersion)
    // (A copy uploaded again after its zone went meets the new zone's record under another creation date: that is
    // the zone's doing, not a user's.)
    if !reuploaded, let known = local.creationDate, let created = server.creationDate, known != created {
      // Created anew — by a user elsewhere, or by a device uploading its copy again after the zone went. Which one
      // decides what the unsent edits are, and the database feed says: nothing is sent until the next fetch has
      // read it (a zone deletion it reports starts the zone over; otherwise the decision below is made then).
      guard metadata[id].recreation?.feedRead == true else {
        metadata[id].recreation = .init(feedRead: false, version: server)
        return (local, .undecided)
      }
      metadata[id].recreation = nil
      // A user created it anew elsewhere: the unsent edits were to the deleted one, which `.deleteWins` lets go;
      // `.editWins` merges them into the new record as a create would.
      guard configuration.deletePolicy == .editWins else {
        syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
        return (server, .merged)
      }
      ancestor = nil
    }
    let sides = Conflict(client: client, ancestor: ancestor, server: server)
    return resolve(sides, local: local, pending: pending, reuploaded: reuploaded, &syncEngine)
  }

  /// How a record created again after the user's deletion meets a server version.
  enum ReplacementMeeting {
    /// Not a replacement (or no longer: the record it was to replace is gone).
    case noReplacement
    /// It replaces the server's version whole.
    case replaces
    /// An edit the deletion did not see cancels it (`.editWins`): the record stays, the one created again an edit of
    /// the version deleted (given).
    case editOfDeleted(Record?)
  }

  /// Whether the record created again replaces `server`: it does when `server` is the record deleted (same creation
  /// date, or one the server never confirmed), unless an edit the deletion did not see cancels it under `.editWins`.
  /// A record the server created after the deletion, while a save of the replacement is in doubt, is that save
  /// landed unanswered and merges as the record's own version; one created anew elsewhere merges as two creates do.
  private mutating func replacementMeets(_ server: Record) -> ReplacementMeeting {
    let id = server.recordID
    guard let replaced = metadata[id].replacement?.replaced else { return .noReplacement }
    let ownLanded =
      replaced.creationDate == nil && flags(of: id).contains(.createInDoubt)
      && (server.creationDate.map { $0 > replaced.deletedAt } ?? false)
    guard !ownLanded && (replaced.creationDate == nil || replaced.creationDate == server.creationDate) else {
      // The record it was to replace is gone; this one was created anew elsewhere: merge as two creates do.
      metadata[id].replacement = nil
      return .noReplacement
    }
    guard configuration.deletePolicy == .editWins, !replaced.saw(server) else { return .replaces }
    return .editOfDeleted(metadata[id].serverVersion)
  }

  /// The client and ancestor of a merge: the local copy over the last server version known, with what the saves sent
  /// unanswered landed; a copy uploaded again over what the new zone still shares; a record created again over the
  /// version deleted, its left-out keys (those its app knew) removed.
  private func mergeSides(local: Record, server: Record, reuploaded: Bool, deleted: Record??) -> (Record, Record?) {
    let state = metadata[server.recordID]
    let known = local.recordChangeTag == nil ? nil : state.serverVersion
    var ancestor: Record?
    if reuploaded {
      ancestor = ancestorOfUploadAgain(state, server: server)
    } else if !rules.remembersUnansweredSaves {
      ancestor = known
    } else {
      ancestor = ownLandedSaves(state, over: known, server: server)
    }
    guard let deletedVersion = deleted else { return (local, ancestor) }
    // The version deleted, with what of this device's unanswered saves the server shows landed.
    ancestor = ownLandedSaves(state, over: deletedVersion, server: server)
    // The record created again leaves out keys of the version deleted: those it knew, it removes.
    var client = local
    let knownKeys = state.replacement?.knownKeys
    for key in deletedVersion?.allKeys ?? [] where !client.allKeys.contains(key) && knownKeys?.contains(key) ?? true {
      client.markChanged(key)
    }
    return (client, ancestor)
  }

  /// Runs the resolver on `sides`. A conflict with a newer app's record (the schema's check halts), or one the
  /// resolver refuses, halts the replica with the local copy and its pending change kept; otherwise the result stays
  /// pending when it differs from the server's.
  private mutating func resolve(
    _ sides: Conflict, local: Record, pending: Bool, reuploaded: Bool, _ syncEngine: inout SyncEngine.State
  ) -> (Record, MergeFate) {
    let id = sides.server.recordID
    let resolver = configuration.schema.map { configuration.resolver.guarded(by: $0) } ?? configuration.resolver
    let merged: Record
    let notes: MergeNotes?
    do {
      if !rules.mergesOverAncestor {
        (merged, notes) = (Self.values(of: local, on: sides.server), nil)
      } else {
        (merged, notes) = try MergeNotes.listening { try resolver.resolve(sides) }
      }
    } catch let halt as SchemaHalt {
      // A newer app's record: this one must not merge into it. The user's change waits, unsent, for an upgrade. So
      // does a copy from a zone since deleted: queued, it meets this version again as a conflict once upgraded.
      metadata.halt = .schema(halt)
      decide(.halted(.schema(halt)))
      if reuploaded {
        metadata[id].flags.insert(.reuploaded)
        if !pending { syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)]) }
      }
      return (local, .halted)
    } catch {
      metadata.halt = .unresolvableConflict(id, "\(error)")
      decide(.halted(.unresolvableConflict(id, "\(error)")))
      return (local, .halted)
    }
    // Merged: a record created again stays, with the one created again as an edit of it; its deletion is over.
    if metadata[id].replacement != nil { metadata[id].replacement = nil }
    decide(
      .merged(
        SyncDecision.Merge(
          client: sides.client, ancestor: sides.ancestor, server: sides.server, result: merged,
          texts: notes?.texts ?? [:], bookkeeping: bookkeepingKeys)))
    if merged.changedKeys.isEmpty {
      syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(id)])
    } else if !pending {
      syncEngine.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }
    return (merged, .merged)
  }

  /// The ancestor of the first merge of a copy uploaded again after its zone went (`state` is its record's): the
  /// last version acknowledged before, as far as the new zone's version still holds it, with the values of the saves
  /// sent since that the server shows landed (their answers lost) — those are this device's own, not another device's
  /// change. Saves sent before the zone went named a change tag of the old zone, and could not land in the new one.
  func ancestorOfUploadAgain(_ state: RecordSyncState, server: Record) -> Record? {
    guard var past = state.serverVersion?.sharedPast(with: server) else { return nil }
    if !rules.remembersUnansweredSaves { return past }
    // The new zone's record has no tag this device knows: as the mechanism reads it, only saves sent without a tag
    // (creates) may have landed there.
    let tag = past.recordChangeTag
    past.recordChangeTag = nil
    var ancestor = ownLandedSaves(state, over: past, server: server)
    ancestor?.recordChangeTag = tag
    return ancestor
  }

  /// `known` with the values the server holds from this device's saves whose answers are not in (they landed): those
  /// are the device's own, not another device's change.
  func ownLandedSaves(_ state: RecordSyncState, over known: Record?, server: Record) -> Record? {
    state.unacknowledged.ancestor(
      known: known, server: server, device: configuration.deviceName,
      equalValuesBothCount: countsEqualValuesTwice(of: server))
  }

  /// Which keys of `record` the resolver counts both sides of when they hold one value (a
  /// ``FieldMerge/Policy/counter``), asked of the resolver for the record's type.
  func countsEqualValuesTwice(of record: Record) -> (String) -> Bool {
    configuration.resolver.countsEqualValuesTwice(recordType: record.recordType)
  }

  /// A record created again after a deletion here replaces the server's version whole: every key takes the new
  /// record's value or goes, except keys this app does not know (a newer app wrote them).
  func replacement(_ local: Record, over server: Record, _ syncEngine: inout SyncEngine.State) -> Record {
    var replaced = server
    let unknown = configuration.schema?.unknownKeys(in: server) ?? []
    let known = metadata[local.recordID].replacement?.knownKeys
    for key in Set(server.allKeys).union(local.allKeys).sorted()
    where !unknown.contains(key) && (known?.contains(key) ?? true) || local.changedKeys.contains(key) {
      // The user's record defines the keys it set or left out; a value it holds only because an earlier merge kept
      // the server's (a key the app did not know then) is the server's to change.
      guard local.changedKeys.contains(key) || !local.allKeys.contains(key) else { continue }
      replaced.takeValue(of: key, from: local)
    }
    if replaced.changedKeys.isEmpty { syncEngine.remove(pendingRecordZoneChanges: [.saveRecord(local.recordID)]) }
    return replaced
  }

  /// `record`'s values and encrypted values on `base`'s system fields.
  static func values(of record: Record, on base: Record) -> Record {
    var result = base
    result.takeValues(of: record)
    return result
  }

  /// Whether `a` and `b` hold the same values and encrypted values.
  static func sameValues(_ a: Record, _ b: Record) -> Bool {
    a.hasSameValues(as: b)
  }

  /// The device-written date in encrypted value `key` (Apple's sample's rule), or the distant past.
  static func date(_ key: String, of record: Record) -> Date {
    if case .timestamp(let date)? = record.encryptedValues[key] { return date }
    return .distantPast
  }
}

extension ZoneReplica: SyncEngineDelegate {}
