/// Where one zone stands in its sync: whether the server has it, whether its next fetch lists it from the beginning,
/// what a listing under way has seen and decides, and a loss not yet explained. A replica of a database with many
/// zones keeps one per zone, beside the record states keyed by record ID (which name their zone).
package struct ZoneSyncState: Sendable, Hashable, Codable {
  /// Whether the app knows the zone exists on the server.
  package var created = false
  /// Whether the zone's next fetch starts from its beginning: at first launch, after the zone was deleted, and after a
  /// fetch of it ended with an error (an expired token, or the zone not found).
  package var fetchStartsOver = true
  /// The records seen so far by a fetch from the beginning of the zone; `nil` when none is under way. At its end,
  /// acknowledged records it did not bring are gone.
  package var listingSeen: Set<RecordID>?
  /// Whether the listing to come decides what went with a zone deleted and created again, under a policy that uploads
  /// local data again: the acknowledged records it leaves out are uploaded again, not dropped.
  package var listingReuploadsUnseen = false
  /// The reason for a deletion standing for the user's that the listing to come answers: what it leaves out goes,
  /// handed to the app first.
  package var listingDrops: SyncEngine.ZoneDeletion.Reason?
  /// A save found the zone gone, with the reason its error implies: nothing is sent until the database feed says why,
  /// or, when a whole fetch does not say, the error's reason stands.
  package var missing: SyncEngine.ZoneDeletion.Reason?

  /// A zone not yet known to the server, listed from its beginning at its first fetch.
  package init() {}

  /// The zone's next fetch starts from its beginning: the records it lists are all there are.
  package mutating func listAgain() {
    fetchStartsOver = true
    listingSeen = nil
  }
}
