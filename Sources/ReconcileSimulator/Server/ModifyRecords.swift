package import Foundation
package import Reconcile

/// Saves and deletes in one request, as `CKModifyRecordsOperation`.
package struct ModifyRecordsRequest: Sendable, Hashable {
  /// The database.
  package var scope: DatabaseScope
  /// Records to save, in order. Under ``SavePolicy/ifServerRecordUnchanged`` and ``SavePolicy/changedKeys`` only each
  /// record's `Record/changedKeys` are sent (every key for a record without a change tag).
  package var saving: [Record]
  /// Records to delete, by ID. A delete carries no change tag: it removes whatever the server holds.
  package var deleting: [RecordID]
  /// How existing records are treated.
  package var savePolicy: SavePolicy
  /// Whether a failure in an ``ZoneCapabilities/atomic`` zone rejects every item of that zone.
  package var isAtomic: Bool
  /// Opaque client data the server keeps per zone and echoes in zone-change fetches.
  package var clientChangeToken: Data?
  /// Per-record save policies that override ``savePolicy`` (the Web Services give each operation its own).
  var savePolicies: [RecordID: SavePolicy] = [:]
  /// Records saved whole: keys the server has that the record lacks are removed (the Web Services' `replace`).
  var replacing: Set<RecordID> = []

  /// Creates a request.
  /// - Parameters:
  ///   - scope: The database; `.private` unless given.
  ///   - saving: Records to save.
  ///   - deleting: IDs to delete.
  ///   - savePolicy: `.ifServerRecordUnchanged` unless given, as in CloudKit.
  ///   - isAtomic: `true` unless given, as in CloudKit.
  ///   - clientChangeToken: Opaque data to keep with each zone touched.
  package init(
    scope: DatabaseScope = .private,
    saving: [Record] = [],
    deleting: [RecordID] = [],
    savePolicy: SavePolicy = .ifServerRecordUnchanged,
    isAtomic: Bool = true,
    clientChangeToken: Data? = nil
  ) {
    self.scope = scope
    self.saving = saving
    self.deleting = deleting
    self.savePolicy = savePolicy
    self.isAtomic = isAtomic
    self.clientChangeToken = clientChangeToken
  }

  /// How many items the request carries, counted against ``SimulatedServer/Limits/maximumBatchItems``.
  package var itemCount: Int { saving.count + deleting.count }
}

/// What the server did with each item of a ``ModifyRecordsRequest``.
package struct ModifyRecordsReply: Sendable, Hashable {
  /// Every saved record as the server now holds it: all its keys, new change tag and modification date.
  ///
  /// CloudKit's response echoes the fields the client sent; the simulator returns the whole server record, so a client
  /// also learns keys another device wrote under a tagless save policy.
  package var saved: [Record]
  /// The IDs deleted, including records removed by a `deleteSelf` cascade.
  package var deleted: [RecordID]
  /// Each failed item's own error. Empty when everything succeeded.
  package var failures: [RecordID: CloudKitError]

  /// Creates a reply.
  /// - Parameters:
  ///   - saved: Saved records.
  ///   - deleted: Deleted IDs.
  ///   - failures: Per-item errors.
  package init(saved: [Record] = [], deleted: [RecordID] = [], failures: [RecordID: CloudKitError] = [:]) {
    self.saved = saved
    self.deleted = deleted
    self.failures = failures
  }

  /// The operation's overall error as CloudKit reports it: ``CloudKitError/partialFailure(_:)`` when any item failed.
  package var partialFailure: CloudKitError? { failures.isEmpty ? nil : .partialFailure(failures) }
}
