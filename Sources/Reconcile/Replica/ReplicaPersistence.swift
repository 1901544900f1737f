/// How an app persists a ``ZoneReplica``'s two halves — its records (the ``ReplicaStore``) and the replica's
/// ``ReplicaMetadata`` — after each user action and each event.
///
/// A crash can strike between two writes. Whichever of the two is written first, a crash before the second tears the
/// step apart, and with nothing more a torn step loses a user's change: with the store first, a deletion (the metadata
/// never learnt it was owed, and the next fetch brings the record back); with the metadata first, a create (the record
/// never reached the store). Choose the form your storage allows:
public enum ReplicaPersistence: Sendable, Hashable {
  /// The store's changes and the metadata are written in one transaction (one SQLite transaction, or one file holding
  /// both, as the article's delegate writes them): a crash keeps all of a step or none of it. Nothing more is kept.
  case oneTransaction
  /// Two writes, in this order: the metadata first — it carries every store write made since the app last saved its
  /// store (``ReplicaMetadata/unsavedStoreWrites``) — then the store, then ``ZoneReplica/storeSaved()``. At launch,
  /// ``ZoneReplica/init(configuration:store:metadata:)`` writes the carried records into the store again, so a crash
  /// between the two writes leaves the app where a crash after both would. A crash before the metadata is written
  /// loses the step whole, as it would in one transaction: an event comes again (the engine's state was not saved
  /// either), and a user's action is lost as any unsaved edit is.
  ///
  /// Writing the store first is never safe: its changes may be ahead of the metadata, and no launch can tell a record
  /// the user deleted from one the replica removed.
  case metadataThenStore
}
