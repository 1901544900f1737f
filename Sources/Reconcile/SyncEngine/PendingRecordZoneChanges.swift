extension SyncEngine {
  /// The record changes a state has not sent, in the order they were added, each at most once.
  ///
  /// Not a bare array, so that asking whether a change is pending, adding one and removing one cost the same with ten
  /// changes pending as with ten thousand: an app that creates ten thousand records before its first sync, then hears
  /// of their saves one by one, used to wait on a scan of the list for each. A removed change leaves a hole that is
  /// closed once holes outnumber the changes. The list encodes as the array of its changes, so a persisted state reads
  /// back the same, and two lists are equal when their changes and their order are.
  package struct PendingRecordZoneChanges: Sendable, Hashable, Codable, ExpressibleByArrayLiteral, Sequence {
    /// The changes in the order they were added; `nil` where one was removed.
    private var slots: [PendingRecordZoneChange?] = []
    /// Where each pending change sits in ``slots``.
    private var positions: [PendingRecordZoneChange: Int] = [:]

    /// The changes, in their order; a change listed twice is kept once, where it first appears.
    /// - Parameter changes: The changes.
    package init(_ changes: [PendingRecordZoneChange] = []) {
      for change in changes where positions[change] == nil {
        positions[change] = slots.count
        slots.append(change)
      }
    }

    /// The changes listed, in their order.
    /// - Parameter changes: The changes.
    package init(arrayLiteral changes: PendingRecordZoneChange...) { self.init(changes) }

    /// The changes, in the order they were added, as an array.
    package var ordered: [PendingRecordZoneChange] { Array(self) }

    /// How many changes are pending.
    package var count: Int { positions.count }

    /// ``count``: iterating gives exactly that many.
    package var underestimatedCount: Int { count }

    /// Whether `change` is pending, in constant time (`Sequence`'s `contains` would scan).
    /// - Parameter change: A change.
    package func contains(_ change: PendingRecordZoneChange) -> Bool { positions[change] != nil }

    /// Goes through the changes in the order they were added, passing over the holes removals left.
    package struct Iterator: IteratorProtocol {
      fileprivate var slots: IndexingIterator<[PendingRecordZoneChange?]>

      /// The next change, or `nil` at the end.
      package mutating func next() -> PendingRecordZoneChange? {
        while let slot = slots.next() {
          if let change = slot { return change }
        }
        return nil
      }
    }

    /// An iterator over the changes, in order.
    package func makeIterator() -> Iterator { Iterator(slots: slots.makeIterator()) }

    /// Adds `change` at the end unless it is pending already; a pending change of the other kind to the same record
    /// goes (a save replaces a delete, and a delete a save).
    /// - Parameter change: The change.
    /// - Returns: Whether the list changed.
    package mutating func add(_ change: PendingRecordZoneChange) -> Bool {
      guard positions[change] == nil else { return false }
      let other: PendingRecordZoneChange =
        switch change {
        case .saveRecord(let id): .deleteRecord(id)
        case .deleteRecord(let id): .saveRecord(id)
        }
      _ = remove([other])
      positions[change] = slots.count
      slots.append(change)
      return true
    }

    /// Removes each of `changes` that is pending.
    /// - Parameter changes: The changes.
    /// - Returns: Whether the list changed.
    package mutating func remove(_ changes: some Sequence<PendingRecordZoneChange>) -> Bool {
      var removed = false
      for change in changes {
        guard let position = positions.removeValue(forKey: change) else { continue }
        slots[position] = nil
        removed = true
      }
      if removed, slots.count > 2 * positions.count + 16 { closeHoles() }
      return removed
    }

    private mutating func closeHoles() {
      slots = slots.filter { $0 != nil }
      for (position, change) in slots.enumerated() {
        if let change { positions[change] = position }
      }
    }

    /// Equal when the changes and their order are.
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.count == rhs.count && lhs.elementsEqual(rhs) }

    /// Hashes the changes in order.
    package func hash(into hasher: inout Hasher) {
      hasher.combine(count)
      for change in self { hasher.combine(change) }
    }

    /// Reads the array a state persisted.
    /// - Parameter decoder: The decoder.
    /// - Throws: What the decoder throws.
    package init(from decoder: any Decoder) throws {
      self.init(try decoder.singleValueContainer().decode([PendingRecordZoneChange].self))
    }

    /// Writes the changes as an array.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    package func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(ordered)
    }
  }
}
