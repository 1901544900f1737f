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
  /// - Complexity: O(*a* + *s* + *c*) for the three lists' lengths; short lists (the tags a person types) are scanned
  ///   instead of hashed, which is faster below a few dozen elements.
  static func merge(
    ancestor: [FieldValue]?, server: [FieldValue], client: [FieldValue], rule: FieldMerge.SetRule
  ) -> [FieldValue] {
    if server.count + client.count + (ancestor?.count ?? 0) <= 48 {
      return merge(ancestor, server, client, rule, server: server, client: client) { $0.contains($1) }
    }
    return merge(ancestor.map(Set.init), Set(server), Set(client), rule, server: server, client: client) {
      $0.contains($1)
    }
  }

  /// The rule, over the versions held as lists or as sets. A server element stays when the client holds it too, or
  /// when it is new since the ancestor; a client element not on the server is added when it is new since the ancestor.
  /// Without an ancestor, `rule` decides an element one side holds.
  private static func merge<Held>(
    _ ancestor: Held?, _ server: Held, _ client: Held, _ rule: FieldMerge.SetRule, server serverList: [FieldValue],
    client clientList: [FieldValue], contains: (Held, FieldValue) -> Bool
  ) -> [FieldValue] {
    func added(_ element: FieldValue) -> Bool {
      guard let ancestor else { return rule == .addWins }
      return !contains(ancestor, element)
    }
    var result: [FieldValue] = []
    result.reserveCapacity(serverList.count + clientList.count)
    let small = serverList.count + clientList.count <= 48
    var seen = Set<FieldValue>()
    func append(_ element: FieldValue) {
      if small {
        guard !result.contains(element) else { return }
      } else {
        guard seen.insert(element).inserted else { return }
      }
      result.append(element)
    }
    for element in serverList where contains(client, element) || added(element) { append(element) }
    for element in clientList where !contains(server, element) && added(element) { append(element) }
    return result
  }
}
