extension RecordSyncState {
  /// The user creates the record again. A deletion still owed — or one remembered because a save of the deleted
  /// record may land late — is replaced by the new record (whose save overwrites the deleted one, so the deletion is
  /// not sent); doubt about the deleted record's saves ends, the replacement's own saves being what counts from now
  /// on. Otherwise the record is new, and nothing of an earlier one with its ID is known.
  /// - Parameter knownKeys: The keys the app's schema knows for the record's type, if it has one.
  /// - Returns: Whether the new record replaces a deletion (whose pending send is to be withdrawn).
  package mutating func createAgain(knownKeys: Set<String>?) -> Bool {
    let remembered = saveMayLandLate ? localDeletion : nil
    localDeletion = nil
    flags.remove(.deletionAwaitsFetch)
    guard let replaced = deletion ?? remembered else {
      serverVersion = nil
      unacknowledged = UnacknowledgedSaves()
      return false
    }
    deletion = nil
    flags.subtract([.createInDoubt, .lateCreateMayLand])
    replacement = Replacement(replaced: replaced, knownKeys: knownKeys)
    return true
  }

  /// The user deletes a record that replaced a deletion: the deletion it replaced is owed again, and waits for a
  /// fetch.
  /// - Returns: Whether the record was a replacement.
  package mutating func deleteReplacement() -> Bool {
    guard let replacement else { return false }
    self.replacement = nil
    deletion = replacement.replaced
    flags.insert(.deletionAwaitsFetch)
    return true
  }

  /// Takes the server version held back, if any: the record a deletion is of.
  /// - Returns: The version held back, and whether a halt held it.
  package mutating func takeHeldBack() -> HeldBack? {
    defer { heldBack = nil }
    return heldBack
  }

  /// The user deleted the record: the deletion is owed, and waits for a fetch that starts after it. With no server
  /// version known, `seen` (the copy deleted) stands for the version the user saw.
  package mutating func deletionOwed(_ tombstone: Tombstone, seen: Record?) {
    deletion = tombstone
    flags.insert(.deletionAwaitsFetch)
    if serverVersion == nil, let seen { serverVersion = seen }
  }

  /// The user deleted a record the server never had: nothing is sent, and the tombstone is remembered in case a copy
  /// of this device's own save lands after all.
  package mutating func deletedHereOnly(_ tombstone: Tombstone) {
    localDeletion = tombstone
    serverVersion = nil
    unacknowledged = UnacknowledgedSaves()
  }

  /// The deletion owed is over (confirmed, or moot): while a save of the record may still land late, what it was is
  /// remembered (or forgotten, when none was owed), to delete that copy again.
  /// - Returns: The deletion that was owed.
  @discardableResult
  package mutating func deletionSettled() -> Tombstone? {
    let owed = deletion
    deletion = nil
    if saveMayLandLate { localDeletion = owed }
    return owed
  }

  /// A batch handed `record` to the engine: a new record's create may land from now on, and the version sent is
  /// noted (when `noted`) until answered.
  package mutating func handedOut(_ record: Record, new: Bool, noted: Bool) {
    if new { flags.insert(.createHandedOut) }
    if noted { unacknowledged.noteSent(record) }
  }

  /// A save of the record was answered: no create of it is in doubt any more, and nothing sent waits for an answer.
  package mutating func saveAnswered() {
    flags.subtract([.createHandedOut, .createInDoubt])
    unacknowledged = UnacknowledgedSaves()
  }

  /// A save of the record in the store landed as `saved`: it is the server's record now (the server version known,
  /// when `known`), so a version held back before is no longer what a deletion deletes, a replacement has replaced,
  /// and a copy uploaded again is in the new zone.
  package mutating func saveLanded(_ saved: Record, known: Bool) {
    flags.remove(.reuploaded)
    replacement = nil
    heldBack = nil
    if known { serverVersion = saved }
    saveAnswered()
  }

  /// A server version merged (or taken as it is): it is the server version known, and nothing is held back.
  package mutating func merged(_ server: Record) {
    serverVersion = server
    heldBack = nil
  }

  /// The server confirmed the deletion (``deletionSettled()``); when the store holds no record of the ID
  /// (`recordGone`, not one the user created again since), nothing of it is known any more.
  package mutating func deletionConfirmed(recordGone: Bool) {
    deletionSettled()
    guard recordGone else { return }
    serverVersion = nil
    unacknowledged = UnacknowledgedSaves()
  }

  /// The server deleted the record: the record a replacement was to overwrite is gone (the replacement is a new
  /// record now), a version created anew is no more, and the version a halt or a discarded copy left unmerged is gone
  /// too — a deletion made from now on is of whatever the server holds next.
  package mutating func serverDeletedTheRecord() {
    replacement = nil
    recreation?.version = nil
    heldBack = nil
  }

  /// The record's zone went: what was owed in it (deletions, replacements, saves awaiting a fetch, versions held
  /// back, doubt about creates) has nothing left to act on.
  package mutating func zoneWent() {
    deletion = nil
    localDeletion = nil
    replacement = nil
    heldBack = nil
    recreation = nil
    flags.subtract([.deletionAwaitsFetch, .saveAwaitsFetch, .createHandedOut, .createInDoubt, .lateCreateMayLand])
  }
}
