/// One decision a ``ZoneReplica`` made and why, for an app's log and the simulator's trace: what a fetch brought, how
/// a conflict was merged key by key and what it gave away, what a deletion did, what went with a zone, and halts.
public enum SyncDecision: Sendable, Hashable, CustomStringConvertible {
  /// A page of fetched changes: the records the server saved and deleted since the last page.
  case fetched(saved: [RecordID], deleted: [RecordID])
  /// Unsent local changes met a newer server version and were merged by the resolver over the last server version
  /// known: each key either side changed, and what was kept.
  case merged(Merge)
  /// A deletion met the record on the server or a version of it: what the delete policy made of it.
  case deletion(RecordID, DeletionOutcome)
  /// The zone went for `reason`: records dropped, and records queued to be uploaded again.
  case zoneLost(SyncEngine.ZoneDeletion.Reason, dropped: Int, uploadedAgain: Int)
  /// Sending stopped.
  case halted(SyncHalt)

  /// One merge: the three versions and the result, kept as they were (a record's copy costs a reference), so the
  /// outcome of each key is worked out only when someone reads it.
  public struct Merge: Sendable, Hashable {
    /// This device's copy, with its unsent changes.
    let client: Record
    /// The last server version known, if any.
    let ancestor: Record?
    /// The server's version.
    let server: Record
    /// What the resolver made of them.
    let result: Record

    /// The record merged.
    public var recordID: RecordID { result.recordID }
    /// Whether the merge had an ancestor (without one, every key either side holds counts as changed).
    public var hadAncestor: Bool { ancestor != nil }
    /// Each key either side changed, and what was kept.
    public var keys: [KeyOutcome] {
      SyncDecision.outcomes(client: client, ancestor: ancestor, server: server, merged: result)
    }

    /// A merge of `client` and `server` over `ancestor` into `result`.
    package init(client: Record, ancestor: Record?, server: Record, result: Record) {
      self.client = client
      self.ancestor = ancestor
      self.server = server
      self.result = result
    }
  }

  /// How one key of a merge came out.
  public struct KeyOutcome: Sendable, Hashable, CustomStringConvertible {
    /// Whose value the merged record holds.
    public enum Kept: String, Sendable, Hashable {
      /// The server's value.
      case server
      /// This device's value.
      case client
      /// A value made of both (a text, counter or list merge).
      case merged
    }
    /// The key.
    public var key: String
    /// Whose value stands.
    public var kept: Kept
    /// A value one side wrote since the ancestor that the merge gave away (`nil` for a removal, when none was, or when
    /// the value was encrypted: an encrypted value is never kept here, so no log or dump can show it).
    public var lost: FieldValue?
    /// Whether the merge gave away an encrypted value (shown as `<redacted>`).
    public var lostEncryptedValue: Bool

    /// `title: kept server, lost "draft"`.
    public var description: String {
      var text = "\(key): \(kept == .merged ? "merged" : "kept \(kept.rawValue)")"
      if lostEncryptedValue {
        text += ", lost <redacted>"
      } else if let lost {
        text += ", lost \(lost.description)"
      }
      return text
    }
  }

  /// What a deletion did.
  public enum DeletionOutcome: String, Sendable, Hashable {
    /// A fetched deletion removed the local copy.
    case removedLocally = "deleted here, as on the server"
    /// A fetched deletion met unsent edits, which the delete policy lets revive the record (`editWins`).
    case revivedByUnsentEdits = "deleted on the server, revived here by unsent edits (editWins)"
    /// A pending deletion here stands against a fetched version (this device's own save, or the policy says so).
    case deletionStands = "the deletion here stands against the fetched version"
    /// A pending deletion here gave way to a fetched version written since (or a record created anew).
    case deletionCancelled = "the deletion here gave way to the fetched version"
  }

  /// One line: `merged n1 over its ancestor: title: kept client; body: merged`.
  public var description: String {
    switch self {
    case .fetched(let saved, let deleted):
      let names = { (ids: [RecordID]) in ids.map(\.recordName).joined(separator: ", ") }
      var parts: [String] = []
      if !saved.isEmpty { parts.append("saved \(names(saved))") }
      if !deleted.isEmpty { parts.append("deleted \(names(deleted))") }
      return "fetched " + (parts.isEmpty ? "nothing new" : parts.joined(separator: "; "))
    case .merged(let merge):
      let how = merge.hadAncestor ? "over the last version it knew" : "with no ancestor"
      let keys = merge.keys
      return "merged \(merge.recordID.recordName) \(how): "
        + (keys.isEmpty ? "nothing changed" : keys.map(\.description).joined(separator: "; "))
    case .deletion(let id, let outcome):
      return "\(id.recordName): \(outcome.rawValue)"
    case .zoneLost(let reason, let dropped, let uploadedAgain):
      return "zone lost (\(reason)): dropped \(dropped), uploading \(uploadedAgain) again"
    case .halted(let halt):
      return "halted: \(halt)"
    }
  }

  /// The outcome of each key either side changed, comparing the merge with both sides over the ancestor.
  static func outcomes(client: Record, ancestor: Record?, server: Record, merged: Record) -> [KeyOutcome] {
    func value(_ record: Record, _ key: String) -> FieldValue? { record.encryptedValues[key] ?? record[key] }
    var keys = Set(client.allKeys).union(server.allKeys).union(merged.allKeys)
    if let ancestor { keys.formUnion(ancestor.allKeys) }
    var outcomes: [KeyOutcome] = []
    for key in keys.sorted() {
      let clientChanged = ancestor.map { !client.hasSameValue(forKey: key, as: $0) } ?? (value(client, key) != nil)
      let serverChanged = ancestor.map { !server.hasSameValue(forKey: key, as: $0) } ?? (value(server, key) != nil)
      guard clientChanged || serverChanged, !client.hasSameValue(forKey: key, as: server) else { continue }
      let keptServer = merged.hasSameValue(forKey: key, as: server)
      let keptClient = merged.hasSameValue(forKey: key, as: client)
      let kept: KeyOutcome.Kept = keptServer ? .server : keptClient ? .client : .merged
      var lost: FieldValue?
      if kept == .server, clientChanged { lost = value(client, key) }
      if kept == .client, serverChanged { lost = value(server, key) }
      let encrypted = client.encryptedValues[key] != nil || server.encryptedValues[key] != nil
      outcomes.append(
        KeyOutcome(key: key, kept: kept, lost: encrypted ? nil : lost, lostEncryptedValue: encrypted && lost != nil))
    }
    return outcomes
  }
}
