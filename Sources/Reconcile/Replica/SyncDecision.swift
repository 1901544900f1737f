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
    /// What the resolver noted of each text key it merged.
    let texts: [String: MergeNotes.Text]
    /// Keys the resolver writes for itself (edit stamps): not the user's data, so never an outcome.
    let bookkeeping: Set<String>

    /// The record merged.
    public var recordID: RecordID { result.recordID }
    /// The record's type.
    public var recordType: String { result.recordType }
    /// Whether the merge had an ancestor (without one, every key either side holds counts as changed).
    public var hadAncestor: Bool { ancestor != nil }
    /// Each key either side changed, and what was kept.
    public var keys: [KeyOutcome] {
      SyncDecision.outcomes(
        client: client, ancestor: ancestor, server: server, merged: result, texts: texts, bookkeeping: bookkeeping)
    }

    /// A merge of `client` and `server` over `ancestor` into `result`.
    /// - Parameters:
    ///   - texts: What the resolver noted of the text keys it merged; none unless given.
    ///   - bookkeeping: Keys the resolver writes for itself, left out of the outcomes; none unless given.
    package init(
      client: Record, ancestor: Record?, server: Record, result: Record, texts: [String: MergeNotes.Text] = [:],
      bookkeeping: Set<String> = []
    ) {
      self.client = client
      self.ancestor = ancestor
      self.server = server
      self.result = result
      self.texts = texts
      self.bookkeeping = bookkeeping
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
    /// For a key merged as text: how many stretches both sides changed differently (0: merged cleanly, nothing
    /// lost); `nil` for any other key.
    public var textOverlaps: Int? = nil
    /// For a key merged as text with overlaps: how the policy settled them.
    public var overlapsSettledBy: FieldMerge.TextOverlap? = nil
    /// The key that holds the value the merge did not keep here (a keep-both policy set it aside), when one does:
    /// then nothing was lost.
    public var keptAsideIn: String? = nil

    /// `title: kept server, lost "draft"`; `body: merged cleanly`; `body: merged, 1 overlap, both versions kept`;
    /// `title: kept server, the client's in titleConflict`.
    public var description: String {
      if let textOverlaps {
        guard textOverlaps > 0 else { return "\(key): merged cleanly" }
        let count = textOverlaps == 1 ? "1 overlap" : "\(textOverlaps) overlaps"
        return "\(key): merged, \(count), \(Self.settled(overlapsSettledBy))"
      }
      var text = "\(key): \(kept == .merged ? "merged" : "kept \(kept.rawValue)")"
      if let keptAsideIn {
        text += ", the \(kept == .server ? "client" : "server")'s in \(keptAsideIn)"
      } else if lostEncryptedValue {
        text += ", lost <redacted>"
      } else if let lost {
        text += ", lost \(lost.description)"
      }
      return text
    }

    /// How overlaps were settled, as the trace says it.
    private static func settled(_ policy: FieldMerge.TextOverlap?) -> String {
      switch policy {
      case .server?: "the server's version kept (the client's lost there)"
      case .client?: "the client's version kept (the server's lost there)"
      case .both?: "both versions kept"
      case .markers?: "both versions kept between conflict markers"
      case .localClock(let key)?: "the side with the later \(key) kept (the other's lost there)"
      case .editCount(let key)?: "the side with the higher \(key) kept (the other's lost there)"
      case nil: "settled"
      }
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

  /// One line: `merged Note/n1 over the last version it knew: title: kept client; body: merged cleanly`.
  public var description: String {
    switch self {
    case .fetched(let saved, let deleted):
      // A page names record IDs only: "record 1" reads as a name where "1" alone reads as a count.
      let names = { (ids: [RecordID]) in
        (ids.count == 1 ? "record " : "records ") + ids.map(\.recordName).joined(separator: ", ")
      }
      var parts: [String] = []
      if !saved.isEmpty { parts.append("saved \(names(saved))") }
      if !deleted.isEmpty { parts.append("deleted \(names(deleted))") }
      return "fetched " + (parts.isEmpty ? "nothing new" : parts.joined(separator: "; "))
    case .merged(let merge):
      let how = merge.hadAncestor ? "over the last version it knew" : "with no ancestor"
      let keys = merge.keys
      return "merged \(merge.recordType)/\(merge.recordID.recordName) \(how): "
        + (keys.isEmpty ? "nothing changed" : keys.map(\.description).joined(separator: "; "))
    case .deletion(let id, let outcome):
      return "\(id.recordName): \(outcome.rawValue)"
    case .zoneLost(let reason, let dropped, let uploadedAgain):
      return "zone lost (\(reason)): dropped \(dropped), uploading \(uploadedAgain) again"
    case .halted(let halt):
      return "halted: \(halt)"
    }
  }

  /// The outcome of each key either side changed, comparing the merge with both sides over the ancestor; a text key
  /// with what the resolver noted of its merge, a key the resolver writes for itself left out.
  static func outcomes(
    client: Record, ancestor: Record?, server: Record, merged: Record, texts: [String: MergeNotes.Text] = [:],
    bookkeeping: Set<String> = []
  ) -> [KeyOutcome] {
    func value(_ record: Record, _ key: String) -> FieldValue? { record.encryptedValues[key] ?? record[key] }
    var keys = Set(client.allKeys).union(server.allKeys).union(merged.allKeys)
    if let ancestor { keys.formUnion(ancestor.allKeys) }
    var outcomes: [KeyOutcome] = []
    for key in keys.sorted() where !bookkeeping.contains(key) {
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
      var outcome = KeyOutcome(
        key: key, kept: kept, lost: encrypted ? nil : lost, lostEncryptedValue: encrypted && lost != nil)
      if let text = texts[key] {
        outcome.textOverlaps = text.overlaps
        outcome.overlapsSettledBy = text.overlaps > 0 ? text.settledBy : nil
        outcome.lost = nil
        outcome.lostEncryptedValue = false
      } else if let lost, let aside = keptAside(lost, of: key, in: merged, client: client, server: server, keys: keys) {
        // Set aside by a keep-both policy: in another key the merge wrote, so nothing was lost.
        outcome.keptAsideIn = aside
        outcome.lost = nil
        outcome.lostEncryptedValue = false
      }
      outcomes.append(outcome)
    }
    return outcomes
  }

  /// The key other than `key` where the merge itself wrote `lost` (neither side held it there), if any.
  private static func keptAside(
    _ lost: FieldValue, of key: String, in merged: Record, client: Record, server: Record, keys: Set<String>
  ) -> String? {
    func value(_ record: Record, _ key: String) -> FieldValue? { record.encryptedValues[key] ?? record[key] }
    return keys.sorted().first { other in
      other != key && value(merged, other) == lost && value(server, other) != lost && value(client, other) != lost
    }
  }
}
