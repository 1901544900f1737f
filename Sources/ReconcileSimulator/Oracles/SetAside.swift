/// Why the judge left a record, or one key of it, unjudged in a run: each case is a placement of requests in doubt
/// (or an outcome of a zone deletion) that the model in *What the oracles judge* derives from what a device could
/// observe and what CloudKit guarantees, which no device can tell from the placement the server's log shows.
///
/// The judge judges every record under the log's placement first; a record is set aside under a reason only when its
/// end state breaks a contract there and that reason's placement allows it (the narrow reasons tried before the
/// whole-record ones). ``SimulationResult/setAside`` counts, per run, the records each reason set aside, so a report
/// shows how much of a run went unjudged and why.
public enum SetAside: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
  /// A device saved the record and never got the answer, and another device created or deleted it without the
  /// device's writes having seen that (a create or deletion they saw is ordered before them). The change feed reports
  /// a deletion the same whether it removed the unanswered save or an older record, and a record under the ID the same
  /// whether it is the unanswered save or another device's: whose record survives is unknowable. The record's
  /// existence and values are not judged.
  case unansweredSaveRaced
  /// A copy of a device's deletion landed unheard of (its answer lost, a stale copy after the device gave up, or a
  /// duplicate) after the record was created anew. Deletions carry no change tag, so a copy still on its way deletes
  /// the new record, and no client can call it back. The record's existence and values are not judged.
  case lateDeletionCopy
  /// A device saved the record and never got the answer, and another client deleted the zone, unseen by the device's
  /// writes, while devices drop their local data on a zone deletion: the save may have landed before the zone deletion
  /// (and gone with it) or after it (and re-created the record), and the device cannot tell which. The record's
  /// existence and values are not judged.
  case unansweredSaveAcrossZoneDeletion
  /// A device's own unanswered save — on its way when the user deleted the record there — landed after the deletion
  /// and revived the record, and another device has saved it since: the deleting device can no longer tell it from a
  /// record created anew elsewhere. The record's existence is not judged.
  case staleSaveRevived
  /// Under `ZoneLossPolicy.reuploadLocalData`, a record deleted before a zone deletion came back from a device
  /// that had not fetched the deletion: re-uploading copies is that option's documented cost. Its existence is not
  /// judged.
  case reuploadedAfterZoneDeletion
  /// Under `.editWins`, an edit that raced a deletion reached the server before it, so the deletion (which carries no
  /// change tag) removed the edited version, or another device's concurrent write may have resolved the edit away
  /// first: nothing was left to revive. The record's existence is not judged.
  case editRemovedByDeletion
  /// Under `.editWins`, a record that was deleted at some point: a revived copy may carry any earlier value of the
  /// device that revived it, so its values are not judged (its existence is).
  case revivedValues
  /// A key ends with the latest value of it a device wrote whose save of the record went unanswered: it cannot know
  /// whether its value landed and was overwritten since, so re-sending it is what it must do. That key is not judged.
  /// (A value the device's own later write replaced is judged: that write saw it, and its value is what goes again.)
  case unansweredValueResent
  /// A key a merging policy settles did not end as its writes' edits would leave it, and a device whose save of the
  /// record went unanswered wrote it: the device cannot tell whether that save landed, so merging its edit again
  /// counts it twice if it did (a counter's increment; an element it removed comes back), and not sending it loses it
  /// if it did not. That key is not judged.
  case unansweredEditMerged
  /// The zone was deleted in a way devices answer by uploading what they hold (an encrypted-data reset; a client's
  /// deletion under `ZoneLossPolicy.reuploadLocalData`), and the device that made the key's latest write lost its
  /// copy to storage damage before uploading it again, as did every other device that held one: the server's copy went
  /// with the zone, so no client has the value to give back. That key is not judged. (A record whose every copy was
  /// lost so is judged gone: its absence is what CloudKit guarantees.)
  case noCopyLeftAfterZoneDeletion
  /// The zone was deleted in a way devices answer by uploading what they hold, the key's latest writes were made on
  /// versions from before that, and another device held a copy too: each device uploads its own copy, some older than
  /// others, and CloudKit keeps no version across a zone's deletion, so no device can tell whose copy is newest and an
  /// older one may win. That key is not judged.
  case copiesOfUnknownAge
  /// The zone was deleted in a way devices answer by uploading what they hold (an encrypted-data reset), in a run
  /// whose database feed was compacted: a device whose database token predates the compaction lists the zones from
  /// the beginning on its next read and never learns why its zone went (such a listing names only the zones there
  /// are), so it answers as to a client's deletion, and under `ZoneLossPolicy.dropLocalData` drops what the
  /// server had acknowledged. Or the zone was deleted again for another reason before a device read the feed, which
  /// reports a zone's last deletion only: the device answers the later reason, and uploads again what an earlier
  /// purge took. The record's existence and values are not judged.
  case zoneDeletionReasonLost

  /// The reason's name.
  public var description: String { rawValue }
}
