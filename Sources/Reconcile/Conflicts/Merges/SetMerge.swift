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
  /// - Complexity: O(*a* + *s* + *c*) for the three lists' lengths.
  static func merge(
    ancestor: [FieldValue]?, server: [FieldValue], client: [FieldValue], rule: FieldMerge.SetRule
  ) -> [FieldValue] {
    let serverSet = Set(server)
    let clientSet = Set(client)
    let ancestorSet = ancestor.map(Set.init)
    func keeps(_ element: FieldValue) -> Bool {
      let onServer = serverSet.contains(element)
      let onClient = clientSet.contains(element)
      if onServer && onClient { return true }
      guard let ancestorSet else { return rule == .addWins }
      // Only one side has it: added there (not in the ancestor), or removed by the other.
      return !ancestorSet.contains(element)
    }
    var seen = Set<FieldValue>()
    var result: [FieldValue] = []
    result.reserveCapacity(server.count + client.count)
    for element in server where keeps(element) && seen.insert(element).inserted { result.append(element) }
    for element in client where keeps(element) && seen.insert(element).inserted { result.append(element) }
    return result
  }
}
