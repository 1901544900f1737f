/// The three-way ordered-list merge behind ``FieldMerge/Policy/orderedList``: `diff3` over the lists' elements, then
/// removals and moves made whole.
enum OrderedListMerge {
  /// Both sides' insertions and removals, in place, and each side's moves where the other did not move the same
  /// element:
  /// - the lists merge as `diff3` merges lines (``ThreeWayMerge``); where both sides changed the same stretch
  ///   differently, the server's version comes first, then the client's;
  /// - an element of the ancestor that either side no longer holds is removed, wherever the other side put it;
  /// - an element is held at most as many times as the side holding it most often does: a copy left over from a move
  ///   (removed in one place, inserted in another) is dropped, the client's copy before the server's, so when both
  ///   sides moved one element the server's place wins.
  /// - Complexity: two ``SequenceDiff`` runs over the interned elements, then linear passes.
  static func merge(ancestor: [FieldValue], server: [FieldValue], client: [FieldValue]) -> [FieldValue] {
    var table = TokenTable<FieldValue>()
    let pieces = ThreeWayMerge.merge(
      ancestor: table.number(ancestor), client: table.number(client), server: table.number(server))
    var merged: [(value: FieldValue, fromClient: Bool)] = []
    merged.reserveCapacity(max(server.count, client.count) + 4)
    for piece in pieces {
      switch piece {
      case .ancestor(let range): merged += ancestor[range].map { ($0, false) }
      case .server(let range): merged += server[range].map { ($0, false) }
      case .client(let range): merged += client[range].map { ($0, true) }
      case .overlap(_, let clientRange, let serverRange):
        merged += server[serverRange].map { ($0, false) }
        merged += client[clientRange].map { ($0, true) }
      }
    }
    let serverCounts = counts(server)
    let clientCounts = counts(client)
    var allowed: [FieldValue: Int] = [:]
    for element in Set(ancestor) where serverCounts[element] == nil || clientCounts[element] == nil {
      allowed[element] = 0
    }
    for (element, count) in serverCounts where allowed[element] == nil {
      allowed[element] = max(count, clientCounts[element] ?? 0)
    }
    for (element, count) in clientCounts where allowed[element] == nil { allowed[element] = count }
    // Extra copies are dropped from the client's first, then from the end.
    var held = counts(merged.map(\.value))
    var keep = [Bool](repeating: true, count: merged.count)
    for pass in [true, false] {
      for index in merged.indices.reversed() where keep[index] && (!pass || merged[index].fromClient) {
        let element = merged[index].value
        guard let count = held[element], count > allowed[element, default: 0] else { continue }
        keep[index] = false
        held[element] = count - 1
      }
    }
    return merged.indices.filter { keep[$0] }.map { merged[$0].value }
  }

  private static func counts(_ list: [FieldValue]) -> [FieldValue: Int] {
    var counts: [FieldValue: Int] = [:]
    for element in list { counts[element, default: 0] += 1 }
    return counts
  }
}
