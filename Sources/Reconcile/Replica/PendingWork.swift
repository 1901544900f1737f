/// What a ``ZoneReplica`` still has to do, for an app's settings screen or diagnostics: changes not yet on the server,
/// requests whose outcome is unknown, and what stops syncing. Read it with ``ZoneReplica/pendingWork(in:)``.
public struct PendingWork: Sendable, Hashable {
  /// Records with changes the server does not have yet, sorted.
  public var unsentSaves: [RecordID]
  /// Records the user deleted whose deletion the server has not confirmed, sorted.
  public var unsentDeletions: [RecordID]
  /// Of those, the deletions held until a fetch that starts after them (a deletion carries no change tag), sorted.
  public var deletionsAwaitingFetch: [RecordID]
  /// Of the unsent saves, those a conflict refused without the server's record, held until a fetch brings it, sorted.
  public var savesAwaitingFetch: [RecordID]
  /// New records whose save went unanswered: each may be on the server already, sorted.
  public var savesInDoubt: [RecordID]
  /// The zone is gone, and the replica waits for the database changes to say why; `nil` otherwise.
  public var zoneMissing: SyncEngine.ZoneDeletion.Reason?
  /// Why sending stopped, or `nil`.
  public var halt: SyncHalt?

  /// Whether nothing is left to send or settle.
  public var isEmpty: Bool {
    unsentSaves.isEmpty && unsentDeletions.isEmpty && savesInDoubt.isEmpty && zoneMissing == nil && halt == nil
  }
}

extension ZoneReplica {
  /// What is still to do: unsent saves and deletions (from the engine's pending changes and the replica's own
  /// bookkeeping), requests in doubt, a zone whose loss is not yet explained, and a halt.
  /// - Parameter syncEngine: The engine's state.
  /// - Returns: The pending work, each list sorted.
  public func pendingWork(in syncEngine: SyncEngine.State) -> PendingWork {
    var saves: Set<RecordID> = []
    var deletions = Set(metadata.waiting { $0.deletion != nil })
    for change in syncEngine.pendingRecords where change.recordID.zoneID == zoneID {
      switch change {
      case .saveRecord(let id): saves.insert(id)
      case .deleteRecord(let id): deletions.insert(id)
      }
    }
    return PendingWork(
      unsentSaves: saves.sorted(), unsentDeletions: deletions.sorted(),
      deletionsAwaitingFetch: metadata.waiting { $0.flags.contains(.deletionAwaitsFetch) },
      savesAwaitingFetch: metadata.waiting { $0.flags.contains(.saveAwaitsFetch) },
      savesInDoubt: metadata.recordStates.compactMap { id, state in
        !state.flags.isDisjoint(with: [.createInDoubt, .lateCreateMayLand]) && store[id] != nil ? id : nil
      }.sorted(),
      zoneMissing: metadata.zone.missing, halt: metadata.halt)
  }
}
