/// The three-way list merge behind ``FieldMerge/Policy/listUnion``.
enum ListUnion {
  /// Every element either side has, minus those a side removed since the ancestor: the server's elements in its order,
  /// then the client's additions in its order, each element once.
  /// - Complexity: O(*a* + *s* + *c*) for the three lists' lengths.
  static func merge(ancestor: [FieldValue]?, server: [FieldValue], client: [FieldValue]) -> [FieldValue] {
    let serverSet = Set(server)
    let clientSet = Set(client)
    var removed = Set<FieldValue>()
    for element in ancestor ?? [] where !serverSet.contains(element) || !clientSet.contains(element) {
      removed.insert(element)
    }
    var seen = Set<FieldValue>()
    var result: [FieldValue] = []
    result.reserveCapacity(server.count + client.count)
    for element in server + client where !removed.contains(element) && seen.insert(element).inserted {
      result.append(element)
    }
    return result
  }
}
