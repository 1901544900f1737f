extension FieldMerge {
  /// Who wins ``Policy/set(_:)`` when one side has an element the other does not and nothing tells whether it was
  /// added or removed — a record with no ancestor.
  public enum SetRule: String, Sendable, Hashable, CaseIterable {
    /// Keep it: the union.
    case addWins
    /// Drop it: the intersection.
    case removeWins
  }
}

/// The three-way set merge behind ``FieldMerge/Policy/set(_:)``, over lists read as sets.
enum SetMerge {
  /// Every element both sides have, every element a side added since the ancestor, and none a side removed: an element
  /// of the ancestor missing from either side is gone, one missing from the ancestor and present on a side was added.
  /// Without an ancestor, `rule` decides an element only one side has. The result lists the server's elements in its
  /// order, then the client's additions in its order, each once.
  /// - Complexity: O(*a* + *s* + *c*) for the three lists' lengths; short lists (the tags a person types) are numbered
  ///   by comparing values (``ListNumbering``) and held as bit sets, which is faster below a few dozen elements.
  static func merge(
    ancestor: [FieldValue]?, server: [FieldValue], client: [FieldValue], rule: FieldMerge.SetRule
  ) -> [FieldValue] {
    let base = ancestor ?? []
    let total = base.count + client.count + server.count
    guard total <= ListNumbering.shortLimit else {
      return merge(ancestor.map(Set.init), Set(server), Set(client), rule, server: server, client: client)
    }
    return withUnsafeTemporaryAllocation(of: Int32.self, capacity: total) { numbers in
      // At most 48 distinct elements: each version is a 64-bit set of numbers.
      _ = ListNumbering.number(base, client, server, into: numbers)
      func bits(_ range: Range<Int>) -> UInt64 { numbers[range].reduce(0) { $0 | 1 << UInt64($1) } }
      let (a, c) = (base.count, client.count)
      let inAncestor = bits(0..<a)
      let inClient = bits(a..<(a + c))
      let inServer = bits((a + c)..<total)
      func added(_ bit: UInt64) -> Bool { ancestor == nil ? rule == .addWins : inAncestor & bit == 0 }
      var result: [FieldValue] = []
      result.reserveCapacity(server.count + client.count)
      var taken: UInt64 = 0
      for (index, element) in server.enumerated() {
        let bit: UInt64 = 1 << UInt64(numbers[a + c + index])
        guard taken & bit == 0, inClient & bit != 0 || added(bit) else { continue }
        taken |= bit
        result.append(element)
      }
      for (index, element) in client.enumerated() {
        let bit: UInt64 = 1 << UInt64(numbers[a + index])
        guard taken & bit == 0, inServer & bit == 0, added(bit) else { continue }
        taken |= bit
        result.append(element)
      }
      return result
    }
  }

  /// The rule, over the versions held as sets. A server element stays when the client holds it too, or when it is new
  /// since the ancestor; a client element not on the server is added when it is new since the ancestor. Without an
  /// ancestor, `rule` decides an element one side holds.
  private static func merge(
    _ ancestor: Set<FieldValue>?, _ server: Set<FieldValue>, _ client: Set<FieldValue>, _ rule: FieldMerge.SetRule,
    server serverList: [FieldValue], client clientList: [FieldValue]
  ) -> [FieldValue] {
    func added(_ element: FieldValue) -> Bool {
      guard let ancestor else { return rule == .addWins }
      return !ancestor.contains(element)
    }
    var result: [FieldValue] = []
    result.reserveCapacity(serverList.count + clientList.count)
    var seen = Set<FieldValue>()
    for element in serverList where client.contains(element) || added(element) {
      if seen.insert(element).inserted { result.append(element) }
    }
    for element in clientList where !server.contains(element) && added(element) {
      if seen.insert(element).inserted { result.append(element) }
    }
    return result
  }
}
