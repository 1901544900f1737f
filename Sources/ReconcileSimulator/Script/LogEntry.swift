import Reconcile

/// One entry of `show log --json`: what the trace line says, as fields a program reads without parsing text. Encrypted
/// values never appear (a merge's lost encrypted value is `"<redacted>"`, as in the text).
package struct LogEntry: Encodable, Sendable, Hashable {
  /// `step`, `server`, `decision`, `note` or `quiesce`.
  var kind: String
  /// A step's number, counted from 1.
  var step: Int?
  /// The device a step, a server change or a decision belongs to.
  var device: String?
  /// A step's line; a note's text.
  var text: String?
  /// A server change's number, counted from 1.
  var sequence: Int?
  /// What changed or was decided: `saved`, `deleted`, `zoneCreated`, `zoneDeleted`; `fetched`, `merged`,
  /// `deletion`, `zoneLost`, `halted`.
  var change: String?
  /// The record, as `TYPE/NAME` where the type is known, else its name.
  var record: String?
  /// The change tag a save was given.
  var tag: String?
  /// The zone a zone change names.
  var zone: String?
  /// Why a zone went, a deletion ended as it did, or a device halted.
  var reason: String?
  /// A fetched page's saved and deleted record names.
  var saved: [String]?
  var deleted: [String]?
  /// Whether a merge had an ancestor.
  var hadAncestor: Bool?
  /// A merge's outcome for each key either side changed.
  var keys: [Key]?

  /// One key of a merge.
  struct Key: Encodable, Sendable, Hashable {
    var key: String
    /// `server`, `client` or `merged`.
    var kept: String
    /// The value given away, in script syntax (`<redacted>` for an encrypted one).
    var lost: String?
    /// For a text key: how many stretches overlapped (0: merged cleanly), and how they were settled.
    var textOverlaps: Int?
    var overlapsSettledBy: String?
    /// Where a keep-both policy set the value it did not keep.
    var keptAsideIn: String?
  }

  init(kind: String) { self.kind = kind }

  /// The entry of one trace entry, reading a step from `steps`, the run's steps.
  init(_ entry: TraceEntry, steps: [SimulationStep]) {
    self.init(kind: "step")
    switch entry {
    case .step(let number):
      step = number
      device = steps[number - 1].device
      text = "\(steps[number - 1])"
    case .event(let event):
      kind = "server"
      sequence = event.sequence
      device = event.client?.deviceName ?? "server"
      switch event.kind {
      case .saved(let saved):
        (change, record, tag) = ("saved", "\(saved.recordType)/\(saved.recordID.recordName)", saved.recordChangeTag)
      case .deleted(let id, let type): (change, record) = ("deleted", "\(type)/\(id.recordName)")
      case .zoneCreated(let created): (change, zone) = ("zoneCreated", created.zoneName)
      case .zoneDeleted(let deleted, let why): (change, zone, reason) = ("zoneDeleted", deleted.zoneName, "\(why)")
      }
    case .note(let note):
      kind = "note"
      text = note.trimmingCharacters(in: .whitespaces)
    case .decision(let name, let decision):
      kind = "decision"
      device = name
      describe(decision)
    case .quiesce:
      kind = "quiesce"
    }
  }

  private mutating func describe(_ decision: SyncDecision) {
    switch decision {
    case .fetched(let pageSaved, let pageDeleted):
      change = "fetched"
      saved = pageSaved.map(\.recordName)
      deleted = pageDeleted.map(\.recordName)
    case .merged(let merge):
      change = "merged"
      record = "\(merge.recordType)/\(merge.recordID.recordName)"
      hadAncestor = merge.hadAncestor
      keys = merge.keys.map { outcome in
        Key(
          key: outcome.key, kept: outcome.kept.rawValue,
          lost: outcome.lostEncryptedValue ? "<redacted>" : outcome.lost.map { $0.description },
          textOverlaps: outcome.textOverlaps, overlapsSettledBy: outcome.overlapsSettledBy.map { "\($0)" },
          keptAsideIn: outcome.keptAsideIn)
      }
    case .deletion(let id, let outcome):
      change = "deletion"
      record = id.recordName
      reason = outcome.rawValue
    case .zoneLost(let why, let dropped, let uploadedAgain):
      change = "zoneLost"
      reason = "\(why): dropped \(dropped), uploading \(uploadedAgain) again"
    case .halted(let halt):
      change = "halted"
      reason = "\(halt)"
    }
  }
}
