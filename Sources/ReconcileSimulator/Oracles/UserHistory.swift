import Foundation
import Reconcile

/// The ground truth of a run: what users did — each create, edit, removal and delete, on which device, at which true
/// time, on top of which server version that device showed — and the faults that withdraw or wipe what they did.
///
/// It is written from what any sync client exposes — the records the app sees, their change tags and fields — never
/// from a client's queues or flags, so the oracles that read it (``IntentJudge``) judge clients Reconcile did not write.
struct UserHistory: Sendable {
  /// One thing a user did to one record.
  struct Action: Sendable {
    enum Kind: Sendable {
      /// A new record with these values.
      case create([String: FieldValue])
      /// Set these keys (`nil` removes the key).
      case edit([String: FieldValue?])
      case delete
    }

    /// Position in the history, from 1: the order in which users acted.
    var order: Int
    var device: String
    var time: Date
    var recordID: RecordID
    var kind: Kind
    /// The server history position of the version the device showed when the user acted (0 for a record it showed
    /// with no change tag, or did not show).
    var base: Int
    /// The edit count the device showed after the action, if the record has one.
    var editCount: Int64?
    /// The per-field stamps the device showed after the action.
    var stamps: [String: HybridTimestamp] = [:]

    /// The keys written and their values (`nil` for a removal); empty for a delete.
    var writes: [String: FieldValue?] {
      switch kind {
      case .create(let values): values.mapValues { Optional($0) }
      case .edit(let values): values
      case .delete: [:]
      }
    }

    var isDelete: Bool {
      if case .delete = kind { return true }
      return false
    }

    var isCreate: Bool {
      if case .create = kind { return true }
      return false
    }
  }

  /// A zone deletion by another client, with what the devices showed at that moment.
  struct ZoneReset: Sendable {
    var time: Date
    /// The server history position of the deletion.
    var position: Int
    /// Per record, the newest server version (as a history position) any device showed just before the deletion.
    var shown: [RecordID: Int]
  }

  /// Damage to one device's stored copy of one record: unsent changes to it may be lost with the copy.
  struct Damage: Sendable {
    var order: Int
    var device: String
    var recordID: RecordID
    var time: Date
  }

  private(set) var actions: [Action] = []
  private(set) var resets: [ZoneReset] = []
  private(set) var damage: [Damage] = []
  /// Per record, the devices that saved it and never got the answer (lost, or given up on): they cannot know whether
  /// the save landed.
  private(set) var unansweredSaves: [RecordID: Set<String>] = [:]
  /// Per record, the devices whose deletion of it landed with no answer reaching them (lost, a stale copy after they
  /// gave up, or a duplicate): they cannot know when it landed.
  private(set) var unansweredDeletes: [RecordID: Set<String>] = [:]
  private var counter = 0

  mutating func record(_ action: Action) {
    counter += 1
    var numbered = action
    numbered.order = counter
    actions.append(numbered)
  }

  mutating func recordReset(_ reset: ZoneReset) { resets.append(reset) }

  mutating func recordDamage(device: String, recordID: RecordID, time: Date) {
    counter += 1
    damage.append(Damage(order: counter, device: device, recordID: recordID, time: time))
  }

  /// Notes saves and deletions of `device` that landed, or may have landed, with no answer reaching it.
  mutating func recordUnanswered(saved: [RecordID], deleted: [RecordID] = [], device: String) {
    for id in saved { unansweredSaves[id, default: []].insert(device) }
    for id in deleted { unansweredDeletes[id, default: []].insert(device) }
  }

  /// Whether the history holds any deletion by a user.
  var hasDeletes: Bool { actions.contains { $0.isDelete } }
}
